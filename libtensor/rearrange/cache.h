/* Internal: the process-wide LRU cache of parsed, checked patterns keyed
 * by (pattern, op), so a pattern is parsed once per process. Thread-safe. */
#ifndef LT_PATTERN_CACHE_H
#define LT_PATTERN_CACHE_H

#include "pattern.h"

typedef struct lt__cached_pattern lt__cached_pattern;

/* The checked AST of pattern for op, parsing it on a miss; NULL with *err
 * set when the pattern is invalid (errors are not cached) or on
 * LT_ERR_NOMEM. Release with lt__pattern_release. */
lt__cached_pattern *lt__pattern_acquire(const char *pattern, lt__pattern_op op, lt__pattern_error *err);
const lt__ast *lt__pattern_ast(const lt__cached_pattern *c);
void lt__pattern_release(lt__cached_pattern *c);

#endif
