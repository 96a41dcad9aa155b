#!/usr/bin/env bash
# The whole GPU verification in one command, on any machine with an NVIDIA
# GPU and the CUDA toolkit: builds libtensor with the CUDA backend (in
# build-cuda-check/, release), runs the CUDA suite (every CPU-versus-CUDA
# comparison) and the other unit suites, runs bench_cuda, and prints a
# summary against the targets: permute and transpose copies at >= 70% of
# cudaMemcpy device-to-device bandwidth, matmul at >= 90% of cublasGemmEx
# called directly. Exits non-zero when a suite fails, a target is missed,
# or no CUDA device answers.
# Usage: bench/cuda-check.sh [build-dir]; BENCH_ARGS="--reps 20 --n 4096"
# passes options to bench_cuda.
set -u
cd "$(dirname "$0")/.."
build=${1:-build-cuda-check}
export PATH="$PATH:/usr/local/cuda/bin"
command -v nvcc >/dev/null || { echo "cuda-check: nvcc is not on PATH (nor in /usr/local/cuda/bin)"; exit 1; }
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Dcuda=enabled -Dbuildtype=release || exit 1
fi
ninja -C "$build" || exit 1

summary=()
failed=0
note() { summary+=("$1"); }

# 1. The CUDA suite, its Check output in full.
CK_VERBOSITY=normal "$build/tests/test_cuda"
rc=$?
case $rc in
  0) note "CUDA suite: passed" ;;
  77) note "CUDA suite: SKIPPED, no CUDA device answers (is the driver loaded? nvidia-smi?)"; failed=1 ;;
  *) note "CUDA suite: FAILED (exit $rc)"; failed=1 ;;
esac

# 2. Every other unit suite, on this build.
if meson test -C "$build" --no-suite slow --no-suite peers --print-errorlogs >/dev/null; then
  note "unit suites: passed"
else
  note "unit suites: FAILED (see $build/meson-logs/testlog.txt)"
  failed=1
fi

# 3. The benchmarks, and their ratios against the targets.
log="$build/bench_cuda.log"
# shellcheck disable=SC2086 # BENCH_ARGS is a list of options
if "$build/bench/bench_cuda" --json ${BENCH_ARGS:-} | tee "$log"; then
  worst() { # worst ratio among JSON lines of bench $1 whose case matches $2
    grep "\"bench\":\"$1\"" "$log" | grep -E "\"case\":\"[^\"]*($2)" | grep -o '"ratio":[0-9.]*' |
      cut -d: -f2 | sort -g | head -1
  }
  copy=$(worst cuda_copy 'permute|transpose')
  mm=$(worst cuda_matmul '.')
  if [ -z "$copy" ] || [ -z "$mm" ]; then
    note "benchmarks: no figures (no device?)"
    failed=1
  else
    if awk "BEGIN{exit !($copy >= 0.70)}"; then note "permute copies: worst ratio $copy of cudaMemcpy (target 0.70): ok"
    else note "permute copies: worst ratio $copy of cudaMemcpy (target 0.70): MISSED"; failed=1; fi
    if awk "BEGIN{exit !($mm >= 0.90)}"; then note "matmul: worst ratio $mm of cublasGemmEx (target 0.90): ok"
    else note "matmul: worst ratio $mm of cublasGemmEx (target 0.90): MISSED"; failed=1; fi
  fi
else
  note "benchmarks: bench_cuda FAILED"
  failed=1
fi

echo
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
echo "cuda-check summary (${gpu:-nvidia-smi found no GPU}):"
for line in "${summary[@]}"; do echo "  $line"; done
[ "$failed" -eq 0 ] && echo "cuda-check: all passed" || echo "cuda-check: FAILED"
exit "$failed"
