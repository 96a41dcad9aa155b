#!/usr/bin/env python3
"""Peer suite: lt_rearrange / lt_repeat / lt_reduce against einops on NumPy.

Usage: python3 tests/peers/einops_peer.py path/to/libtensor.so

einops on NumPy is the specification (see REARRANGE.md): for every case the
result shape and values must match einops, and for rearrange (and reduce)
libtensor's result must share storage with its input exactly when einops'
NumPy result is a view of its input. For repeat, libtensor deliberately
returns stride-0 views where einops on NumPy copies (np.tile), so its
view-or-copy outcome is checked against the rule the docs state instead: a
view exactly when one can express the result (broadcast the new axes, then
NumPy's no-copy reshape rule, which is lt_view's); repeats that only add
standalone new axes ('a b -> a b c') must be views. Where einops raises,
libtensor must return NULL with LT_ERR_PATTERN or LT_ERR_SHAPE (the one
REARRANGE.md names where it is clear), with a message quoting the pattern.

Inputs are built identically in NumPy and libtensor: contiguous, and
non-contiguous through lt_transpose/lt_permute, negative-step lt_slice and
lt_expand (stride 0), alone and combined. Hand-written cases cover every
pattern form; a few hundred random valid patterns (fixed seed) run in f32,
f64 and i32 on a contiguous and a random non-contiguous layout.

Prints TAP. Skips visibly (1..0 # SKIP) when numpy or einops is missing.
"""
import ctypes
import random
import sys
import traceback
import warnings

try:
    import numpy as np
    import einops
except ImportError:
    print("1..0 # SKIP einops/numpy not installed (pip install numpy einops)")
    sys.exit(0)

warnings.simplefilter("ignore")  # einops warns on keyword names; numpy on mean of empty

# ---------------------------------------------------------------------------
# The library through ctypes
# ---------------------------------------------------------------------------

from ltlib import *  # noqa: F401,F403 (the enums and structs shared by the peer suites)
import ltlib

globals().update(ltlib.open_library("einops_peer.py"))

RED_CODE = {"sum": LT_SUM, "mean": LT_MEAN, "max": LT_MAX, "min": LT_MIN, "prod": LT_PROD}
DTYPES = {  # name -> (lt dtype, numpy dtype)
    "f32": (LT_F32, np.float32),
    "f64": (LT_F64, np.float64),
    "i32": (LT_I32, np.int32),
    "f16": (LT_F16, np.float16),
    "i64": (LT_I64, np.int64),
    "u8": (LT_U8, np.uint8),
    "bool": (LT_BOOL, np.bool_),
}
try:
    import ml_dtypes
    DTYPES["bf16"] = (LT_BF16, ml_dtypes.bfloat16)
except ImportError:
    pass


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


def lt_from_np(arena, arr, dt):
    a = np.array(arr, order="C", copy=True)  # (np.ascontiguousarray makes 0-d arrays 1-d)
    h = lt_from_data(P(a.ctypes.data), dt, a.ndim, i64arr(a.shape))
    return arena.add(lt_check(h, "lt_from_data"))


def lt_shape_of(h):
    n = lt_ndim(h)
    sp = lt_shape(h)
    return tuple(sp[i] for i in range(n))


def lt_to_np(h, npdt):
    out = np.empty(lt_shape_of(h), dtype=npdt)
    assert lt_numel(h) == out.size
    st = lt_read(h, P(out.ctypes.data), out.nbytes)
    if st != LT_OK:
        raise Failure("lt_read failed: %s: %s" % (status_name(st), last_error()))
    return out


def make_axes(axes):
    if not axes:
        return None, 0, []
    keep = []
    arr = (LtAxis * len(axes))()
    for i, (k, v) in enumerate(axes.items()):
        b = k.encode("utf-8")
        keep.append(b)
        arr[i].name = b
        arr[i].size = v
    return arr, len(axes), keep


def lt_call(h, op, pattern, axes, red):
    arr, n, keep = make_axes(axes)
    pat = pattern.encode("utf-8")
    if op == "rearrange":
        r = lt_rearrange(h, pat, arr, n)
    elif op == "repeat":
        r = lt_repeat(h, pat, arr, n)
    else:
        r = lt_reduce(h, pat, RED_CODE[red] if isinstance(red, str) else red, arr, n)
    del keep
    return r


def einops_call(x, op, pattern, axes, red):
    if op == "rearrange":
        return einops.rearrange(x, pattern, **axes)
    if op == "repeat":
        return einops.repeat(x, pattern, **axes)
    return einops.reduce(x, pattern, red, **axes)


def np_root(a):
    while isinstance(a, np.ndarray) and isinstance(a.base, np.ndarray):
        a = a.base
    return a


def np_is_view(res, x):
    """Is einops' result a view of x (shares its memory)?"""
    if not isinstance(res, np.ndarray):
        return False  # a numpy scalar from a full reduction
    if res.size and x.size:
        return bool(np.shares_memory(res, x))
    return np_root(res) is np_root(x)  # zero-size: shares_memory is always False


# ---------------------------------------------------------------------------
# Layouts: the same (non-contiguous) view built in NumPy and in libtensor
# ---------------------------------------------------------------------------

class Layout:
    """Built backwards from the target shape: base (contiguous) -> optional
    slice with a step -> optional permute/transpose -> optional expand."""

    def __init__(self, kind, shape, rng):
        self.kind = kind
        n = len(shape)
        self.shape = tuple(shape)
        self.slice = None      # (dim, step)
        self.perm = None       # permutation (np.transpose order)
        self.swap = None       # (d0, d1) done with lt_transpose
        self.expand = None     # target shape
        self.lead = 0          # leading dims added by expand
        cur = list(shape)
        if kind in ("expand", "mixed") and n >= 1:
            self.expand = tuple(shape)
            self.lead = 1 if (n >= 2 and rng.random() < 0.3) else 0
            cur = cur[self.lead:]
            k = rng.randint(1, max(1, len(cur)))
            for d in rng.sample(range(len(cur)), min(k, len(cur))):
                cur[d] = 1
        if kind in ("transpose", "mixed") and len(cur) >= 2:
            if kind == "transpose" and rng.random() < 0.5:
                d0, d1 = rng.sample(range(len(cur)), 2)
                self.swap = (d0, d1)
                cur[d0], cur[d1] = cur[d1], cur[d0]
            else:
                perm = list(range(len(cur)))
                while perm == sorted(perm):
                    rng.shuffle(perm)
                self.perm = perm
                pre = [0] * len(cur)
                for i, p in enumerate(perm):
                    pre[p] = cur[i]
                cur = pre
        if kind in ("negslice", "mixed") and len(cur) >= 1:
            d = rng.randrange(len(cur))
            step = rng.choice([-1, -1, -2, 2]) if kind == "mixed" else rng.choice([-1, -2])
            s = cur[d]
            m = s * abs(step)
            if abs(step) == 2 and s > 0 and rng.random() < 0.5:
                m -= 1
            self.slice = (d, step)
            cur[d] = m
        self.base_shape = tuple(cur)

    def describe(self):
        parts = ["base%s" % (list(self.base_shape),)]
        if self.slice:
            parts.append("[dim %d ::%d]" % self.slice)
        if self.swap:
            parts.append("transpose(%d,%d)" % self.swap)
        if self.perm:
            parts.append("permute%s" % (self.perm,))
        if self.expand:
            parts.append("expand%s" % (list(self.expand),))
        if len(parts) == 1:
            return "contiguous"
        return " -> ".join(parts)

    def build(self, arena, data, dt):
        """data: numpy array with base_shape. Returns (np_view, lt_handle)."""
        x = data
        h = lt_from_np(arena, data, dt)
        if self.slice:
            d, step = self.slice
            idx = [slice(None)] * x.ndim
            idx[d] = slice(None, None, step)
            x = x[tuple(idx)]
            h = arena.add(lt_check(lt_slice(h, d, LT_NONE, LT_NONE, step), "lt_slice"))
        if self.swap:
            d0, d1 = self.swap
            x = np.swapaxes(x, d0, d1)
            h = arena.add(lt_check(lt_transpose(h, d0, d1), "lt_transpose"))
        if self.perm:
            x = np.transpose(x, self.perm)
            perm = (ctypes.c_int * len(self.perm))(*self.perm)
            h = arena.add(lt_check(lt_permute(h, perm), "lt_permute"))
        if self.expand:
            x = np.broadcast_to(x, self.expand)
            h = arena.add(lt_check(lt_expand(h, len(self.expand), i64arr(self.expand)), "lt_expand"))
        assert x.shape == self.shape, (x.shape, self.shape)
        assert lt_shape_of(h) == self.shape, (lt_shape_of(h), self.shape)
        return x, h


