#!/usr/bin/python3
"""bench/peers.py: the access-cost cases of bench_access run through
libtensor, NumPy and PyTorch in one process, printed side by side.

Each case is measured on the three sides together before the next case:
libtensor through ctypes (--lib, default build/libtensor.so) with
lt_copy(dst, view) into a preallocated dst (with --alloc, lt_contiguous or,
for a view that is contiguous already, lt_clone, then lt_release), each
view's layout (over numpy's arrays) wrapped with lt_wrap; numpy with
np.copyto(dst, view) (with --alloc, np.ascontiguousarray(view)); torch with
dst.copy_(view) (with --alloc, view.contiguous()). lt_set_num_threads and
torch.set_num_threads take --threads; numpy's copies are single-threaded at
any --threads. Every side's ratio is to the same memcpy, np.copyto of
contiguous arrays (split over --threads Python threads, as numpy releases
the GIL while copying), timed in turn with the case sample by sample
(median of the pairs' ratios). The last column, lead, is libtensor's ratio
over the best peer's. All sides copy over the same two buffers, and their
samples of a case interleave: each round takes one (memcpy, case) pair of
samples from every side in turn. A side that ran a whole case just after
another over the same buffers found the lines that one had brought into
the last-level cache (64 MiB, lead of libtensor run first -> run second
over numpy's buffers, two runs each: strided read s=32 0.80-0.82 ->
1.13-1.15, s=64 0.89-0.91 -> 1.20-1.26, strided write s=64 0.59-0.71 ->
1.11-1.51); interleaved, each side's sample comes after another side's
over the same lines (with a memcpy sample between), alike for every
side. Buffers of each side's own, the previous cure, sat on other
physical pages, and at 1 MiB (both buffers fill a 2 MiB L2) pages alone
moved a copy by a tenth (np.copyto and lt_copy of 1 MiB over one pair of
arrays 65.5 and 65.6-68.3 GB/s, over a second pair 57.0 and 56.8-57.0,
where both call the same memcpy). (Run one after another in separate
processes, as bench_access and this script once were, the sides differed
by up to a fifth on cases where in one process they tie: the machine's
state moves between processes more than the pairing with memcpy cancels.
Each side pays Python's call overhead, under a microsecond (a 16-float copy: 0.63
us through ctypes, 0.56 us np.copyto, 0.80 us copy_), 2-3% of a 1 MiB
copy; bench_access measures libtensor without it.)

Bytes, sizes, shapes and timing follow bench/access.c exactly (see its
header): GB/s = 2 * numel * element bytes / s; median of --reps samples
after a warm-up call that also sets how many calls one sample batches. Its
memcpy row gives the median of all the memcpy samples at that size.

--dtype bf16 copies 2-byte elements (access.c's --dtype bf16): libtensor
and torch as bf16; numpy, which has no bf16, as int16 over the same bits,
which is what its copy of any 2-byte dtype does.

Runs on /usr/bin/python3 with Debian's packages only (python3-numpy,
python3-torch from apt; no pip, no venv). A peer that is not installed is
shown as "skipped: <peer> not installed", never a crash.

--only TEXT runs the cases whose name contains TEXT, as bench_access's
--only does; --permute P0,P1,.. --shape S0,S1,.. runs one layout of the
user's own instead (bench_access's options of those names).

Usage: /usr/bin/python3 bench/peers.py [--lib PATH] [--sizes 1,64,512]
                                       [--reps N] [--threads N] [--alloc]
                                       [--dtype f32|bf16] [--only TEXT]
                                       [--permute P0,P1,.. --shape S0,S1,..]
"""
import argparse
import ctypes
import math
import statistics
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

# (name, kind, step, ndim, perm, shape): the table in bench/access.c, same
# order; shape None: from the size.
CASES = (
    [("contiguous", "contiguous", 1, 0, (), None)]
    + [(f"strided read s={s}", "strided_read", s, 0, (), None) for s in (1, 2, 4, 8, 16, 32, 64)]
    + [(f"strided write s={s}", "strided_write", s, 0, (), None) for s in (1, 2, 4, 8, 16, 32, 64)]
    + [("transpose 2-D", "permute", 1, 2, (1, 0), None)]
    + [("permute 3-D (%d,%d,%d)" % p, "permute", 1, 3, p, None)
       for p in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))]
    + [("permute BHTD (%d,%d,%d,%d)" % p, "permute", 1, 4, p, None)
       for p in ((0, 2, 1, 3), (0, 2, 3, 1), (0, 3, 1, 2), (3, 2, 1, 0))]
    + [("last dim step 2", "last_dim_step", 2, 0, (), None),
       ("last dim reversed", "last_dim_step", -1, 0, (), None),
       ("expand [1,N]->[M,N]", "expand", 1, 0, (), None)]
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


