#!/usr/bin/env python3
"""Peer suite: lt_cast / lt_copy float conversions against ml_dtypes and NumPy.

Usage: python3 tests/peers/mldtypes_peer.py path/to/libtensor.so

The peers are the references users trust for the narrow float formats:
NumPy's float16 for F16 and ml_dtypes' bfloat16, float8_e4m3fn and
float8_e5m2 for BF16, F8_E4M3 and F8_E5M2. For every case libtensor's result
bits must equal the peer's, except where the API (API.md "Cast semantics",
README "Casts") deliberately differs from the peer; there the result is
checked against the API's rule instead, and the number of such inputs is
printed as a TAP comment. The deliberate differences:

- NaN payloads. The API only promises "NaN stays NaN (sign kept)" when
  narrowing and "keeps its payload's top bits and comes out quiet" when
  widening. NumPy's float16 keeps (and does not quiet) payloads both ways;
  ml_dtypes drops FP8 payloads when widening and does not quiet BF16 ones.
  NaN results are therefore compared by NaN-ness and sign; widening F16,
  BF16 and E5M2 NaNs is also checked against the payload rule.
- E4M3 in LT_CAST_DEFAULT: ml_dtypes' float8_e4m3fn turns every finite
  value that rounds past 448 (|x| > 464) into NaN; libtensor saturates it to
  ±448. Both turn ±inf into NaN (the API does not fix that NaN's sign).
- LT_CAST_SATURATE has no peer mode: finite overflow and ±inf must give
  ±max finite, everything else the peer's (round-to-nearest-even) bits.
- Casts from F64: ml_dtypes' bfloat16 rounds a float64 to float32 first and
  then to bfloat16 (double rounding); the API rounds once, so those inputs
  are checked against a single-rounding reference (round to odd into
  float32, then the peer) instead.

Cases: decode (every bit pattern of each narrow type to F32); encode from F32
(structured mantissas over every float32 exponent in or next to the target's
range: ties, ties ± 1 and 2 ulps, all-ones low bits; ±0, subnormals, ±inf,
NaNs; ~2M random float32 with a fixed seed) in both modes; narrow to narrow
(every source pattern, both modes) against the peer going through float64,
which holds every narrow value exactly; F64 to narrow; the F32 encode through
transposed and negative-stride views, with lt_cast and with lt_copy into
contiguous and strided destinations. Finally every tensor must have been
released (bytes_in_use back to its start value).

Prints TAP. Skips visibly (1..0 # SKIP) when numpy or ml_dtypes is missing.
"""
import ctypes
import sys
import warnings

try:
    import numpy as np
    import ml_dtypes
except ImportError:
    print("1..0 # SKIP numpy/ml_dtypes not installed (pip install numpy ml-dtypes)")
    sys.exit(0)

warnings.simplefilter("ignore")  # overflow / invalid value in cast

# ---------------------------------------------------------------------------
# The library through ctypes
# ---------------------------------------------------------------------------

from ltlib import *  # noqa: F401,F403 (the enums and structs shared by the peer suites)
import ltlib

globals().update(ltlib.open_library("mldtypes_peer.py"))
MODE_NAMES = {LT_CAST_DEFAULT: "LT_CAST_DEFAULT", LT_CAST_SATURATE: "LT_CAST_SATURATE"}


class Arena:
    """Owns every handle a test creates; releases them all at the end."""

    def __init__(self):
        self.handles = []

    def add(self, h):
        if h:
            self.handles.append(h)
        return h

    def close(self):
        for h in reversed(self.handles):
            lt_release(h)
        self.handles = []


class Failure(Exception):
    pass


def i64arr(vals):
    vals = list(vals)
    return (ctypes.c_int64 * max(1, len(vals)))(*vals)


def lt_check(h, what):
    if not h:
        raise Failure("%s failed: %s: %s" % (what, status_name(lt_last_status()), last_error()))
    return h


def lt_shape_of(h):
    n = lt_ndim(h)
    sp = lt_shape(h)
    return tuple(sp[i] for i in range(n))


# ---------------------------------------------------------------------------
# Formats
# ---------------------------------------------------------------------------