def contiguous_layout(shape):
    lay = Layout("contiguous", shape, random.Random(0))
    return lay


def explicit_layout(base_shape, slice_=None, swap=None, perm=None, expand=None):
    """base (contiguous) -> slice_ (dim, step) -> swap (d0, d1) -> perm -> expand."""
    x = np.zeros(base_shape)
    if slice_:
        idx = [slice(None)] * x.ndim
        idx[slice_[0]] = slice(None, None, slice_[1])
        x = x[tuple(idx)]
    if swap:
        x = np.swapaxes(x, *swap)
    if perm:
        x = np.transpose(x, perm)
    if expand:
        x = np.broadcast_to(x, expand)
    lay = Layout("explicit", x.shape, random.Random(0))
    lay.base_shape, lay.slice, lay.swap, lay.perm, lay.expand = (
        tuple(base_shape), slice_, swap, perm, tuple(expand) if expand else None)
    return lay


def make_data(shape, npdt, op, rng):
    n = int(np.prod(shape, dtype=np.int64)) if len(shape) else 1
    if op == "reduce":
        # small values: sums are exact in every order; max/min have ties
        if np.issubdtype(npdt, np.integer):
            v = rng.integers(-5, 6, size=n)
        else:
            v = rng.integers(-8, 9, size=n) / 4.0
    else:
        # distinct values so any misplaced element shows
        v = (np.arange(n) + 1) * np.where(np.arange(n) % 3 == 1, -1, 1)
    if npdt == np.bool_:
        v = (np.arange(n) * 7 + n) % 3 == 0
    elif npdt == np.uint8:
        v = np.abs(v) % 251
    elif npdt != np.float32 and npdt != np.float64 and not np.issubdtype(npdt, np.integer):
        v = v % 200   # f16/bf16: small integers are exact
    return np.asarray(v).astype(npdt).reshape(shape)


# ---------------------------------------------------------------------------
# One comparison
# ---------------------------------------------------------------------------

def short(pattern):
    """repr of a pattern, abbreviated when very long."""
    if len(pattern) <= 100:
        return repr(pattern)
    return "%r...%r (%d chars)" % (pattern[:50], pattern[-30:], len(pattern))


def short_axes(axes):
    s = str(axes)
    return s if len(s) <= 120 else s[:110] + "...} (%d axes)" % len(axes)


def fmt_case(op, pattern, shape, axes, red, dtname, layout):
    s = "%s %s shape=%s" % (op, short(pattern), list(shape))
    if red is not None:
        s += " reduction=%s" % red
    if axes:
        s += " axes=%s" % short_axes(axes)
    s += " dtype=%s layout=%s" % (dtname, layout.describe())
    return s


def run_variant(op, pattern, axes, red, dtname, layout, np_rng, view_rule, diags):
    """Run one (dtype, layout) variant; append diagnostics on failure; return ok.

    view_rule: 'einops' (shares storage iff einops' result is a view),
    'view' (libtensor must return a view), 'repeat' (shares storage iff a
    stride-0 view can express the result), or None (no check)."""
    dt, npdt = DTYPES[dtname]
    arena = Arena()
    ctx = fmt_case(op, pattern, layout.shape, axes, red, dtname, layout)
    try:
        data = make_data(layout.base_shape, npdt, op, np_rng)
        x, h = layout.build(arena, data, dt)
        try:
            ref = einops_call(x, op, pattern, axes, red)
            ein_err = None
        except Exception as e:  # EinopsError, ValueError, ZeroDivisionError, ...
            ref, ein_err = None, e
        r = arena.add(lt_call(h, op, pattern, axes, red))
        st = lt_last_status()
        if ein_err is not None:
            if r:
                diags.append(ctx)
                diags.append("einops raises %s: %s" % (type(ein_err).__name__, str(ein_err).splitlines()[0] if str(ein_err) else ""))
                diags.append("libtensor returned a tensor of shape %s" % (list(lt_shape_of(r)),))
                return False
            if st not in (LT_ERR_PATTERN, LT_ERR_SHAPE):
                diags.append(ctx)
                diags.append("einops raises %s; libtensor fails with %s (want LT_ERR_PATTERN or LT_ERR_SHAPE): %s"
                             % (type(ein_err).__name__, status_name(st), last_error()))
                return False
            return True
        if not r:
            diags.append(ctx)
            diags.append("einops gives shape %s; libtensor fails: %s: %s"
                         % (list(np.shape(ref)), status_name(st), last_error()[:400]))
            return False
        if st != LT_OK:
            diags.append(ctx)
            diags.append("libtensor returned a tensor but lt_last_status() = %s" % status_name(st))
            return False
        got = lt_to_np(r, npdt)
        ein_view = np_is_view(ref, x)
        refa = np.asarray(ref)
        if got.shape != refa.shape:
            diags.append(ctx)
            diags.append("shape: einops %s, libtensor %s" % (list(refa.shape), list(got.shape)))
            return False
        if np.issubdtype(npdt, np.integer):
            want = refa.astype(np.int64).astype(npdt)  # einops sums ints in int64; libtensor wraps on store
            eq = got == want
        elif npdt == np.bool_:
            want = refa.astype(npdt)
            eq = got == want
        elif npdt != np.float32 and npdt != np.float64:   # f16, bf16: compare exactly as f32
            want = refa.astype(npdt)
            g32, w32 = got.astype(np.float32), want.astype(np.float32)
            eq = (g32 == w32) | (np.isnan(g32) & np.isnan(w32))
        else:
            want = refa.astype(npdt)
            if op == "reduce" and red in ("sum", "mean", "prod"):
                eq = np.isclose(got, want, rtol=1e-5, atol=0.0, equal_nan=True)
            else:
                eq = (got == want) | (np.isnan(got) & np.isnan(want))
        if not np.all(eq):
            bad = tuple(int(i) for i in np.argwhere(~np.asarray(eq))[0]) if got.ndim else ()
            diags.append(ctx)
            diags.append("values differ (%d of %d); first at index %s: einops %r, libtensor %r"
                         % (int(np.size(eq) - np.count_nonzero(eq)), int(np.size(eq)), list(bad),
                            want[bad].item(), got[bad].item()))
            return False
        shares = bool(lt_shares_storage(r, h))
        if view_rule == "einops" and shares != ein_view:
            diags.append(ctx)
            diags.append("view-or-copy: einops result is %s, libtensor result %s"
                         % ("a view" if ein_view else "a copy",
                            "shares storage (view)" if shares else "does not share storage (copy)"))
            return False
        if view_rule == "view" and not shares:
            diags.append(ctx)
            diags.append("repeat only adds new axes: libtensor should return a stride-0 view, got a copy")
            return False
        if view_rule == "repeat":
            can = repeat_view_expected(x, pattern, axes, refa.shape)
            if shares != can:
                diags.append(ctx)
                diags.append("view-or-copy: a stride-0 view %s express this repeat, but libtensor %s"
                             % ("can" if can else "cannot",
                                "copies" if not shares else "returns a view"))
                return False
        return True
    finally:
        arena.close()


