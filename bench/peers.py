#!/usr/bin/python3
"""bench/peers.py: the access-cost cases of bench_access run through NumPy
and PyTorch, printed side by side with libtensor's in one run.

It runs bench_access --json (--bench, default build/bench/bench_access) with
the same --sizes/--reps/--threads/--alloc, then measures each case itself:
numpy copies with np.copyto(dst, view) into a preallocated dst (with --alloc,
np.ascontiguousarray(view)), torch with dst.copy_(view) (with --alloc,
view.contiguous()), torch.set_num_threads(--threads). Each side's ratio is
to its own memcpy, measured in its own process and timed in turn with the
case sample by sample (median of the pairs' ratios): bench_access's C
memcpy for libtensor, np.copyto of contiguous arrays here for both peers
(split over --threads Python threads, as numpy releases the GIL while
copying). numpy's own copies are single-threaded at any --threads. The
last column, lead, is libtensor's ratio over the best peer's: the
bandwidth drifts between the processes, and the ratios cancel it.

Bytes, sizes, shapes and timing follow bench/access.c exactly (see its
header): GB/s = 2 * numel * 4 bytes / s; median of --reps samples after a
warm-up call that also sets how many calls one sample batches. Its memcpy
row gives the median of all the memcpy samples at that size.

Runs on /usr/bin/python3 with Debian's packages only (python3-numpy,
python3-torch from apt; no pip, no venv). A peer that is not installed is
shown as "skipped: <peer> not installed", never a crash.

Usage: /usr/bin/python3 bench/peers.py [--bench PATH] [--sizes 1,64,512]
                                       [--reps N] [--threads N] [--alloc]
"""
import argparse
import json
import math
import statistics
import subprocess
import sys
import threading
import time

try:
    import numpy as np
except ImportError:
    np = None
try:
    import torch
except ImportError:
    torch = None

SAMPLE_SECONDS = 0.01  # as access.c: short calls are timed in batches

# (name, kind, step, ndim, perm): the table in bench/access.c, same order.
CASES = (
    [("contiguous", "contiguous", 1, 0, ())]
    + [(f"strided read s={s}", "strided_read", s, 0, ()) for s in (1, 2, 4, 8, 16, 32, 64)]
    + [(f"strided write s={s}", "strided_write", s, 0, ()) for s in (1, 2, 4, 8, 16, 32, 64)]
    + [("transpose 2-D", "permute", 1, 2, (1, 0))]
    + [("permute 3-D (%d,%d,%d)" % p, "permute", 1, 3, p)
       for p in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))]
    + [("permute BHTD (%d,%d,%d,%d)" % p, "permute", 1, 4, p)
       for p in ((0, 2, 1, 3), (0, 2, 3, 1), (0, 3, 1, 2), (3, 2, 1, 0))]
    + [("last dim step 2", "last_dim_step", 2, 0, ()),
       ("last dim reversed", "last_dim_step", -1, 0, ()),
       ("expand [1,N]->[M,N]", "expand", 1, 0, ())]
)


class NotExpressible(Exception):
    """The peer has no view for this case (torch: negative steps)."""


def batch_length(run):
    """Calls one sample of run(k) batches: one call at least SAMPLE_SECONDS
    long, else enough calls to take that long (timed after a first call,
    which is also the warm-up)."""
    t0 = time.perf_counter()
    run(1)
    first = time.perf_counter() - t0
    return 1 if first >= SAMPLE_SECONDS else min(1000000, int(SAMPLE_SECONDS / max(first, 1e-9)) + 1)


def timed(run, k):
    t0 = time.perf_counter()
    run(k)
    return (time.perf_counter() - t0) / k


def middle_half(values):
    """The first and third quartiles of values, picked as access.c's
    measure_paired picks them from its sorted samples."""
    v, quarter = sorted(values), (len(values) - 1) // 4
    return v[quarter], v[len(v) - 1 - quarter]


def paired_gbs(run, nbytes, base, base_bytes, reps):
    """(GB/s of run, GB/s of base, ratio, (q1, q3)): each of the reps
    samples of run timed in turn with one of base (the memcpy), as
    access.c's measure_paired does, because the bandwidth of a shared
    machine drifts within a run; GB/s are medians of the samples, the
    ratio the median of the pairs' ratios, beside their middle half."""
    kb, k = batch_length(base), batch_length(run)
    gbs, base_gbs, ratios = [], [], []
    for _ in range(reps):
        tb, t = timed(base, kb), timed(run, k)
        gbs.append(nbytes / t / 1e9)
        base_gbs.append(base_bytes / tb / 1e9)
        ratios.append(gbs[-1] / base_gbs[-1])
    return statistics.median(gbs), statistics.median(base_gbs), statistics.median(ratios), middle_half(ratios)


