/* Internal: the CPU backend's kernels. */
#ifndef LT_CPU_KERNELS_H
#define LT_CPU_KERNELS_H

#include "dispatch.h"

/* The strided copy (with dtype conversion) of lt__copy_args. */
lt_status lt__cpu_copy(const lt__copy_args *a);
/* The reduction of lt__reduce_args (sum, mean, max, min, prod). */
lt_status lt__cpu_reduce(const lt__reduce_args *a);
/* The batched products of lt__matmul_args, through OpenBLAS. */
lt_status lt__cpu_matmul(const lt__matmul_args *a);
/* The elementwise op of lt__ew_args. */
lt_status lt__cpu_elementwise(const lt__ew_args *a);
/* The reductions of lt__red_args (sum, mean, amax, amin, argmax). */
lt_status lt__cpu_reduce_dims(const lt__red_args *a);
/* Softmax and log-softmax along one dim. */
lt_status lt__cpu_softmax(const lt__softmax_args *a);

#endif