def interleaved_gbs(runs, base, base_bytes, reps):
    """For each (run, bytes one call moves) in runs, the sides of one case:
    (GB/s, GB/s of base, ratio, (q1, q3)). Each of the reps rounds times,
    side after side, a sample of base (the memcpy) and then one of the
    side's run, as access.c's measure_paired pairs them, because the
    bandwidth of a shared machine drifts within a run; GB/s are medians of
    the samples, the ratio the median of the pairs' ratios, beside their
    middle half."""
    kb, ks = batch_length(base), [batch_length(run) for run, _ in runs]
    samples = [([], [], []) for _ in runs]
    for _ in range(reps):
        for (run, nbytes), k, (gbs, base_gbs, ratios) in zip(runs, ks, samples):
            tb, t = timed(base, kb), timed(run, k)
            gbs.append(nbytes / t / 1e9)
            base_gbs.append(base_bytes / tb / 1e9)
            ratios.append(gbs[-1] / base_gbs[-1])
    return [(statistics.median(gbs), statistics.median(base_gbs), statistics.median(ratios), middle_half(ratios))
            for gbs, base_gbs, ratios in samples]


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


# --dtype: (numpy's element type, libtensor's lt_dtype, torch's dtype or
# None for torch.from_numpy's own); numpy holds bf16 bits as int16.
DTYPES = {"f32": ("float32", 0, None), "bf16": ("int16", 2, "bfloat16")}