def parse_side(side):
    """Top-level tokens (str) and groups (list of str) of one side of a valid
    pattern; '...' becomes the single token '\u2026'."""
    side = side.replace("...", "\u2026")
    items, group, tok = [], None, ""
    for ch in side + " ":
        if ch in " ()":
            if tok:
                (group if group is not None else items).append(tok)
                tok = ""
            if ch == "(":
                group = []
            elif ch == ")":
                items.append(group)
                group = None
        else:
            tok += ch
    return items


def repeat_view_expected(x, pattern, axes, ref_shape):
    """Can a (stride-0) view express repeat's result? Build it the way einops
    does on PyTorch: split/permute (always a view), broadcast the new axes
    (stride 0), then reshape into the output compositions; the reshape keeps
    a view exactly when NumPy's no-copy reshape rule (= lt_view's rule) allows."""
    lhs, rhs = pattern.split("->")
    left_ids = set()
    for it in parse_side(lhs):
        for m in (it if isinstance(it, list) else [it]):
            if not m.isdecimal():
                left_ids.add(m)
    elems = []
    for it in parse_side(rhs):
        for m in (it if isinstance(it, list) else [it]):
            if m.isdecimal() and int(m) == 1:
                continue
            elems.append(m)
    existing = [m for m in elems if not m.isdecimal() and m in left_ids]
    rpat = lhs + " -> " + " ".join("..." if m == "\u2026" else m for m in existing)
    y = einops.rearrange(x, rpat, **{k: v for k, v in axes.items() if k in left_ids})
    ell_n = y.ndim - sum(1 for m in existing if m != "\u2026")
    full, new_pos, yi = [], [], 0
    for m in elems:
        if m == "\u2026":
            full += list(y.shape[yi:yi + ell_n])
            yi += ell_n
        elif m in left_ids:
            full.append(y.shape[yi])
            yi += 1
        else:
            new_pos.append(len(full))
            full.append(int(m) if m.isdecimal() else axes[m])
    z = y
    for p in new_pos:
        z = np.expand_dims(z, p)
    z = np.broadcast_to(z, tuple(full))
    return np_is_view(z.reshape(ref_shape), x)


NONCONTIG_KINDS = ["transpose", "negslice", "expand", "mixed"]


def pick_noncontig(shape, rng, kind=None):
    n = len(shape)
    if n == 0:
        return None
    kinds = [k for k in NONCONTIG_KINDS if n >= 2 or k != "transpose"]
    if kind is None or kind not in kinds:
        kind = rng.choice(kinds)
    return Layout(kind, shape, rng)


def test_case(op, pattern, shape, axes=None, red=None, dtypes=("f32", "f64", "i32"),
              layouts="all", view_rule="auto", seed=0, layout=None, int_mean=False):
    """A TAP test body: contiguous in every dtype, plus non-contiguous layouts."""
    axes = dict(axes or {})

    def body(diags):
        rng = random.Random(seed)
        np_rng = np.random.default_rng(seed)
        vr = view_rule
        if vr == "auto":
            vr = "repeat" if op == "repeat" else "einops"
        ok = True
        for dtname in dtypes:
            if red == "mean" and dtname == "i32" and not int_mean:
                continue
            lays = [contiguous_layout(shape)] if layout is None else [layout]
            if layout is not None:
                pass
            elif layouts == "all" and len(shape) >= 1:
                kinds = [k for k in NONCONTIG_KINDS if len(shape) >= 2 or k != "transpose"]
                lays += [Layout(k, shape, rng) for k in kinds]
            elif layouts == "one":
                lay = pick_noncontig(shape, rng)
                if lay is not None:
                    lays.append(lay)
            for lay in lays:
                if not run_variant(op, pattern, axes, red, dtname, lay, np_rng, vr, diags):
                    ok = False
                    if len(diags) > 12:
                        return False
        return ok
    return body


# ---------------------------------------------------------------------------
# Hand-written table: every pattern form
# ---------------------------------------------------------------------------

R, RP, RD = "rearrange", "repeat", "reduce"
_N16 = list("abcdefghijklmnop")
_N17 = list("abcdefghijklmnopq")
_N17_SIZES = {n: (2 if i < 5 else 1) for i, n in enumerate(_N17[1:])}   # a = 2
_N50 = list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX")