def matrix_shape(n):
    rows = math.isqrt(n)
    return (rows, n // rows)


def permute_shape(ndim, n):
    if ndim == 2:
        return matrix_shape(n)
    if ndim == 3:
        a = round(n ** (1 / 3))
        while a ** 3 > n:
            a -= 1
        while (a + 1) ** 3 <= n:
            a += 1
        return (a, a, n // (a * a))
    return (4, 12, n // (4 * 12 * 64), 64)


class NumpyPeer:
    name = "numpy"

    def buffers(self, n):
        src = (np.arange(n, dtype=np.int64) % 1021 + 1).astype(np.float32)
        return src, np.full(n, 0, dtype=np.float32)  # full, not zeros: pages touched now

    def slice(self, a, step):
        return a[..., ::step]

    def permute(self, a, perm):
        return a.transpose(perm)

    def expand(self, row, shape):
        return np.broadcast_to(row, shape)

    def copy_op(self, dst, view):
        return lambda: np.copyto(dst, view)

    def alloc_op(self, view):
        # ascontiguousarray returns a contiguous view itself; copy() keeps
        # those cases copying, as lt_clone does in access.c.
        if view.flags.c_contiguous:
            return view.copy
        return lambda: np.ascontiguousarray(view)


class TorchPeer:
    name = "torch"

    def buffers(self, n):
        src = (torch.arange(n, dtype=torch.int64) % 1021 + 1).to(torch.float32)
        return src, torch.zeros(n, dtype=torch.float32)

    def slice(self, a, step):
        if step < 0:
            raise NotExpressible("torch views have no negative strides")
        return a[..., ::step]

    def permute(self, a, perm):
        return a.permute(perm)

    def expand(self, row, shape):
        return row.expand(shape)

    def copy_op(self, dst, view):
        return lambda: dst.copy_(view)

    def alloc_op(self, view):
        if view.is_contiguous():
            return view.clone
        return view.contiguous


def case_views(peer, case, src, dst):
    """(view read, destination written) over 1-D src and dst, as in access.c."""
    _, kind, step, ndim, perm = case
    n = src.shape[0]
    if kind == "contiguous":
        return src, dst
    if kind == "strided_read":
        view = peer.slice(src, step)
        return view, dst[: view.shape[0]]
    if kind == "strided_write":
        to = peer.slice(dst, step)
        return src[: to.shape[0]], to
    if kind == "permute":
        shape = permute_shape(ndim, n)
        view = peer.permute(src[: math.prod(shape)].reshape(shape), perm)
    else:
        rows, cols = matrix_shape(n)
        if kind == "last_dim_step":
            view = peer.slice(src[: rows * cols].reshape(rows, cols), step)
        else:
            view = peer.expand(src[:cols].reshape(1, cols), (rows, cols))
    shape = tuple(view.shape)
    return view, dst[: math.prod(shape)].reshape(shape)


def case_op(peer, case, src, dst, args):
    """(run(k) that makes k calls of the case, bytes one call moves)."""
    view, to = case_views(peer, case, src, dst)
    op = peer.alloc_op(view) if args.alloc else peer.copy_op(to, view)

    def run(k):
        for _ in range(k):
            op()

    return run, 2.0 * math.prod(view.shape) * 4


def memcpy_op(n, args):
    """run(k): k np.copyto of contiguous n-float arrays, split over
    args.threads threads; and the bytes one call moves."""
    src = np.full(n, 1, dtype=np.float32)
    dst = np.full(n, 0, dtype=np.float32)
    bounds = [n * i // args.threads for i in range(args.threads + 1)]
    parts = [(dst[lo:hi], src[lo:hi]) for lo, hi in zip(bounds, bounds[1:])]

    def repeat(d, s, k):
        for _ in range(k):
            np.copyto(d, s)

    def run(k):
        if args.threads == 1:
            return repeat(dst, src, k)
        workers = [threading.Thread(target=repeat, args=(d, s, k)) for d, s in parts]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    return run, 2.0 * n * 4


def measure_peer(peer, mib, args, memcpy):
    """{case name: (GB/s, ratio, (q1, q3)) or a note} for one peer at one
    size, each case paired with memcpy; "memcpy" maps to the median of its
    samples."""
    src, dst = peer.buffers((mib << 20) // 4)
    out, base_gbs = {}, []
    for case in CASES:
        if args.alloc and case[1] == "strided_write":
            continue
        print(".", end="", file=sys.stderr, flush=True)
        try:
            run, nbytes = case_op(peer, case, src, dst, args)
            gbs, base, ratio, middle = paired_gbs(run, nbytes, *memcpy, args.reps)
            out[case[0]] = (gbs, ratio, middle)
            base_gbs.append(base)
        except NotExpressible:
            out[case[0]] = "n/a: negative stride"
    out["memcpy"] = (statistics.median(base_gbs), 1.0, (1.0, 1.0))
    return out


def measure_peers(args):
    """{(peer, case, size_bytes): cell}, cell (GB/s, ratio, (q1, q3)) or a
    note."""
    peers = [p for p, mod in ((NumpyPeer(), np), (TorchPeer(), torch)) if mod is not None]
    if torch is not None:
        torch.set_num_threads(args.threads)
    if np is None:  # without numpy there is no memcpy base here
        return {}
    cells = {}
    for mib in args.sizes:
        print(f"peers: {mib} MiB ", end="", file=sys.stderr, flush=True)
        memcpy = memcpy_op((mib << 20) // 4, args)
        for peer in peers:
            for name, cell in measure_peer(peer, mib, args, memcpy).items():
                cells[(peer.name, name, mib << 20)] = cell
        del memcpy
        print(file=sys.stderr)
    return cells


def run_libtensor(args):
    """{case, size_bytes: (GB/s, ratio, (q1, q3))} from bench_access, or a
    note why not."""
    cmd = [args.bench, "--json", "--sizes", ",".join(map(str, args.sizes)),
           "--reps", str(args.reps), "--threads", str(args.threads)]
    if args.alloc:
        cmd.append("--alloc")
    try:
        done = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    except OSError as e:
        return f"skipped: {args.bench}: {e.strerror}"
    if done.returncode != 0:
        return f"skipped: bench_access exited {done.returncode}"
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {(r["case"], r["size_bytes"]): (r["gbs"], r["ratio"], (r["ratio_q1"], r["ratio_q3"])) for r in rows}


def cell_text(cell):
    if isinstance(cell, str):
        return f"{cell:>20}"
    gbs, ratio, _ = cell
    return f"{gbs:10.2f} {ratio:9.3f}"


def lead_text(cells):
    """libtensor's ratio over the best peer's: the ratios, each to a memcpy
    timed in turn with it, compare across processes where GB/s drift.
    Marked ~ where the middle halves of the two sides' sample ratios
    overlap: a lead that the drift within the run could make or unmake."""
    ours, peers = cells[0], [c for c in cells[1:] if isinstance(c, tuple)]
    if not isinstance(ours, tuple) or not peers:
        return ""
    best = max(peers, key=lambda c: c[1])
    (lo, hi), (best_lo, best_hi) = ours[2], best[2]
    return f" {ours[1] / best[1]:7.2f}" + ("~" if lo <= best_hi and best_lo <= hi else "")


def print_table(args, ours, peer_cells):
    mode = "allocating copy (lt_contiguous / ascontiguousarray / .contiguous())" if args.alloc else \
        "copy into a preallocated destination (lt_copy / np.copyto / copy_)"
    print(f"access costs, f32, {mode}, {args.threads} thread(s), median of {args.reps}")
    print("each side: GB/s = (bytes read + bytes written) / s; ratio = median of GB/s / GB/s of its own memcpy")
    print("timed in turn; lead = libtensor's ratio / the best peer's ratio (> 1: libtensor is faster),")
    print("~ where the middle halves of the two sides' sample ratios overlap (within the run's drift)\n")
    print(f"{'case':24} {'size':>8}" + "".join(f" {p:>10} {'ratio':>9}" for p in ("libtensor", "numpy", "torch"))
          + f" {'lead':>7}")
    missing = {"numpy": np is None, "torch": torch is None or np is None}
    names = ["memcpy"] + [c[0] for c in CASES if not (args.alloc and c[1] == "strided_write")]
    for mib in args.sizes:
        for name in names:
            cells = [ours if isinstance(ours, str) else ours.get((name, mib << 20), "missing")]
            for peer, absent in missing.items():
                if absent:
                    why = "not installed" if peer == "numpy" or torch is None else "needs numpy"
                    cells.append(f"skipped: {peer} {why}")
                else:
                    cells.append(peer_cells.get((peer, name, mib << 20), "missing"))
            print(f"{name:24} {mib:4d} MiB" + "".join(" " + cell_text(c) for c in cells) + lead_text(cells))


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", default="build/bench/bench_access")
    ap.add_argument("--sizes", default="1,64,512", help="MiB, comma-separated")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--alloc", action="store_true")
    args = ap.parse_args()
    try:
        args.sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        ap.error("--sizes takes MiB counts, e.g. 1,64")
    if not all(s >= 1 for s in args.sizes) or not 1 <= args.reps <= 64 or not 1 <= args.threads <= 64:
        ap.error("sizes >= 1, reps 1..64, threads 1..64")
    return args


def main():
    args = parse_args()
    ours = run_libtensor(args)
    print_table(args, ours, measure_peers(args))


if __name__ == "__main__":
    main()