class Fmt:
    def __init__(self, name, lt, peer, bits, ebits, mbits, has_inf, maxfin, canon_nan):
        self.name, self.lt, self.peer = name, lt, peer
        self.bits, self.ebits, self.mbits = bits, ebits, mbits
        self.has_inf = has_inf
        self.maxfin = maxfin          # magnitude bits of the largest finite value
        self.canon_nan = canon_nan    # README: the NaN every NaN encodes to
        self.u = np.uint16 if bits == 16 else np.uint8
        self.sign = 1 << (bits - 1)
        self.bias = (1 << (ebits - 1)) - 1
        self.emin = 1 - self.bias                  # unbiased exponent of the smallest normal
        self.emax = int(np.log2(float(np.array([maxfin], self.u).view(peer)[0].astype(np.float64))))

    def is_nan(self, b):
        b = np.asarray(b).astype(np.uint32)
        mag = b & (self.sign - 1)
        if self.name == "f8_e4m3":
            return mag == 0x7F
        expmask = ((1 << self.ebits) - 1) << self.mbits
        return ((mag & expmask) == expmask) & ((mag & ((1 << self.mbits) - 1)) != 0)

    def is_inf(self, b):
        if not self.has_inf:
            return np.zeros(np.shape(b), bool)
        b = np.asarray(b).astype(np.uint32)
        return (b & (self.sign - 1)) == (((1 << self.ebits) - 1) << self.mbits)

    def sign_of(self, b):
        return (np.asarray(b).astype(np.uint32) & self.sign) != 0

    def all_bits(self):
        return np.arange(1 << self.bits, dtype=np.uint32).astype(self.u)


F16 = Fmt("f16", LT_F16, np.float16, 16, 5, 10, True, 0x7BFF, 0x7E00)
BF16 = Fmt("bf16", LT_BF16, ml_dtypes.bfloat16, 16, 8, 7, True, 0x7F7F, 0x7FC0)
E4M3 = Fmt("f8_e4m3", LT_F8_E4M3, ml_dtypes.float8_e4m3fn, 8, 4, 3, False, 0x7E, 0x7F)
E5M2 = Fmt("f8_e5m2", LT_F8_E5M2, ml_dtypes.float8_e5m2, 8, 5, 2, True, 0x7B, 0x7E)
FMTS = [F16, BF16, E4M3, E5M2]
PEER_NAME = {"f16": "numpy.float16", "bf16": "ml_dtypes.bfloat16",
             "f8_e4m3": "ml_dtypes.float8_e4m3fn", "f8_e5m2": "ml_dtypes.float8_e5m2"}


def lt_cast_bits(src, src_lt, dst_lt, dst_u, mode):
    """src: 1-D numpy array of the source's storage bits. Returns the result's bits."""
    arena = Arena()
    try:
        src = np.ascontiguousarray(src)
        h = arena.add(lt_check(lt_from_data(P(src.ctypes.data), src_lt, 1, i64arr([src.size])),
                               "lt_from_data"))
        r = arena.add(lt_check(lt_cast(h, dst_lt, mode), "lt_cast"))
        return read_bits(r, dst_u, src.size)
    finally:
        arena.close()


def read_bits(h, u, n):
    out = np.empty(n, dtype=u)
    if lt_numel(h) != n:
        raise Failure("result has %d elements, want %d" % (lt_numel(h), n))
    st = lt_read(h, P(out.ctypes.data), out.nbytes)
    if st != LT_OK:
        raise Failure("lt_read failed: %s: %s" % (status_name(st), last_error()))
    return out