HAND = [
    # (op, pattern, shape, axes, reduction, extra)
    # names, permutations
    (R, "a b -> b a", (2, 3), {}, None),
    (R, "a b c -> c a b", (2, 3, 4), {}, None),
    (R, "a b c d -> d b c a", (2, 3, 1, 4), {}, None),
    (R, "a b c d e f g h -> h g f e d c b a", (2, 1, 2, 1, 2, 3, 1, 2), {}, None),
    (R, "a b -> a b", (2, 3), {}, None),
    (R, "a1 b_c -> b_c a1", (2, 3), {}, None),
    (R, "a A -> A a", (2, 3), {}, None),
    (R, "batch_size seq_len -> seq_len batch_size", (2, 3), {}, None),
    (R, "aß b -> b aß", (2, 3), {}, None),                 # UTF-8 identifier
    (R, "for axis -> axis for", (2, 3), {}, None),         # keyword / 'axis' accepted
    # compositions on the right
    (R, "a b -> (a b)", (2, 3), {}, None),
    (R, "a b -> (b a)", (2, 3), {}, None),                 # copy on contiguous
    (R, "a b c -> a (b c)", (2, 3, 4), {}, None),
    (R, "a b c -> (a c) b", (2, 3, 4), {}, None),
    (R, "a b c -> (c b a)", (2, 3, 4), {}, None),
    (R, "a b -> (a)(b)", (2, 3), {}, None),
    # compositions on the left, lengths via axes, inference
    (R, "(a b) c -> a b c", (6, 4), {"a": 2}, None),
    (R, "(a b) c -> c (b a)", (6, 4), {"b": 3}, None),
    (R, "a (b c) -> (a c) b", (3, 4), {"c": 2}, None),
    (R, "(a b c) -> a b c", (24,), {"a": 2, "b": 3}, None),
    (R, "(a b c) -> c b a", (24,), {"a": 2, "c": 4}, None),
    (R, "b (h w) c -> b h w c", (2, 6, 5), {"h": 2, "w": 3}, None),      # restated lengths
    (R, "b (h w) c -> (b c) w h", (2, 6, 5), {"h": 2, "w": 3, "b": 2, "c": 5}, None),
    (R, "(b1 b2) h w c -> (b1 h) (b2 w) c", (4, 2, 3, 2), {"b1": 2}, None),
    (R, "(a) b -> b a", (2, 3), {}, None),
    (R, "(a b) (c d) -> (a c) (b d)", (6, 4), {"a": 3, "c": 2}, None),
    # no separating spaces, odd spacing
    (R, "a(b c)->(c b)a", (2, 12), {"b": 3}, None),
    (R, "  a   b  ->  b  a  ", (2, 3), {}, None),
    (R, "(a b)c->c(a b)", (6, 4), {"a": 2}, None),
    # unit axes: () and 1
    (R, "a b -> a b ()", (2, 3), {}, None),
    (R, "a b -> a 1 b", (2, 3), {}, None),
    (R, "a () b -> a b", (2, 1, 3), {}, None),
    (R, "a 1 b -> b a", (2, 1, 3), {}, None),
    (R, "a 01 b -> b 001 a", (2, 1, 3), {}, None),
    (R, "() -> ", (1,), {}, None),
    (R, "1 -> 1", (1,), {}, None),
    (R, " -> 1 1", (), {}, None),
    (R, " -> ()", (), {}, None),
    (R, "(a 1 b) -> a b", (6,), {"a": 2}, None),
    (R, "(1) a -> a", (1, 3), {}, None),
    (R, "(1 1) a -> a (1)", (1, 3), {}, None),
    (R, "(a 1) b -> (1 b a)", (2, 3), {}, None),
    (R, "a b -> (a 1 b)", (2, 3), {}, None),
    # ellipsis
    (R, "... -> ...", (2, 3, 4), {}, None),
    (R, "...->...", (2, 3), {}, None),
    (R, "... a -> a ...", (2, 3, 4), {}, None),
    (R, "a ... -> ... a", (2, 3, 4), {}, None),
    (R, "... -> (...)", (2, 3), {}, None),
    (R, "a ... -> a (...)", (2, 3, 4), {}, None),
    (R, "a ... b -> b (... a)", (2, 3, 4, 5), {}, None),
    (R, "a ... -> (a ...)", (2, 3), {}, None),
    (R, "a ... -> (... a)", (2, 3, 4), {}, None),
    (R, "... a b -> ... (a b)", (2, 3, 4), {}, None),
    (R, "... a b -> (... b) a", (2, 3, 4), {}, None),
    (R, "(a b) ... -> b ... a", (6, 2, 2), {"a": 3}, None),
    (R, "... (a b) -> (b ...) a", (2, 2, 6), {"a": 3}, None),
    (R, "a ... b -> b ... a", (2, 3), {}, None),           # ellipsis matches 0 dims
    (R, "a ... -> (... a)", (3,), {}, None),               # 0 dims inside parens
    (R, "a ... -> a (...)", (3,), {}, None),               # (...) of 0 dims = size 1
    (R, "... -> ...", (), {}, None),                       # 0-d
    (R, "... -> (...)", (), {}, None),                     # 0-d -> [1]
    (R, "... -> 1 ... ()", (2,), {}, None),
    # 0-d tensors
    (R, " -> ", (), {}, None),
    (R, "->", (), {}, None),
    # zero-size axes
    (R, "a b -> b a", (0, 3), {}, None),
    (R, "a b -> (a b)", (3, 0), {}, None),
    (R, "a b -> (b a)", (3, 0), {}, None),
    (R, "(a b) c -> a b c", (0, 2), {"b": 5}, None),
    (R, "a (b c) -> c a b", (2, 0), {"c": 3}, None),
    (R, "a ... -> ... a", (0, 2, 3), {}, None),
    # repeat: new named axes (views in libtensor)
    (RP, "a b -> a b c", (2, 3), {"c": 3}, None, "view"),
    (RP, "a b -> c a b", (2, 3), {"c": 2}, None, "view"),
    (RP, "a b -> b c a", (2, 3), {"c": 2}, None, "view"),
    (RP, "a b -> a b c", (2, 3), {"c": 1}, None, "view"),   # einops copies even here
    (RP, "a b -> a b c d", (2, 3), {"c": 2, "d": 2}, None, "view"),
    (RP, "a -> a c", (3,), {"c": 0}, None),
    (RP, "a b -> a b c", (0, 3), {"c": 2}, None, "view"),
    # repeat: anonymous numeric axes
    (RP, "a -> a 3", (4,), {}, None, "view"),
    (RP, "a -> 2 a 3", (4,), {}, None, "view"),
    (RP, "a -> a 02", (4,), {}, None, "view"),
    (RP, "a 1 -> a 3", (4, 1), {}, None),
    (RP, "a b -> a (b 2)", (2, 3), {}, None),
    (RP, "a b -> (3 a) b", (2, 3), {}, None),
    # repeat: (r h) tiles, (h r) interleaves
    (RP, "h w -> (r h) w", (2, 3), {"r": 2}, None),
    (RP, "h w -> (h r) w", (2, 3), {"r": 2}, None),
    (RP, "h w -> h (w r)", (2, 3), {"r": 3}, None),
    (RP, "h w -> h (r w)", (2, 3), {"r": 3}, None),
    (RP, "h w -> (h r1) (r2 w)", (2, 3), {"r1": 2, "r2": 3}, None),
    (RP, "h w -> (r h w)", (2, 3), {"r": 2}, None),
    (RP, "h w -> (w r h)", (2, 3), {"r": 2}, None),
    (RP, "a b -> (a c) b", (2, 3), {"c": 1}, None),
    (RP, "a b -> a b (c d)", (2, 3), {"c": 2, "d": 3}, None),
    (RP, "(a b) -> a b c", (6,), {"a": 2, "c": 2}, None, "view"),
    (RP, "a b -> a b", (2, 3), {}, None),                   # adds nothing: a rearrange
    (RP, "a b -> b a", (2, 3), {}, None),
    # repeat with ellipsis, 0-d
    (RP, "... -> ... c", (2, 3), {"c": 2}, None, "view"),
    (RP, "... -> c ...", (2, 3), {"c": 2}, None, "view"),
    (RP, "... -> (c ...)", (2, 3), {"c": 2}, None),
    (RP, "... -> (... c)", (2, 3), {"c": 2}, None),
    (RP, "a ... -> (a r) ...", (2, 3), {"r": 2}, None),
    (RP, " -> a", (), {"a": 3}, None, "view"),
    (RP, " -> 2 3", (), {}, None, "view"),
    (RP, " -> (a b)", (), {"a": 2, "b": 3}, None),
    # reduce: every reduction
    (RD, "a b -> a", (3, 4), {}, "sum"),
    (RD, "a b -> a", (3, 4), {}, "mean"),
    (RD, "a b -> a", (3, 4), {}, "max"),
    (RD, "a b -> a", (3, 4), {}, "min"),
    (RD, "a b -> a", (3, 4), {}, "prod"),
    (RD, "a b c -> b", (2, 3, 4), {}, "sum"),
    (RD, "a b c -> c a", (2, 3, 4), {}, "max"),
    (RD, "a b c -> (c a)", (2, 3, 4), {}, "min"),
    (RD, "a b -> ", (3, 4), {}, "sum"),
    (RD, "a b -> ", (3, 4), {}, "prod"),
    (RD, "a b -> ", (3, 4), {}, "mean"),
    (RD, "(a b) c -> a c", (6, 4), {"b": 2}, "sum"),
    (RD, "b c (h h2) (w w2) -> b c h w", (2, 3, 4, 6), {"h2": 2, "w2": 2}, "max"),
    # reduce: anonymous axes on the left are always reduced
    (RD, "(h 2) w -> h w", (4, 3), {}, "sum"),
    (RD, "(h 2) w -> h w", (4, 3), {}, "max"),
    (RD, "b c (h 2) (w 2) -> b c h w", (2, 3, 4, 6), {}, "max"),
    (RD, "b c (h 2) (w 3) -> b c h w", (2, 1, 4, 6), {}, "mean"),
    (RD, "a 3 -> a", (2, 3), {}, "sum"),
    (RD, "3 a -> a", (3, 2), {}, "prod"),
    (RD, "(h 02) w -> h w", (4, 3), {}, "min"),
    # reduce: nothing reduced (a rearrange: view rule applies)
    (RD, "a b -> a b", (2, 3), {}, "sum"),
    (RD, "a b -> b a", (2, 3), {}, "max"),
    (RD, "a b -> (a b)", (2, 3), {}, "mean"),
    (RD, "a b -> (b a)", (2, 3), {}, "prod"),
    (RD, "a 1 b -> a b", (2, 1, 3), {}, "min"),
    (RD, "(a b) -> a b", (6,), {"a": 2}, "sum"),
    (RD, "... -> ...", (2, 3), {}, "max"),
    # reduce keeping 1 / ()
    (RD, "b c h w -> b c 1 1", (2, 3, 4, 5), {}, "mean"),
    (RD, "b c h w -> b c () ()", (2, 3, 4, 5), {}, "sum"),
    (RD, "a b -> a 1", (3, 4), {}, "max"),
    (RD, "a b -> 1 a", (3, 4), {}, "min"),
    (RD, "a b -> a b 1", (3, 4), {}, "sum"),                # nothing reduced, keeps a 1
    (RD, "a b -> 1", (3, 4), {}, "prod"),
    # reduce with ellipsis
    (RD, "... a -> a", (2, 3, 4), {}, "sum"),               # reduces every ellipsis dim
    (RD, "a ... -> a", (3,), {}, "sum"),                    # ellipsis of 0 dims
    (RD, "... -> ", (2, 3), {}, "max"),
    (RD, "a ... b -> (... b)", (2, 3, 4, 5), {}, "sum"),
    (RD, "a ... -> ... ", (2, 3, 4), {}, "min"),
    # reduce on 0-d and zero-size
    (RD, " -> ", (), {}, "sum"),
    (RD, "... -> ", (), {}, "max"),
    (RD, "a b -> a", (3, 0), {}, "sum"),                    # empty sum = 0
    (RD, "a b -> a", (3, 0), {}, "prod"),                   # empty prod = 1
    (RD, "a b -> a", (3, 0), {}, "mean"),                   # empty mean = NaN
    (RD, "a b -> a", (0, 3), {}, "max"),                    # result is empty, fine
    (RD, "a b -> b", (0, 3), {}, "sum"),
    # many axes, long names, many lengths
    (R, " ".join(_N16) + " -> " + " ".join(reversed(_N16)), (2, 1) * 8, {}, None),
    (RP, "a -> a " + " ".join(_N16[1:]), (2,), {n: 1 for n in _N16[1:]}, None, "view"),
    (R, "(%s b) -> b %s" % ("y" * 40, "y" * 40), (6,), {"y" * 40: 2}, None),
    (R, "(a b c d e f g h i j) -> j i h g f e d c b a", (32,),
     dict(zip("abcdefghi", [2, 1, 2, 1, 2, 1, 2, 1, 2])), None),
    (R, "(a 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 b) -> b a", (6,), {"a": 2}, None),
    # limits einops does not have: a pattern over 256 characters, more than
    # 16 elementary axes (in and out have fewer), more than 48 axes on a side
    (R, "%s b -> b %s" % ("x" * 150, "x" * 150), (2, 3), {}, None),
    (R, "a" + " " * 300 + "b -> b a", (2, 3), {}, None),
    (R, "(%s) -> (%s)" % (" ".join(_N17), " ".join(reversed(_N17))), (64,), _N17_SIZES, None),
    (RD, "(%s) -> a" % " ".join(_N17), (64,), _N17_SIZES, "sum"),
    (RP, "a -> (a %s)" % " ".join(_N17[1:]), (2,), _N17_SIZES, None),
    (R, "(%s) -> (%s)" % (" ".join(_N50), " ".join(reversed(_N50))), (1,), {n: 1 for n in _N50[1:]}, None),
]