def line_aligned(n, dtype):
    """n elements starting a 64-byte line, as lt_empty and torch's
    allocator give them: numpy's own arrays start 16 bytes into a line, and
    rows that straddle lines cost the tiled kernels more (libtensor at 1
    MiB, a run on each: the 2-D transpose 0.53 of memcpy on numpy's arrays,
    0.58 on aligned ones; (0,2,1) 0.51 and 0.71)."""
    es = np.dtype(dtype).itemsize
    raw = np.empty(n + 64 // es, dtype=dtype)
    skip = (-raw.ctypes.data % 64) // es
    return raw[skip: skip + n]


class NumpyPeer:
    name = "numpy"

    @staticmethod
    def shared_buffers(n, dtype):
        """The source and destination every side copies over."""
        src = line_aligned(n, dtype)
        src[...] = np.arange(n, dtype=np.int64) % 1021 + 1
        dst = line_aligned(n, dtype)
        dst[...] = 0  # pages touched now
        return src, dst

    def adopt(self, a):
        """The side's own array over numpy array a's memory."""
        return a

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


class LtDevice(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("index", ctypes.c_int)]


LT_HOST = LtDevice(0, 0)


class LibtensorPeer(NumpyPeer):
    """libtensor over NumPy arrays of its own: NumPy builds each view, and
    lt_wrap takes its layout (first element, shape, strides), the layout
    access.c builds with lt_slice, lt_permute and lt_expand."""
    name = "libtensor"

    def __init__(self, path, threads, lt_dtype):
        lib = ctypes.CDLL(path)
        p, i64p = ctypes.c_void_p, ctypes.POINTER(ctypes.c_int64)
        for fn, restype, argtypes in (
                ("lt_wrap", p, [p, ctypes.c_int, ctypes.c_int, i64p, i64p, LtDevice, p, p]),
                ("lt_copy", ctypes.c_int, [p, p]),
                ("lt_contiguous", p, [p]),
                ("lt_clone", p, [p]),
                ("lt_release", None, [p]),
                ("lt_set_num_threads", ctypes.c_int, [ctypes.c_int]),
                ("lt_last_error", ctypes.c_char_p, [])):
            getattr(lib, fn).restype, getattr(lib, fn).argtypes = restype, argtypes
        if lib.lt_set_num_threads(threads) != 0:
            raise OSError(self.error(lib))
        self.lib, self.held, self.lt_dtype = lib, [], lt_dtype

    @staticmethod
    def error(lib):
        return "libtensor: " + (lib.lt_last_error() or b"?").decode()

    def wrap(self, a):
        """A tensor over array a's elements, released by release()."""
        shape = (ctypes.c_int64 * a.ndim)(*a.shape)
        strides = (ctypes.c_int64 * a.ndim)(*(s // a.itemsize for s in a.strides))
        t = self.lib.lt_wrap(a.ctypes.data, self.lt_dtype, a.ndim, shape, strides, LT_HOST, None, None)
        if not t:
            raise RuntimeError(self.error(self.lib))
        self.held.append(t)
        return t

    def release(self):
        for t in self.held:
            self.lib.lt_release(t)
        self.held = []

    def copy_op(self, dst, view):
        d, v, copy = self.wrap(dst), self.wrap(view), self.lib.lt_copy

        def op():
            if copy(d, v) != 0:
                raise RuntimeError(self.error(self.lib))
        return op

    def alloc_op(self, view):
        # lt_contiguous returns a contiguous view itself; lt_clone keeps
        # those cases copying, as in access.c.
        v = self.wrap(view)
        make = self.lib.lt_clone if view.flags.c_contiguous else self.lib.lt_contiguous
        release = self.lib.lt_release

        def op():
            t = make(v)
            if not t:
                raise RuntimeError(self.error(self.lib))
            release(t)
        return op


class TorchPeer:
    name = "torch"

    def __init__(self, dtype):
        self.dtype = getattr(torch, dtype) if dtype else None

    def adopt(self, a):
        t = torch.from_numpy(a)
        return t.view(self.dtype) if self.dtype else t

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
    _, kind, step, ndim, perm, fixed = case
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
        shape = fixed or permute_shape(ndim, n)
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

    return run, 2.0 * math.prod(view.shape) * args.es


def memcpy_op(n, args):
    """run(k): k np.copyto of contiguous arrays of n elements, split over
    args.threads threads; and the bytes one call moves."""
    src = np.full(n, 1, dtype=args.np_dtype)
    dst = np.full(n, 0, dtype=args.np_dtype)
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

    return run, 2.0 * n * args.es


def measure_case(peers, case, bufs, args, memcpy):
    """({side: cell}, {side: median GB/s of its memcpy samples}) of one
    case, a cell being (GB/s, ratio, (q1, q3)) or a note."""
    ops, cells, bases = {}, {}, {}
    try:
        for peer in peers:
            try:
                ops[peer.name] = case_op(peer, case, *(peer.adopt(b) for b in bufs), args)
            except NotExpressible:
                cells[peer.name] = "n/a: negative stride"
        for name, (gbs, base, ratio, middle) in zip(ops, interleaved_gbs(list(ops.values()), *memcpy, args.reps)):
            cells[name], bases[name] = (gbs, ratio, middle), base
    finally:
        for peer in peers:
            if isinstance(peer, LibtensorPeer):
                peer.release()
    return cells, bases


def measure_size(peers, n, args):
    """{(side, case name): cell} over buffers of n elements, the sides of
    each case measured together (see interleaved_gbs); "memcpy" maps to the
    median of each side's memcpy samples."""
    memcpy = memcpy_op(n, args)
    bufs = NumpyPeer.shared_buffers(n, args.np_dtype)
    cells, base_gbs = {}, {peer.name: [] for peer in peers}
    for case in cases_run(args):
        print(".", end="", file=sys.stderr, flush=True)
        case_cells, bases = measure_case(peers, case, bufs, args, memcpy)
        for peer in peers:
            cells[(peer.name, case[0])] = case_cells[peer.name]
        for name, base in bases.items():
            base_gbs[name].append(base)
    for peer in peers:
        cells[(peer.name, "memcpy")] = (statistics.median(base_gbs[peer.name]), 1.0, (1.0, 1.0))
    return cells


def cases_run(args):
    """The cases this run measures: the user's (--permute and --shape), or
    those whose name holds --only, less the strided writes where --alloc
    leaves them no form."""
    if args.user:
        return [args.user]
    return [c for c in CASES if args.only in c[0] and not (args.alloc and c[1] == "strided_write")]


def sizes_run(args):
    """(bytes, elements) of each size the run measures."""
    if args.user:
        n = math.prod(args.user[5])
        return [(n * args.es, n)]
    return [(mib << 20, (mib << 20) // args.es) for mib in args.sizes]


def size_text(size):
    return f"{size / (1 << 20):4.0f} MiB"


def open_sides(args):
    """The sides that can run, and {side: why not} for those that cannot."""
    if np is None:  # libtensor runs over numpy arrays; numpy gives the memcpy base
        return [], {"libtensor": "skipped: needs numpy", "numpy": "skipped: numpy not installed",
                    "torch": "skipped: needs numpy"}
    sides, absent = [], {}
    try:
        sides.append(LibtensorPeer(args.lib, args.threads, args.lt_dtype))
    except OSError as e:
        absent["libtensor"] = f"skipped: {e}"
    sides.append(NumpyPeer())
    if torch is None:
        absent["torch"] = "skipped: torch not installed"
    else:
        torch.set_num_threads(args.threads)
        sides.append(TorchPeer(args.torch_dtype))
    return sides, absent


def measure_all(args):
    """{(side, case, size_bytes): cell}, cell (GB/s, ratio, (q1, q3)) or a
    note."""
    sides, absent = open_sides(args)
    cells = {}
    for size, n in sizes_run(args):
        print(size_text(size) + " ", end="", file=sys.stderr, flush=True)
        measured = measure_size(sides, n, args) if sides else {}
        for name in ["memcpy"] + [c[0] for c in cases_run(args)]:
            for side in ("libtensor", "numpy", "torch"):
                cells[(side, name, size)] = measured.get((side, name), absent.get(side, "missing"))
        print(file=sys.stderr)
    return cells


def cell_text(cell):
    if isinstance(cell, str):
        return f"{cell:>20}"
    gbs, ratio, _ = cell
    return f"{gbs:10.2f} {ratio:9.3f}"


def lead_text(cells):
    """libtensor's ratio over the best peer's: the ratios, each to a memcpy
    timed in turn with it, compare where GB/s drift from case to case.
    Marked ~ where the middle halves of the two sides' sample ratios
    overlap: a lead that the drift within the run could make or unmake."""
    ours, peers = cells[0], [c for c in cells[1:] if isinstance(c, tuple)]
    if not isinstance(ours, tuple) or not peers:
        return ""
    best = max(peers, key=lambda c: c[1])
    (lo, hi), (best_lo, best_hi) = ours[2], best[2]
    return f" {ours[1] / best[1]:7.2f}" + ("~" if lo <= best_hi and best_lo <= hi else "")


def print_table(args, cells):
    mode = "allocating copy (lt_contiguous / ascontiguousarray / .contiguous())" if args.alloc else \
        "copy into a preallocated destination (lt_copy / np.copyto / copy_)"
    as_int16 = " (numpy: int16, the same bits)" if args.dtype == "bf16" else ""
    print(f"access costs, {args.dtype}{as_int16}, {mode}, {args.threads} thread(s), median of {args.reps}")
    print("each side: GB/s = (bytes read + bytes written) / s; ratio = median of GB/s / GB/s of a memcpy")
    print("timed in turn with it; the three sides of a case measured in one process over the same buffers,")
    print("their samples taken in turn;")
    print("lead = libtensor's ratio / the best peer's ratio (> 1: libtensor is faster),")
    print("~ where the middle halves of the two sides' sample ratios overlap (within the run's drift)\n")
    print(f"{'case':24} {'size':>8}" + "".join(f" {p:>10} {'ratio':>9}" for p in ("libtensor", "numpy", "torch"))
          + f" {'lead':>7}")
    names = ["memcpy"] + [c[0] for c in cases_run(args)]
    for size, _ in sizes_run(args):
        for name in names:
            row = [cells[(side, name, size)] for side in ("libtensor", "numpy", "torch")]
            print(f"{name:24} {size_text(size)}" + "".join(" " + cell_text(c) for c in row) + lead_text(row))


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", default="build/libtensor.so")
    ap.add_argument("--sizes", default="1,64,512", help="MiB, comma-separated")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--alloc", action="store_true")
    ap.add_argument("--dtype", choices=sorted(DTYPES), default="f32")
    ap.add_argument("--only", default="", help="run the cases whose name contains this text")
    ap.add_argument("--permute", help="with --shape: one layout of your own, e.g. 0,2,1")
    ap.add_argument("--shape", help="with --permute: the shape it permutes, e.g. 256,197,768")
    args = ap.parse_args()
    args.user = None
    if args.permute or args.shape:
        try:
            perm = tuple(int(p) for p in (args.permute or "").split(","))
            shape = tuple(int(d) for d in (args.shape or "").split(","))
        except ValueError:
            ap.error("--permute and --shape take comma-separated integers")
        if sorted(perm) != list(range(len(shape))) or min(shape) < 1:
            ap.error("--permute must order the dims of --shape, whose sizes are >= 1")
        name = "permute (%s) of [%s]" % (",".join(map(str, perm)), ",".join(map(str, shape)))
        args.user = (name, "permute", 1, len(shape), perm, shape)
    args.np_dtype, args.lt_dtype, args.torch_dtype = DTYPES[args.dtype]
    try:
        args.sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        ap.error("--sizes takes MiB counts, e.g. 1,64")
    if not all(s >= 1 for s in args.sizes) or not 1 <= args.reps <= 64 or not 1 <= args.threads <= 64:
        ap.error("sizes >= 1, reps 1..64, threads 1..64")
    args.es = np.dtype(args.np_dtype).itemsize if np is not None else 4
    return args


def main():
    args = parse_args()
    print_table(args, measure_all(args))


if __name__ == "__main__":
    main()