def hexw(v, bits):
    return "0x%0*x" % (bits // 4, int(v))


def fmt_f32(b):
    b = int(b)
    return "0x%08x (%r)" % (b, float(np.array([b], np.uint32).view(np.float32)[0]))


def fmt_src(b, src_bits, src_peer):
    b = int(b)
    if src_bits == 32:
        return fmt_f32(b)
    if src_bits == 64:
        return "0x%016x (%r)" % (b, float(np.array([b], np.uint64).view(np.float64)[0]))
    u = np.uint16 if src_bits == 16 else np.uint8
    return "%s (%r)" % (hexw(b, src_bits), float(np.array([b], u).view(src_peer)[0].astype(np.float64)))


# ---------------------------------------------------------------------------
# The comparison: peer bits, except where the API deliberately differs
# ---------------------------------------------------------------------------

def compare_encode(src_bits, src_isnan, src_isinf, src_neg, peer, lt, f, mode, describe, diags,
                   notes, label):
    """Checks lt (result bits in format f) against peer, applying the API's
    deliberate differences. src_* describe the inputs. Returns ok."""
    lt = lt.astype(np.uint32)
    peer = peer.astype(np.uint32)
    sgn = np.where(src_neg, f.sign, 0).astype(np.uint32)
    ok = True
    peer_nan = f.is_nan(peer)
    peer_inf = f.is_inf(peer)
    lt_nan = f.is_nan(lt)
    handled = np.zeros(lt.shape, bool)
    groups = []   # (name, mask, want_bits or None, check fn)

    # NaN inputs: NaN out, sign kept (API); the payload is not the peer's business.
    m = src_isnan
    bad = m & ~(lt_nan & (f.sign_of(lt) == src_neg))
    groups.append(("NaN input: NaN out with the input's sign (API)", m, bad))
    handled |= m
    n_payload = int(np.count_nonzero(m & (lt != peer)))
    if n_payload:
        notes.append("%s: %d NaN inputs whose NaN bits differ from %s's (payload/sign; API: NaN, "
                     "sign kept)" % (label, n_payload, PEER_NAME[f.name]))
    n_peer_sign = int(np.count_nonzero(m & peer_nan & (f.sign_of(peer) != src_neg)))
    if n_peer_sign:
        notes.append("%s: %s loses the sign of %d NaNs" % (label, PEER_NAME[f.name], n_peer_sign))

    if mode == LT_CAST_SATURATE:
        # finite overflow (the peer gives inf or NaN for a finite input) and ±inf -> ±max finite
        m = ~src_isnan & (src_isinf | peer_inf | peer_nan)
        want = sgn | f.maxfin
        bad = m & (lt != want)
        groups.append(("overflow/inf -> ±max finite %s (API LT_CAST_SATURATE)" % hexw(f.maxfin, f.bits),
                       m, bad))
        handled |= m
        n = int(np.count_nonzero(m & (lt != peer)))
        if n:
            notes.append("%s: %d overflow/inf inputs saturate where %s gives inf/NaN (API rule)"
                         % (label, n, PEER_NAME[f.name]))
    elif f is E4M3:
        # finite overflow: the peer gives NaN, the API saturates to ±448
        m = ~src_isnan & ~src_isinf & peer_nan
        want = sgn | f.maxfin
        bad = m & (lt != want)
        groups.append(("E4M3 finite overflow -> ±448 (API; ml_dtypes gives NaN)", m, bad))
        handled |= m
        n = int(np.count_nonzero(m))
        if n:
            notes.append("%s: %d finite inputs past 464 give ±448 where ml_dtypes gives NaN (API rule)"
                         % (label, n))
        # ±inf -> NaN (both); the API does not fix the NaN's sign
        m = src_isinf
        bad = m & ~lt_nan
        groups.append(("E4M3 ±inf -> NaN (API)", m, bad))
        handled |= m
        n = int(np.count_nonzero(m & (lt != peer)))
        if n:
            notes.append("%s: %d ±inf inputs give NaN bits other than ml_dtypes' (sign)" % (label, n))

    m = ~handled
    bad = m & (lt != peer)
    groups.append(("bits equal %s's" % PEER_NAME[f.name], m, bad))

    for name, m, bad in groups:
        nb = int(np.count_nonzero(bad))
        if nb:
            ok = False
            idx = np.flatnonzero(bad)
            diags.append("%s [%s]: %d of %d inputs wrong; first ones:" % (label, name, nb,
                                                                          int(np.count_nonzero(m))))
            for i in idx[:6]:
                diags.append("  input %s -> libtensor %s, %s %s"
                             % (describe(src_bits[i]), hexw(lt[i], f.bits), PEER_NAME[f.name],
                                hexw(peer[i], f.bits)))
    return ok


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

def f32_specials():
    v = [0x00000000, 0x00000001, 0x00000002, 0x003FFFFF, 0x00400000, 0x00400001, 0x007FFFFF,
         0x00800000, 0x00800001, 0x3F800000, 0x7F7FFFFF, 0x7F7FFF00, 0x7F7F8000, 0x7F7F7FFF,
         0x7F800000,                                            # +inf
         0x7FC00000, 0x7FC00001, 0x7FFFFFFF, 0x7FE00000, 0x7FD55555, 0x7FC02000, 0x7FC10000,
         0x7F800001, 0x7F802000, 0x7FA00000, 0x7FBFFFFF, 0x7F810000, 0x7F8FFFFF]  # sNaNs
    v = np.array(v, np.uint32)
    return np.concatenate([v, v | 0x80000000])


def f32_structured(f, seed):
    """Float32 values over every exponent in or next to f's range (its
    smallest subnormal's exponent - 3 .. its largest exponent + 2), with
    mantissas that hit each kept pattern at the rounding position: ties,
    ties ± 1 and 2 ulps, zero and all-ones low bits, a random low part."""
    rng = np.random.default_rng(seed)
    lo = f.emin - f.mbits - 3
    hi = f.emax + 2
    out = []
    for E in range(max(0, lo + 127), min(254, hi + 127) + 1):
        e = max(E - 127, -126)
        d = 23 - f.mbits + max(0, f.emin - e)   # float32 mantissa bits below the kept ones
        d = min(d, 23)
        full = (1 << d) - 1
        half = 1 << (d - 1)
        lows = np.array([0, 1, 2, half - 2, half - 1, half, half + 1, half + 2, full - 1, full,
                         int(rng.integers(0, 1 << d)), int(rng.integers(0, 1 << d))], np.int64)
        lows = np.unique(lows[(lows >= 0) & (lows <= full)])
        his = np.arange(1 << (23 - d), dtype=np.int64) << d
        mant = (his[:, None] | lows[None, :]).ravel()
        out.append((np.int64(E) << 23) | mant)
    v = np.concatenate(out).astype(np.uint32)
    return np.concatenate([v, v | 0x80000000])


def f32_random(f, seed, n):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 1 << 32, size=n // 2, dtype=np.uint64).astype(np.uint32)
    lo = max(1, f.emin - f.mbits - 3 + 127)
    hi = min(254, f.emax + 2 + 127)
    E = rng.integers(lo, hi + 1, size=n - n // 2, dtype=np.uint64).astype(np.uint32)
    m = rng.integers(0, 1 << 23, size=n - n // 2, dtype=np.uint64).astype(np.uint32)
    s = rng.integers(0, 2, size=n - n // 2, dtype=np.uint64).astype(np.uint32) << 31
    return np.concatenate([a, s | (E << 23) | m])


ENCODE_CACHE = {}


def encode_inputs(f):
    if f.name not in ENCODE_CACHE:
        seed = 1234 + FMTS.index(f)
        ENCODE_CACHE[f.name] = np.concatenate([f32_specials(), f32_structured(f, seed),
                                               f32_random(f, seed, 2_000_000)])
    return ENCODE_CACHE[f.name]


def f32_info(x):
    xf = x.view(np.float32)
    return np.isnan(xf), np.isinf(xf), (x & 0x80000000) != 0


def peer_from_f32(x, f):
    return x.view(np.float32).astype(f.peer).view(f.u)


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------

def decode_test(f):
    def body(diags, notes):
        src = f.all_bits()
        lt = lt_cast_bits(src, f.lt, LT_F32, np.uint32, LT_CAST_DEFAULT)
        peer = src.view(f.peer).astype(np.float32).view(np.uint32)
        nan_in = f.is_nan(src)
        ltf = lt.view(np.float32)
        ok = True
        bad = ~nan_in & (lt != peer)
        bad |= nan_in & ~(np.isnan(ltf) & (((lt >> 31) != 0) == f.sign_of(src)))
        if f is not E4M3:
            # README: a widened NaN keeps its payload's top bits and comes out quiet
            want = (np.where(f.sign_of(src), 0x80000000, 0).astype(np.uint32) | 0x7FC00000
                    | ((src.astype(np.uint32) & ((1 << f.mbits) - 1)) << (23 - f.mbits)))
            bad_payload = nan_in & (lt != want)
        else:
            bad_payload = np.zeros(src.shape, bool)
        n_explained = int(np.count_nonzero(nan_in & (lt != peer)))
        if n_explained:
            notes.append("%s -> f32: %d NaN patterns whose f32 bits differ from %s's "
                         "(API: payload top bits kept, quieted)" % (f.name, n_explained, PEER_NAME[f.name]))
        for what, b in [("bits equal the peer's (NaN: NaN with the same sign)", bad),
                        ("NaN keeps its payload top bits, quieted (README)", bad_payload)]:
            if np.any(b):
                ok = False
                diags.append("%s -> f32 [%s]: %d patterns wrong; first ones:"
                             % (f.name, what, int(np.count_nonzero(b))))
                for i in np.flatnonzero(b)[:6]:
                    diags.append("  %s -> libtensor %s, %s %s"
                                 % (fmt_src(src[i], f.bits, f.peer), fmt_f32(lt[i]),
                                    PEER_NAME[f.name], fmt_f32(peer[i])))
        return ok
    return body


def encode_test(f, mode):
    def body(diags, notes):
        x = encode_inputs(f)
        lt = lt_cast_bits(x, LT_F32, f.lt, f.u, mode)
        peer = peer_from_f32(x, f)
        isnan, isinf, neg = f32_info(x)
        label = "f32 -> %s %s (%d inputs)" % (f.name, MODE_NAMES[mode], x.size)
        return compare_encode(x, isnan, isinf, neg, peer, lt, f, mode, fmt_f32, diags, notes, label)
    return body


def narrow_test(s, t, mode):
    def body(diags, notes):
        src = s.all_bits()
        lt = lt_cast_bits(src, s.lt, t.lt, t.u, mode)
        x64 = src.view(s.peer).astype(np.float64)   # exact for every narrow format
        peer = x64.astype(t.peer).view(t.u)
        # The peer's path rounds once: float64 and float32 both hold every
        # source value exactly, so going through either must agree.
        peer32 = src.view(s.peer).astype(np.float32).astype(t.peer).view(t.u)
        back = x64.astype(np.float32).astype(np.float64)
        ok = True
        if not np.array_equal(back[~np.isnan(x64)], x64[~np.isnan(x64)]):
            diags.append("%s values are not exact in float32 (peer check)" % s.name)
            ok = False
        nn = ~t.is_nan(peer)
        if not np.array_equal(peer[nn], peer32[nn]):
            notes.append("%s -> %s: the peer's float64 and float32 paths disagree on %d inputs"
                         % (s.name, t.name, int(np.count_nonzero(peer[nn] != peer32[nn]))))
        isnan = s.is_nan(src)
        isinf = s.is_inf(src)
        neg = s.sign_of(src)
        label = "%s -> %s %s" % (s.name, t.name, MODE_NAMES[mode])
        ok &= compare_encode(src, isnan, isinf, neg, peer, lt, t, mode,
                             lambda b: fmt_src(b, s.bits, s.peer), diags, notes, label)
        return ok
    return body


def round_to_odd_f32(x):
    """float64 -> float32 rounded to odd (truncate, then set the last bit if
    inexact): rounding that to any format with <= 21 mantissa bits gives
    the single rounding of x."""
    y = x.astype(np.float32)
    yb = y.view(np.uint32).copy()
    fin = np.isfinite(x) & np.isfinite(y)
    over = fin & (np.abs(y.astype(np.float64)) > np.abs(x))
    yb[over] -= 1                                    # one ulp toward zero
    # overflowed to inf from a finite value: the largest float32 (then odd)
    big = np.isfinite(x) & np.isinf(y)
    yb[big] = (yb[big] & 0x80000000) | 0x7F7FFFFF
    t = yb.view(np.float32).astype(np.float64)
    inexact = np.isfinite(x) & (t != x)
    yb[inexact] |= 1
    return yb.view(np.float32)


def f64_inputs(f, seed):
    """float64 values near the target's rounding points with bits below
    float32's precision: ties ± tiny, the f32 structured set nudged."""
    rng = np.random.default_rng(seed)
    base = f32_structured(f, seed)
    base = base[(base & 0x7F800000) != 0x7F800000].view(np.float32).astype(np.float64)
    b = base.view(np.uint64)
    nudged = [b, b + 1, b - 1, b + (1 << 20), b - (1 << 20), b + 0xFFFF]
    v = np.concatenate(nudged + [rng.integers(0, 1 << 63, size=500_000, dtype=np.uint64) |
                                 (rng.integers(0, 2, size=500_000, dtype=np.uint64) << 63)])
    sp = np.array([0, 1 << 63, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
                   0xFFF8000000000000, 0x7FF0000000000001, 0x7FEFFFFFFFFFFFFF, 1],
                  np.uint64)
    return np.concatenate([sp, v])


def f64_test(f, mode):
    def body(diags, notes):
        v = f64_inputs(f, 99 + FMTS.index(f))
        x = v.view(np.float64)
        lt = lt_cast_bits(v, LT_F64, f.lt, f.u, mode)
        peer = x.astype(f.peer).view(f.u)
        ref = round_to_odd_f32(x).astype(f.peer).view(f.u)   # single rounding
        nn = ~np.isnan(x) & ~f.is_nan(peer)
        n_double = int(np.count_nonzero(nn & (peer != ref)))
        label = "f64 -> %s %s (%d inputs)" % (f.name, MODE_NAMES[mode], v.size)
        if n_double:
            notes.append("%s: %s double-rounds (through float32) on %d inputs; checked against "
                         "single rounding (API)" % (label, PEER_NAME[f.name], n_double))
            use = np.where(nn & (peer != ref), ref, peer)
        else:
            use = peer
        return compare_encode(v, np.isnan(x), np.isinf(x), np.signbit(x), use, lt, f, mode,
                              lambda b: fmt_src(b, 64, None), diags, notes, label)
    return body


def strided_test(f):
    def body(diags, notes):
        x = encode_inputs(f)
        C = 1024
        n = (x.size // C) * C
        x = x[:n]
        R = n // C
        ok = True
        arena = Arena()
        try:
            want = {m: lt_cast_bits(x, LT_F32, f.lt, f.u, m) for m in (LT_CAST_DEFAULT, LT_CAST_SATURATE)}
            # transposed: storage holds x.reshape(R, C).T; lt_transpose gives back (R, C)
            st = np.ascontiguousarray(x.reshape(R, C).T)
            h = arena.add(lt_check(lt_from_data(P(st.ctypes.data), LT_F32, 2, i64arr([C, R])),
                                   "lt_from_data"))
            tv = arena.add(lt_check(lt_transpose(h, 0, 1), "lt_transpose"))
            # negative stride, both dims: storage holds x reversed; [::-1, ::-1] gives back x
            rv = np.ascontiguousarray(x[::-1].reshape(R, C))
            h2 = arena.add(lt_check(lt_from_data(P(rv.ctypes.data), LT_F32, 2, i64arr([R, C])),
                                    "lt_from_data"))
            s0 = arena.add(lt_check(lt_slice(h2, 0, LT_NONE, LT_NONE, -1), "lt_slice"))
            nv = arena.add(lt_check(lt_slice(s0, 1, LT_NONE, LT_NONE, -1), "lt_slice"))
            views = [("transposed", tv), ("negative-stride", nv)]
            for vname, v in views:
                if lt_is_contiguous(v):
                    diags.append("%s view is contiguous; the test would not test strides" % vname)
                    ok = False
                for m in (LT_CAST_DEFAULT, LT_CAST_SATURATE):
                    r = arena.add(lt_check(lt_cast(v, f.lt, m), "lt_cast"))
                    got = read_bits(r, f.u, n)
                    ok &= report_mismatch(diags, "lt_cast(%s f32 view, %s, %s)"
                                          % (vname, f.name, MODE_NAMES[m]), x, got, want[m], f)
                # lt_copy into a contiguous destination
                d = arena.add(lt_check(lt_empty(f.lt, 2, i64arr([R, C]), LT_HOST), "lt_empty"))
                s = lt_copy(d, v)
                if s != LT_OK:
                    raise Failure("lt_copy failed: %s: %s" % (status_name(s), last_error()))
                got = read_bits(d, f.u, n)
                ok &= report_mismatch(diags, "lt_copy(contiguous %s <- %s f32 view)" % (f.name, vname),
                                      x, got, want[LT_CAST_DEFAULT], f)
                # lt_copy into a transposed destination, then a negative-stride one
                d2 = arena.add(lt_check(lt_empty(f.lt, 2, i64arr([C, R]), LT_HOST), "lt_empty"))
                d2t = arena.add(lt_check(lt_transpose(d2, 0, 1), "lt_transpose"))
                d3 = arena.add(lt_check(lt_empty(f.lt, 2, i64arr([R, C]), LT_HOST), "lt_empty"))
                d3n = arena.add(lt_check(lt_slice(d3, 1, LT_NONE, LT_NONE, -1), "lt_slice"))
                for dname, dv in [("transposed", d2t), ("negative-stride", d3n)]:
                    s = lt_copy(dv, v)
                    if s != LT_OK:
                        raise Failure("lt_copy failed: %s: %s" % (status_name(s), last_error()))
                    got = read_bits(dv, f.u, n)
                    ok &= report_mismatch(diags, "lt_copy(%s %s view <- %s f32 view)"
                                          % (dname, f.name, vname), x, got, want[LT_CAST_DEFAULT], f)
            return ok
        finally:
            arena.close()
    return body


def report_mismatch(diags, what, x, got, want, f):
    bad = got != want
    if not np.any(bad):
        return True
    diags.append("%s: %d of %d elements differ from the contiguous lt_cast; first ones:"
                 % (what, int(np.count_nonzero(bad)), x.size))
    for i in np.flatnonzero(bad)[:4]:
        diags.append("  element %d, input %s: %s, contiguous %s" % (i, fmt_f32(x[i]), hexw(got[i], f.bits),
                                                                    hexw(want[i], f.bits)))
    return False


def lt_to_is_default(diags, notes):
    ok = True
    arena = Arena()
    try:
        x = np.array([1.0, 500.0, -1e6, np.inf, -np.inf, np.nan, 70000.0, 1e-8], np.float32)
        h = arena.add(lt_check(lt_from_data(P(x.ctypes.data), LT_F32, 1, i64arr([x.size])), "lt_from_data"))
        for f in FMTS:
            a = read_bits(arena.add(lt_check(lt_to(h, f.lt), "lt_to")), f.u, x.size)
            b = read_bits(arena.add(lt_check(lt_cast(h, f.lt, LT_CAST_DEFAULT), "lt_cast")), f.u, x.size)
            if not np.array_equal(a, b):
                diags.append("lt_to(%s) %s != lt_cast(DEFAULT) %s" % (f.name, [hexw(v, f.bits) for v in a],
                                                                     [hexw(v, f.bits) for v in b]))
                ok = False
        return ok
    finally:
        arena.close()


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def main():
    tests = []
    for f in FMTS:
        tests.append(("decode: every %s pattern -> f32 equals %s" % (f.name, PEER_NAME[f.name]),
                      decode_test(f)))
    for f in FMTS:
        for m in (LT_CAST_DEFAULT, LT_CAST_SATURATE):
            tests.append(("encode: f32 -> %s %s against %s" % (f.name, MODE_NAMES[m], PEER_NAME[f.name]),
                          encode_test(f, m)))
    for s in FMTS:
        for t in FMTS:
            if s is t:
                continue
            for m in (LT_CAST_DEFAULT, LT_CAST_SATURATE):
                tests.append(("narrow: every %s pattern -> %s %s against %s through float64"
                              % (s.name, t.name, MODE_NAMES[m], PEER_NAME[t.name]), narrow_test(s, t, m)))
    for f in FMTS:
        for m in (LT_CAST_DEFAULT, LT_CAST_SATURATE):
            tests.append(("encode: f64 -> %s %s against %s (single rounding)"
                          % (f.name, MODE_NAMES[m], PEER_NAME[f.name]), f64_test(f, m)))
    for f in FMTS:
        tests.append(("strided: f32 -> %s through transposed and negative-stride views "
                      "(lt_cast, lt_copy) equals the contiguous cast" % f.name, strided_test(f)))
    tests.append(("lt_to equals lt_cast(LT_CAST_DEFAULT)", lt_to_is_default))

    tests.append(ltlib.leak_test(lambda: lt_stats_get(LT_HOST).bytes_in_use))
    return ltlib.run_tap(tests)


if __name__ == "__main__":
    sys.exit(main())