# Specific non-contiguous inputs: (op, pattern, axes, reduction, layout)
LAYOUT_CASES = [
    (R, "a b -> (a b)", {}, None, dict(base_shape=(1, 1), expand=(3, 4))),     # stride 0 merges: view
    (R, "a b -> (a b)", {}, None, dict(base_shape=(3, 1), expand=(3, 4))),     # copy
    (R, "a b -> (b a)", {}, None, dict(base_shape=(1, 4), expand=(3, 4))),
    (R, "a b -> b a", {}, None, dict(base_shape=(1, 4), expand=(3, 4))),       # stride 0 moved: view
    (R, "a b -> (b a)", {}, None, dict(base_shape=(4, 3), swap=(0, 1))),       # undoes a transpose: view
    (R, "a b -> (a b)", {}, None, dict(base_shape=(4, 3), swap=(0, 1))),       # copy
    (R, "a b c -> (a b) c", {}, None, dict(base_shape=(4, 2, 3), slice_=(0, -1))),
    (R, "a b c -> a (b c)", {}, None, dict(base_shape=(4, 2, 3), slice_=(0, -1))),
    (R, "(a b) c -> a b c", {"a": 2}, None, dict(base_shape=(8, 3), slice_=(0, -2))),
    (R, "a b c -> c (a b)", {}, None, dict(base_shape=(1, 2, 3), swap=(0, 1))),  # size-1 dim
    (R, "a b c -> (a c) b", {}, None, dict(base_shape=(2, 3, 4), perm=[0, 2, 1])),
    (R, "a b -> (a b)", {}, None, dict(base_shape=(0, 3), swap=(0, 1))),       # zero-size
    (R, "a b c -> (c b a)", {}, None, dict(base_shape=(2, 3, 4), perm=[2, 1, 0])),
    (R, "a b c -> (a b c)", {}, None, dict(base_shape=(2, 6, 4), slice_=(1, 2))),
    (R, "... -> (...)", {}, None, dict(base_shape=(2, 1, 3), expand=(4, 2, 5, 3))),
    (RP, "a b -> a b c", {"c": 3}, None, dict(base_shape=(3, 1), expand=(3, 4))),
    (RP, "a b -> (a c) b", {"c": 2}, None, dict(base_shape=(1, 4), expand=(3, 4))),  # 0-stride merge
    (RP, "h w -> (h r) w", {"r": 2}, None, dict(base_shape=(1, 4), expand=(3, 4))),
    (RP, "h w -> (r h) w", {"r": 2}, None, dict(base_shape=(4, 3), swap=(0, 1))),
    (RP, "h w -> w (h r)", {"r": 2}, None, dict(base_shape=(3, 4), slice_=(1, -1))),
    (RP, "a b -> b c a", {"c": 2}, None, dict(base_shape=(4, 3), swap=(0, 1))),
    (RD, "a b -> a", {}, "sum", dict(base_shape=(3, 1), expand=(3, 4))),
    (RD, "a b -> b", {}, "max", dict(base_shape=(3, 4), slice_=(0, -1))),
    (RD, "a b -> (b a)", {}, "sum", dict(base_shape=(4, 3), swap=(0, 1))),     # nothing reduced
    (RD, "(a 2) b -> b a", {}, "prod", dict(base_shape=(3, 8), swap=(0, 1))),
    (RD, "a b c -> c", {}, "mean", dict(base_shape=(2, 1, 4), slice_=(2, -2), expand=(2, 3, 2))),
]

# ---------------------------------------------------------------------------
# Errors: einops raises; libtensor must fail with PATTERN ('P') or SHAPE ('S')
# ---------------------------------------------------------------------------

ERRORS = [
    # (op, pattern, shape, axes, reduction, expected categories)
    (R, "a b", (2, 3), {}, None, "P"),                      # no arrow
    (R, "a -> b -> a", (2,), {}, None, "P"),                # two arrows
    (R, "a b -> b a ->", (2, 3), {}, None, "P"),
    (R, "a\tb -> b a", (2, 3), {}, None, "P"),              # tab is not a separator
    (R, "a\nb -> b a", (2, 3), {}, None, "P"),
    (R, "a+b -> b a", (2, 3), {}, None, "P"),
    (R, "a b -> b, a", (2, 3), {}, None, "P"),
    (R, "a. -> a", (2,), {}, None, "P"),                    # dots outside an ellipsis
    (R, "a .. -> a", (2, 3), {}, None, "P"),
    (R, "... ... -> ...", (2, 3), {}, None, "P"),           # two ellipses
    (R, ".... -> ...", (2, 3), {}, None, "P"),
    (R, "a...->...a", (2, 3), {}, None, "P"),               # ellipsis glued to a name
    (R, "a ...->...a", (2, 3), {}, None, "P"),
    (R, "_a b -> b _a", (2, 3), {}, None, "P"),
    (R, "a_ b -> b a_", (2, 3), {}, None, "P"),
    (R, "_ -> _", (2,), {}, None, "P"),
    (R, "__ -> __", (2,), {}, None, "P"),
    (R, "1a -> 1a", (2,), {}, None, "P"),
    (R, "a a -> a a", (2, 2), {}, None, "P"),               # duplicates
    (R, "a (a b) -> a b", (2, 6), {}, None, "P"),
    (R, "a b -> (a a) b", (2, 3), {}, None, "P"),
    (R, "((a b)) -> a b", (6,), {"a": 2}, None, "P"),       # nested brackets
    (R, "(a () b) -> a b", (6,), {"a": 2}, None, "P"),
    (R, "a) -> a", (2,), {}, None, "P"),                    # unbalanced
    (R, "(a -> a", (2,), {}, None, "P"),
    (R, "a -> (a", (2,), {}, None, "P"),
    (R, "a -> a)", (2,), {}, None, "P"),
    (RD, "a 0 -> a", (2, 0), {}, "sum", "P"),               # anonymous 0
    (RD, "(a 00) -> a", (0,), {}, "sum", "P"),
    (R, "a -> a ...", (2,), {}, None, "P"),                 # ellipsis right only
    (R, "(a ...) -> a ...", (2, 3), {}, None, "P"),         # ellipsis in parens on the left
    (R, "a 2 -> a", (3, 2), {}, None, "P"),                 # anonymous >= 2 in rearrange
    (R, "a -> a 2", (3,), {}, None, "P"),
    (R, "(a 2) -> a", (6,), {}, None, "P"),
    (R, "a b -> a", (2, 3), {}, None, "P"),                 # identifiers on one side
    (R, "a -> a b", (2,), {"b": 2}, None, "P"),
    (R, "a ... -> a", (2, 3), {}, None, "P"),
    (R, " -> a", (), {"a": 1}, None, "P"),
    (RP, "a b -> a", (2, 3), {}, None, "P"),                # repeat drops an identifier
    (RP, "a 3 -> a 3", (2, 3), {}, None, "P"),              # anonymous axes have no identity
    (RP, "a ... -> a", (2, 3), {}, None, "P"),
    (RP, "a -> a c", (2,), {}, None, "PS"),                 # new axis without a size
    (RP, " -> a", (), {}, None, "PS"),
    (RD, "a b -> a c", (2, 3), {}, "sum", "P"),             # reduce invents an identifier
    (RD, "a 2 -> a 2", (3, 2), {}, "sum", "P"),
    (RD, "a -> a 2", (3,), {}, "max", "P"),
    (RD, "a -> a ...", (3,), {}, "sum", "P"),
    # number of dims
    (R, "a b c -> c b a", (2, 3), {}, None, "S"),
    (R, "a b -> b a", (2, 3, 4), {}, None, "S"),
    (R, "a b c ... -> ... c b a", (2, 3), {}, None, "S"),
    (R, "a b -> b a", (), {}, None, "S"),
    (R, " -> ", (2,), {}, None, "S"),
    (RP, "a b -> a b c", (2,), {"c": 2}, None, "S"),
    (RD, "a b c -> a", (2, 3), {}, "sum", "S"),
    # axes keys
    (R, "a b -> b a", (2, 3), {"_x": 2}, None, "P"),        # invalid name
    (R, "a b -> b a", (2, 3), {"1x": 2}, None, "P"),
    (R, "a b -> b a", (2, 3), {"c": 2}, None, "P"),         # not used in transform
    (RD, "a b -> a", (2, 3), {"z": 1}, "sum", "P"),
    # lengths
    (R, "(a b) -> a b", (6,), {}, None, "PS"),              # could not infer
    (R, "(a b) -> a b", (6,), {"a": 2, "b": 2}, None, "S"), # 4 != 6
    (R, "a b -> b a", (2, 3), {"a": 3}, None, "S"),         # restated length mismatch
    (R, "a 1 -> a", (2, 3), {}, None, "S"),                 # unit must be 1
    (R, "a () -> a", (2, 3), {}, None, "S"),
    (RD, "(a 2) -> a", (5,), {}, "sum", "S"),
    (RD, "a 3 -> a", (2, 2), {}, "sum", "S"),
    (R, "(a b) -> a b", (7,), {"b": 2}, None, "S"),         # can't divide
    (R, "(a b c) -> a b c", (12,), {"b": 5, "c": 1}, None, "S"),
    (R, "(a b) -> a b", (6,), {"b": 0}, None, "S"),         # ZeroDivisionError in einops
    (R, "(a b) -> a b", (0,), {"b": 0}, None, "S"),
    (RP, "a -> a b", (2,), {"b": -1}, None, "S"),           # negative lengths
    (R, "(a b) -> a b", (6,), {"b": -1}, None, "S"),
    (R, "(a b) -> a b", (6,), {"b": -4}, None, "S"),
    (RP, "a -> (a b)", (2,), {"b": -2}, None, "S"),
    (RP, "a -> a 99999999999999999999", (2,), {}, None, "PS"),   # OverflowError in einops
    (RD, "a b -> a", (3, 0), {}, "max", "S"),               # max/min of an empty axis
    (RD, "a b -> b", (0, 3), {}, "min", "S"),
    (RD, "a b -> ", (0, 3), {}, "max", "S"),
    # which check wins (REARRANGE.md, "Checks made ... in this order")
    (R, "a b -> a", (2, 3, 4), {}, None, "P"),               # identifiers before ndim
    (R, "a b c -> c b a", (2, 3), {"_x": 2}, None, "S"),    # ndim before axes keys
    (R, "(a b) -> a b", (6,), {"c": 2}, None, "P"),         # unused key before inference
    (R, "(a b) c -> a b c", (7, 5), {"b": 2, "c": 3}, None, "S"),
    (R, "a\tb -> b c", (2, 3), {}, None, "P"),
    (R, "a b -> b a", (2, 3), {"": 2}, None, "P"),
    (R, "a b -> b a", (2, 3), {"a": 2, "_": 3}, None, "P"),
    (RP, "a -> a b", (2,), {"a": 3, "b": 2}, None, "S"),    # restated length in repeat
    (RD, "a b -> a", (2, 3), {"b": 4}, "sum", "S"),
]


def error_case(op, pattern, shape, axes, red, cats):
    def body(diags):
        ok = True
        arena = Arena()
        try:
            x = np.zeros(shape, dtype=np.float32)
            ctx = "%s %r shape=%s axes=%s%s" % (op, pattern, list(shape), axes,
                                               (" reduction=%s" % red) if red else "")
            try:
                einops_call(x, op, pattern, axes, red)
                diags.append(ctx)
                diags.append("table error: einops accepts this pattern")
                return False
            except Exception as e:
                ein = "%s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[0])
            h = lt_from_np(arena, x, LT_F32)
            r = arena.add(lt_call(h, op, pattern, axes, red))
            st = lt_last_status()
            want = [{"P": LT_ERR_PATTERN, "S": LT_ERR_SHAPE}[c] for c in cats]
            if r:
                diags.append(ctx)
                diags.append("einops raises %s" % ein)
                diags.append("libtensor succeeded with shape %s" % (list(lt_shape_of(r)),))
                ok = False
            elif st not in want:
                diags.append(ctx)
                diags.append("einops raises %s" % ein)
                diags.append("libtensor fails with %s (want %s): %s"
                             % (status_name(st), " or ".join(status_name(w) for w in want), last_error()))
                ok = False
            elif not last_error():
                diags.append(ctx)
                diags.append("libtensor fails with %s but lt_last_error() is empty" % status_name(st))
                ok = False
            elif red not in ("max", "min") and ("'%s'" % pattern) not in last_error():
                diags.append(ctx)
                diags.append("the message should quote the pattern: %r" % last_error())
                ok = False
            return ok
        finally:
            arena.close()
    return body


def misc_tests():
    tests = []

    def int_mean(diags):
        # einops on NumPy refuses mean of integers (NotImplementedError);
        # libtensor documents LT_ERR_DTYPE.
        arena = Arena()
        try:
            x = np.arange(6, dtype=np.int32).reshape(2, 3)
            try:
                einops.reduce(x, "a b -> a", "mean")
                diags.append("einops accepted mean of int32")
                return False
            except Exception:
                pass
            h = lt_from_np(arena, x, LT_I32)
            r = arena.add(lt_reduce(h, b"a b -> a", LT_MEAN, None, 0))
            st = lt_last_status()
            if r or st != LT_ERR_DTYPE:
                diags.append("reduce 'a b -> a' mean on i32: want NULL with LT_ERR_DTYPE, got %s %s"
                             % ("a tensor" if r else "NULL", status_name(st)))
                return False
            return True
        finally:
            arena.close()
    tests.append(("reduce mean of i32 fails with LT_ERR_DTYPE (einops raises too)", int_mean))

    def int_mean_nothing_reduced(diags):
        # einops only refuses integer mean when it reduces something
        ok = True
        for pattern, shape in [("a b -> b a", (2, 3)), ("a 1 b -> (b a)", (2, 1, 3)), (" -> ", ())]:
            ok &= test_case(RD, pattern, shape, {}, "mean", dtypes=("i32",), layouts="one",
                            int_mean=True)(diags)
        return ok
    tests.append(("reduce mean of i32 with nothing reduced is a rearrange, as in einops",
                  int_mean_nothing_reduced))

    def bad_args(diags):
        arena = Arena()
        ok = True
        try:
            h = lt_from_np(arena, np.zeros((2, 3), np.float32), LT_F32)
            for what, fn in [
                ("lt_rearrange(NULL tensor)", lambda: lt_rearrange(None, b"a b -> b a", None, 0)),
                ("lt_repeat(NULL tensor)", lambda: lt_repeat(None, b"a b -> b a", None, 0)),
                ("lt_reduce(NULL tensor)", lambda: lt_reduce(None, b"a b -> a", LT_SUM, None, 0)),
                ("lt_rearrange(NULL pattern)", lambda: lt_rearrange(h, None, None, 0)),
                ("lt_repeat(NULL pattern)", lambda: lt_repeat(h, None, None, 0)),
                ("lt_reduce(NULL pattern)", lambda: lt_reduce(h, None, LT_SUM, None, 0)),
                ("lt_reduce(op=99)", lambda: lt_reduce(h, b"a b -> a", 99, None, 0)),
                ("lt_reduce(op=-1)", lambda: lt_reduce(h, b"a b -> a", -1, None, 0)),
            ]:
                r = arena.add(fn())
                st = lt_last_status()
                if r or st == LT_OK:
                    diags.append("%s: want NULL and an error status, got %s %s"
                                 % (what, "a tensor" if r else "NULL", status_name(st)))
                    ok = False
            return ok
        finally:
            arena.close()
    tests.append(("NULL tensor / NULL pattern / unknown reduction fail cleanly", bad_args))

    def cache_cleared(diags):
        # parse, clear the cache, parse again: same answers
        ok = True
        for _ in range(2):
            ok &= test_case(R, "b (h w) c -> (b c) w h", (2, 6, 5), {"h": 2}, layouts="one")(diags)
            ok &= test_case(RD, "b (h 2) w -> b h", (2, 4, 3), {}, "max", layouts="one")(diags)
            lt_pattern_cache_clear()
        return ok
    tests.append(("same results after lt_pattern_cache_clear", cache_cleared))

    # Data movement (and max/min) in the other dtypes: exact.
    others = [d for d in ("f16", "bf16", "i64", "u8", "bool") if d in DTYPES]
    for op, pattern, shape, axes, red in [
            (R, "a (b c) -> (c a) b", (2, 6), {"c": 2}, None),
            (R, "... a -> a (...)", (2, 3, 4), {}, None),
            (RP, "h w -> (r h) w c", (2, 3), {"r": 2, "c": 2}, None),
            (RP, "h w -> h (w r)", (2, 3), {"r": 3}, None),
            (RD, "a b -> b", (3, 4), {}, "max"),
            (RD, "(h 2) w -> w h", (4, 3), {}, "min")]:
        dts = [d for d in others if not (red and d == "bool")]
        tests.append(("%s %r shape=%s in %s" % (op, pattern, list(shape), "/".join(dts)),
                      test_case(op, pattern, shape, axes, red, dtypes=dts, layouts="one", seed=77)))
    return tests


# ---------------------------------------------------------------------------
# Random valid patterns
# ---------------------------------------------------------------------------

NAME_POOL = ["a", "b", "c", "d", "e", "f", "g", "h", "w", "x", "y", "z", "ch", "h2", "w_1", "B", "T"]


def item_size(it, sizes, ell):
    kind = it[0]
    if kind == "name":
        return [sizes[it[1]]]
    if kind == "unit":
        return [1]
    if kind == "anon":
        return [it[1]]
    if kind == "ell":
        return list(ell)
    # group
    p = 1
    for m in it[1]:
        if m == "...":
            p *= int(np.prod(ell, dtype=np.int64)) if ell else 1
        elif m.isdecimal():
            p *= int(m)
        else:
            p *= sizes[m]
    return [p]


def render(items, rng):
    toks = []
    for it in items:
        kind = it[0]
        if kind == "name" or kind == "unit":
            toks.append(it[1])
        elif kind == "anon":
            toks.append(str(it[1]))
        elif kind == "ell":
            toks.append("...")
        else:
            toks.append("(" + " ".join(it[1]) + ")")
    s = " ".join(toks)
    if rng.random() < 0.2:
        s = s.replace(" (", "(").replace(") ", ")").replace("( ", "(")
    return s


def group_items(ids, rng, p_group=0.35, p_inner_unit=0.15):
    items = []
    i = 0
    while i < len(ids):
        left = len(ids) - i
        if left >= 2 and rng.random() < p_group:
            k = rng.randint(2, min(3, left))
            members = list(ids[i:i + k])
            i += k
            if rng.random() < p_inner_unit:
                members.insert(rng.randint(0, len(members)), "1")
            items.append(("group", members))
        else:
            if ids[i] != "..." and rng.random() < 0.05:
                items.append(("group", [ids[i]]))   # (a) is a
            elif ids[i] == "...":
                items.append(("ell",))
            else:
                items.append(("name", ids[i]))
            i += 1
    return items


def add_units(items, rng, p=0.2):
    while rng.random() < p:
        items.insert(rng.randint(0, len(items)), ("unit", rng.choice(["1", "()", "1", "01"])))
        p /= 2


def gen_case(rng, op):
    """A random valid (op, pattern, shape, axes, reduction, view_rule) case."""
    top = 6 if op == "rearrange" else 5
    n_named = rng.randint(0, top) if rng.random() < 0.1 else rng.randint(1, top)
    names = rng.sample(NAME_POOL, n_named)
    sizes = {}
    zero = None
    for n in names:
        if zero is None and rng.random() < 0.04:
            sizes[n] = 0
            zero = n
        else:
            sizes[n] = rng.choice([1, 2, 2, 3, 3, 4])
    use_ell = rng.random() < 0.35
    ell = [rng.choice([1, 2, 3]) for _ in range(rng.choice([0, 0, 1, 1, 2, 3]))] if use_ell else []

    # left side: names in input order, some composed
    order = names[:]
    rng.shuffle(order)
    left = group_items(order, rng, p_group=0.3, p_inner_unit=0.1)
    if op == "reduce":
        if rng.random() < 0.25:   # top-level anonymous axis: always reduced
            left.insert(rng.randint(0, len(left)), ("anon", rng.choice([2, 3])))
        singles = [i for i, it in enumerate(left) if it[0] == "name"]
        if singles and rng.random() < 0.3:   # (h 2): pooling
            i = rng.choice(singles)
            left[i] = ("group", [left[i][1], rng.choice(["2", "3"])])
    add_units(left, rng)
    if use_ell:
        left.insert(rng.randint(0, len(left)), ("ell",))

    shape = []
    for it in left:
        shape += item_size(it, sizes, ell)

    # axes: enough to resolve each left group, sometimes restating lengths
    axes = {}
    for it in left:
        if it[0] == "group":
            named = [m for m in it[1] if not m.isdecimal()]
            if len(named) >= 2:
                if rng.random() < 0.15:
                    unknown = None
                else:
                    unknown = zero if zero in named else rng.choice(named)
                for m in named:
                    if m != unknown:
                        axes[m] = sizes[m]
            elif len(named) == 1 and rng.random() < 0.2:
                axes[named[0]] = sizes[named[0]]
        elif it[0] == "name" and rng.random() < 0.1:
            axes[it[1]] = sizes[it[1]]

    red = None
    view_rule = "einops"
    ids = list(names) + (["..."] if use_ell else [])
    if op == "rearrange":
        rng.shuffle(ids)
        right = group_items(ids, rng)
        add_units(right, rng)
    elif op == "repeat":
        new_named = [n for n in NAME_POOL if n not in names]
        rng.shuffle(new_named)
        new = []
        for _ in range(rng.choice([0, 1, 1, 2])):
            if rng.random() < 0.65 and new_named:
                n = new_named.pop()
                axes[n] = rng.choice([1, 2, 2, 3])
                new.append(n)
            else:
                new.append(str(rng.choice([2, 3])))
        ids += new
        rng.shuffle(ids)
        right = group_items(ids, rng)
        add_units(right, rng)
        view_rule = "repeat"
        # numeric tokens on the right were stored as names; fix their kind
        right = [("anon", int(it[1])) if it[0] == "name" and it[1].isdecimal() else it for it in right]
    else:
        red = rng.choice(["sum", "mean", "max", "min", "prod"])
        keep = [n for n in names if rng.random() < 0.5]
        if use_ell and rng.random() < 0.6:
            keep.append("...")
        rng.shuffle(keep)
        right = group_items(keep, rng)
        add_units(right, rng)
    arrow = rng.choice([" -> ", " -> ", "->", "  ->  "])
    pattern = render(left, rng) + arrow + render(right, rng)
    return pattern, tuple(shape), axes, red, view_rule


def random_case(op, pattern, shape, axes, red, view_rule, seed):
    def body(diags):
        rng = random.Random(seed)
        np_rng = np.random.default_rng(seed)
        vr = view_rule
        ok = True
        for dtname in ("f32", "f64", "i32"):
            if red == "mean" and dtname == "i32":
                continue
            lays = [contiguous_layout(shape)]
            lay = pick_noncontig(shape, rng)
            if lay is not None:
                lays.append(lay)
            for lay in lays:
                rule = vr
                if not run_variant(op, pattern, axes, red, dtname, lay, np_rng, rule, diags):
                    ok = False
                    if len(diags) > 12:
                        return False
        return ok
    return body


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def main():
    tests = []
    for i, entry in enumerate(HAND):
        op, pattern, shape, axes, red = entry[:5]
        extra = entry[5] if len(entry) > 5 else None
        vr = "view" if extra == "view" else "auto"
        desc = "%s %s shape=%s%s%s" % (op, short(pattern), list(shape),
                                       (" axes=%s" % short_axes(axes)) if axes else "",
                                       (" " + red) if red else "")
        if extra == "view":
            desc += " (view)"
        tests.append((desc, test_case(op, pattern, shape, axes, red, view_rule=vr, seed=1000 + i)))

    for entry in ERRORS:
        op, pattern, shape, axes, red, cats = entry
        desc = "error %s %r shape=%s%s%s -> %s" % (
            op, pattern, list(shape), (" axes=%s" % axes) if axes else "",
            (" " + red) if red else "",
            " or ".join({"P": "LT_ERR_PATTERN", "S": "LT_ERR_SHAPE"}[c] for c in cats))
        tests.append((desc, error_case(op, pattern, shape, axes, red, cats)))

    for i, (op, pattern, axes, red, spec) in enumerate(LAYOUT_CASES):
        lay = explicit_layout(**spec)
        desc = "%s %r on %s%s%s" % (op, pattern, lay.describe(),
                                    (" axes=%s" % axes) if axes else "", (" " + red) if red else "")
        tests.append((desc, test_case(op, pattern, lay.shape, axes, red, seed=3000 + i, layout=lay)))

    tests += misc_tests()

    gen = random.Random(20240611)
    counts = {"rearrange": 200, "repeat": 150, "reduce": 150}
    for op, n in counts.items():
        for k in range(n):
            pattern, shape, axes, red, vr = gen_case(gen, op)
            seed = gen.randrange(1 << 30)
            desc = "random %s %r shape=%s%s%s" % (op, pattern, list(shape),
                                                  (" axes=%s" % axes) if axes else "",
                                                  (" " + red) if red else "")
            tests.append((desc, random_case(op, pattern, shape, axes, red, vr, seed)))

    start = lt_stats_get(LT_HOST).bytes_in_use

    def no_leak(diags):
        lt_pattern_cache_clear()
        now = lt_stats_get(LT_HOST).bytes_in_use
        if now != start:
            diags.append("bytes_in_use %d at start, %d after every tensor was released" % (start, now))
            return False
        return True
    tests.append(("every tensor released: bytes_in_use back to its start value", no_leak))

    print("1..%d" % len(tests))
    sys.stdout.flush()
    failed = 0
    for k, (desc, body) in enumerate(tests, 1):
        diags = []
        try:
            ok = body(diags)
        except Exception:
            ok = False
            diags += traceback.format_exc().splitlines()
        desc = desc.replace("#", "\\#").replace("\n", "\\n").replace("\t", "\\t")
        print("%s %d - %s" % ("ok" if ok else "not ok", k, desc))
        if not ok:
            failed += 1
            for d in diags[:14]:
                print("# " + d.replace("\n", "\\n").replace("\t", "\\t"))
        sys.stdout.flush()
    lt_pattern_cache_clear()
    if failed:
        print("# %d of %d failed" % (failed, len(tests)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
