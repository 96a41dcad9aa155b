#!/usr/bin/env python3
"""Peer suite: safetensors files against the safetensors package.

Usage: python3 tests/peers/safetensors_peer.py path/to/libtensor.so

The safetensors package's Rust core is the format's strict reference
reader and writer (it refuses gaps, overlaps, size mismatches, bad JSON).
Every comparison is bit-exact (names, dtype names, shapes, data bytes):

- libtensor writes, the package reads: one file holding every libtensor
  dtype (bf16 and float8 included) from contiguous, transposed,
  negative-step, expanded, 0-dim and empty views, plus __metadata__;
  safetensors.deserialize must return each tensor exactly, safe_open must
  return the metadata, and safetensors.numpy.load_file the NumPy-typed
  ones.
- The package writes, libtensor reads: safetensors.serialize of every
  dtype libtensor has (random bits), and of dtypes it lacks (I8, I16, U16,
  U32, U64, F8_E8M0), which must fail lt_safetensors_get with LT_ERR_DTYPE
  while the rest of the file reads; safetensors.numpy.save_file files;
  metadata.
- Random files (fixed seed): random dtypes, shapes (0-dim and empty
  included) and counts, in both directions.
- Finally every tensor must have been released (bytes_in_use back).

Prints TAP. Skips visibly (1..0 # SKIP) when numpy or safetensors is
missing. Uses the python3 on PATH (the pyenv one, where pip installs them).
"""
import ctypes
import os
import shutil
import sys
import tempfile

try:
    import numpy as np
    import safetensors
    import safetensors.numpy
except ImportError:
    print("1..0 # SKIP numpy/safetensors not installed (pip install numpy safetensors)")
    sys.exit(0)

from ltlib import *  # noqa: F401,F403 (the enums and structs shared by the peer suites)
import ltlib

globals().update(ltlib.open_interop_library("safetensors_peer.py"))

# lt dtype -> (safetensors header name, TensorSpec name, raw NumPy dtype for the bits)
DTYPES = {
    LT_F32: ("F32", "float32", "<f4"), LT_F16: ("F16", "float16", "<f2"),
    LT_BF16: ("BF16", "bfloat16", "<u2"), LT_F8_E4M3: ("F8_E4M3", "float8_e4m3fn", "u1"),
    LT_F8_E5M2: ("F8_E5M2", "float8_e5m2", "u1"), LT_F64: ("F64", "float64", "<f8"),
    LT_I32: ("I32", "int32", "<i4"), LT_I64: ("I64", "int64", "<i8"), LT_U8: ("U8", "uint8", "u1"),
    LT_BOOL: ("BOOL", "bool", "u1"),
}
# Valid safetensors dtypes libtensor has no type for: (TensorSpec name, bytes per element).
MISSING = [("int8", 1), ("int16", 2), ("uint16", 2), ("uint32", 4), ("uint64", 8), ("float8_e8m0fnu", 1)]


class Failure(Exception):
    pass


class Arena:
    """Owns every handle a test creates; releases them all at the end."""

    def __init__(self):
        self.handles = []

    def add(self, h, what="call"):
        if not h:
            raise Failure("%s failed: %s: %s" % (what, status_name(lt_last_status()), last_error()))
        self.handles.append(h)
        return h

    def close(self):
        for h in reversed(self.handles):
            lt_release(h)
        self.handles = []


def i64arr(vals):
    vals = list(vals)
    return (ctypes.c_int64 * max(1, len(vals)))(*vals)


def random_bits(lt_dt, shape, rng):
    raw_dt = DTYPES[lt_dt][2]
    n = int(np.prod(shape, dtype=np.int64))
    if lt_dt == LT_BOOL:
        return rng.integers(0, 2, size=n, dtype=np.uint8).reshape(shape)
    size = np.dtype(raw_dt).itemsize
    return np.frombuffer(rng.integers(0, 256, size=n * size, dtype=np.uint8).tobytes(), dtype=raw_dt).reshape(shape)


def lt_tensor_of(arena, bits, lt_dt):
    c = np.array(bits, order="C")
    return arena.add(lt_from_data(c.ctypes.data, lt_dt, c.ndim, i64arr(c.shape)), "lt_from_data")


def lt_shape_of(h):
    sh = lt_shape(h)
    return tuple(sh[i] for i in range(lt_ndim(h)))


def lt_bytes(h):
    n = lt_numel(h) * {LT_F64: 8, LT_I64: 8, LT_F32: 4, LT_I32: 4, LT_F16: 2, LT_BF16: 2}.get(lt_dtype_of(h), 1)
    buf = ctypes.create_string_buffer(max(1, n))
    s = lt_read(h, buf, n)
    if s != LT_OK:
        raise Failure("lt_read: %s: %s" % (status_name(s), last_error()))
    return buf.raw[:n]


def cstrings(items):
    arr = (ctypes.c_char_p * (len(items) + 1))(*[x.encode() for x in items], None)
    return arr


def lt_save(path, named, metadata=None):
    """named: list of (name, handle)."""
    names = cstrings([n for n, _ in named])
    hs = (ctypes.c_void_p * max(1, len(named)))(*[h for _, h in named])
    meta = None
    if metadata:
        flat = []
        for k, v in metadata.items():
            flat += [k, v]
        meta = cstrings(flat)
    return lt_safetensors_save(path.encode(), len(named), names, hs, meta)


def spec(keep, dtype_name, shape, raw):
    buf = ctypes.create_string_buffer(raw, max(1, len(raw)))
    keep.append(buf)
    return safetensors.TensorSpec(dtype=dtype_name, shape=list(shape), data_ptr=ctypes.addressof(buf),
                                  data_len=len(raw))


def views(arena, t, bits):
    """(suffix, view handle, NumPy bits of the view) over a [3,4,5] base."""
    first = arena.add(lt_slice(t, 0, 0, 1, 1))
    s = arena.add(lt_select(arena.add(lt_select(arena.add(lt_select(t, 0, 2)), 0, 1)), 0, 3))
    return [("", t, bits),
            (".T", arena.add(lt_transpose(t, 0, 2)), np.swapaxes(bits, 0, 2)),
            (".rev", arena.add(lt_slice(t, 1, LT_NONE, LT_NONE, -1)), bits[:, ::-1]),
            (".exp", arena.add(lt_expand(first, 3, i64arr([3, 4, 5]))), np.broadcast_to(bits[0:1], (3, 4, 5))),
            (".scalar", s, bits[2, 1, 3, ...]),
            (".empty", arena.add(lt_slice(t, 1, 2, 2, 1)), bits[:, 2:2])]


def check_deserialized(path, expected, diags):
    """expected: name -> (header dtype, bits array). Reads with the strict reader."""
    with open(path, "rb") as f:
        got = dict(safetensors.deserialize(f.read()))
    ok = True
    if set(got) != set(expected):
        diags.append("names: got %s, want %s" % (sorted(got), sorted(expected)))
        return False
    for name, (dt, bits) in expected.items():
        g = got[name]
        want = np.array(bits, order="C").tobytes()
        if g["dtype"] != dt or list(g["shape"]) != list(bits.shape) or bytes(g["data"]) != want:
            diags.append("%s: got %s%s (%d bytes), want %s%s (%d bytes)%s" % (
                name, g["dtype"], list(g["shape"]), len(g["data"]), dt, list(bits.shape), len(want),
                " (bytes differ)" if len(g["data"]) == len(want) else ""))
            ok = False
    return ok


# ---------------------------------------------------------------------------

def lt_writes_every_dtype(tmp):
    def body(diags, notes):
        arena = Arena()
        try:
            rng = np.random.default_rng(11)
            named, expected = [], {}
            for lt_dt, (st_name, _, _) in DTYPES.items():
                bits = random_bits(lt_dt, (3, 4, 5), rng)
                t = lt_tensor_of(arena, bits, lt_dt)
                for suffix, v, vb in views(arena, t, bits):
                    name = "%s%s" % (st_name.lower(), suffix)
                    named.append((name, v))
                    expected[name] = (st_name, vb)
            meta = {"format": "pt", "written by": "libtensor", "unicode": "\u00e9\u4e2d"}
            path = os.path.join(tmp, "lt_all.safetensors")
            s = lt_save(path, named, meta)
            if s != LT_OK:
                diags.append("lt_safetensors_save: %s: %s" % (status_name(s), last_error()))
                return False
            ok = check_deserialized(path, expected, diags)
            with safetensors.safe_open(path, framework="np") as f:
                if f.metadata() != meta:
                    diags.append("metadata: got %s, want %s" % (f.metadata(), meta))
                    ok = False
            np_typed = {k: v for k, v in expected.items() if v[0] in ("F32", "F16", "F64", "I32", "I64", "U8")}
            loaded = {}
            with safetensors.safe_open(path, framework="np") as f:
                for k in np_typed:
                    loaded[k] = f.get_tensor(k)
            for k, (dt, bits) in np_typed.items():
                if loaded[k].tobytes() != np.array(bits, order="C").tobytes() or loaded[k].shape != bits.shape:
                    diags.append("%s: safe_open(np) returned different values" % k)
                    ok = False
            notes.append("%d tensors in one file" % len(named))
            return ok
        finally:
            arena.close()
    return body


def package_writes_every_dtype(tmp):
    def body(diags, notes):
        rng = np.random.default_rng(12)
        keep, specs, expected = [], {}, {}
        for lt_dt, (st_name, spec_name, _) in DTYPES.items():
            for shape in [(2, 3), (), (0, 2), (5,)]:
                bits = random_bits(lt_dt, shape, rng)
                name = "%s_%s" % (spec_name, "x".join(map(str, shape)) or "scalar")
                specs[name] = spec(keep, spec_name, shape, np.array(bits, order="C").tobytes())
                expected[name] = (lt_dt, bits)
        for spec_name, size in MISSING:
            specs["missing_" + spec_name] = spec(keep, spec_name, (3,), bytes(range(3 * size)))
        meta = {"k": "v", "empty": ""}
        path = os.path.join(tmp, "pkg_all.safetensors")
        with open(path, "wb") as f:
            f.write(safetensors.serialize(specs, meta))
        fh = lt_safetensors_open(path.encode())
        if not fh:
            diags.append("lt_safetensors_open: %s" % last_error())
            return False
        ok = True
        try:
            if lt_safetensors_count(fh) != len(specs):
                diags.append("count %d, want %d" % (lt_safetensors_count(fh), len(specs)))
                ok = False
            listed = {lt_safetensors_name(fh, i).decode() for i in range(lt_safetensors_count(fh))}
            if listed != set(specs):
                diags.append("listed names differ: %s" % sorted(listed ^ set(specs)))
                ok = False
            for k, v in meta.items():
                got = lt_safetensors_metadata(fh, k.encode())
                if got is None or got.decode() != v:
                    diags.append("metadata %r: got %r" % (k, got))
                    ok = False
            for name, (lt_dt, bits) in expected.items():
                h = lt_safetensors_get(fh, name.encode())
                if not h:
                    diags.append("%s: %s: %s" % (name, status_name(lt_last_status()), last_error()))
                    ok = False
                    continue
                try:
                    if lt_dtype_of(h) != lt_dt or lt_shape_of(h) != bits.shape or \
                            lt_bytes(h) != np.array(bits, order="C").tobytes():
                        diags.append("%s: got dtype %d shape %s, values %s" % (
                            name, lt_dtype_of(h), lt_shape_of(h),
                            "equal" if lt_bytes(h) == np.array(bits, order="C").tobytes() else "differ"))
                        ok = False
                finally:
                    lt_release(h)
            for spec_name, _ in MISSING:
                h = lt_safetensors_get(fh, ("missing_" + spec_name).encode())
                if h or lt_last_status() != LT_ERR_DTYPE:
                    diags.append("%s: %s, want LT_ERR_DTYPE" % (spec_name, status_name(lt_last_status())))
                    lt_release(h)
                    ok = False
        finally:
            lt_safetensors_close(fh)
        notes.append("%d tensors read, %d refused as dtypes libtensor lacks" % (len(expected), len(MISSING)))
        return ok
    return body


def numpy_save_file_reads(tmp):
    def body(diags, notes):
        rng = np.random.default_rng(13)
        arrays = {
            "a": rng.standard_normal((4, 5)).astype(np.float32),
            "b": rng.integers(-100, 100, size=(3,), dtype=np.int64),
            "c": np.asfortranarray(rng.standard_normal((3, 2))),
            "d": np.array(True),
        }
        lt_of = {"a": LT_F32, "b": LT_I64, "c": LT_F64, "d": LT_BOOL}
        path = os.path.join(tmp, "np_save.safetensors")
        safetensors.numpy.save_file(arrays, path, metadata={"m": "1"})
        # The reference is what the package reads back (save_file writes a
        # Fortran-ordered array's memory as it lies, not in row-major order).
        arrays = safetensors.numpy.load_file(path)
        fh = lt_safetensors_open(path.encode())
        if not fh:
            diags.append("open: %s" % last_error())
            return False
        ok = True
        try:
            for k, a in arrays.items():
                h = lt_safetensors_get(fh, k.encode())
                if not h:
                    diags.append("%s: %s" % (k, last_error()))
                    ok = False
                    continue
                want = np.array(a, order="C").tobytes()
                if lt_dtype_of(h) != lt_of[k] or lt_shape_of(h) != a.shape or lt_bytes(h) != want:
                    diags.append("%s differs" % k)
                    ok = False
                lt_release(h)
        finally:
            lt_safetensors_close(fh)
        return ok
    return body


def random_round_trips(tmp):
    def body(diags, notes):
        rng = np.random.default_rng(14)
        ok = True
        files = 0
        for trial in range(60):
            arena = Arena()
            try:
                n = int(rng.integers(0, 7))
                named, expected, keep, specs = [], {}, [], {}
                for i in range(n):
                    lt_dt = list(DTYPES)[int(rng.integers(0, len(DTYPES)))]
                    nd = int(rng.integers(0, 4))
                    shape = tuple(int(x) for x in rng.integers(0, 5, size=nd))
                    bits = random_bits(lt_dt, shape, rng)
                    name = "t%d_%d" % (trial, i)
                    named.append((name, lt_tensor_of(arena, bits, lt_dt)))
                    expected[name] = (DTYPES[lt_dt][0], bits)
                    specs[name] = spec(keep, DTYPES[lt_dt][1], shape, np.array(bits, order="C").tobytes())
                path = os.path.join(tmp, "rt.safetensors")
                s = lt_save(path, named)
                if s != LT_OK:
                    diags.append("trial %d: save: %s" % (trial, last_error()))
                    ok = False
                    continue
                ok &= check_deserialized(path, expected, diags)
                with open(path, "wb") as f:
                    f.write(safetensors.serialize(specs))
                fh = lt_safetensors_open(path.encode())
                if not fh:
                    diags.append("trial %d: open: %s" % (trial, last_error()))
                    ok = False
                    continue
                for name, (dt, bits) in expected.items():
                    h = arena.add(lt_safetensors_get(fh, name.encode()), "get " + name)
                    if lt_bytes(h) != np.array(bits, order="C").tobytes() or lt_shape_of(h) != bits.shape:
                        diags.append("trial %d: %s differs" % (trial, name))
                        ok = False
                lt_safetensors_close(fh)
                files += 2
            finally:
                arena.close()
        notes.append("%d files checked" % files)
        return ok
    return body


def main():
    tmp = tempfile.mkdtemp(prefix="lt_st_peer_")
    tests = [
        ("libtensor writes every dtype from every layout with metadata; the strict reader reads it exactly",
         lt_writes_every_dtype(tmp)),
        ("the package writes every dtype; libtensor reads it exactly and refuses dtypes it lacks",
         package_writes_every_dtype(tmp)),
        ("safetensors.numpy.save_file files load exactly as safetensors.numpy.load_file reads them",
         numpy_save_file_reads(tmp)),
        ("random files round-trip both ways (fixed seed)", random_round_trips(tmp)),
    ]
    tests.append(ltlib.leak_test(lambda: lt_stats_get(LT_HOST).bytes_in_use))
    try:
        return ltlib.run_tap(tests)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
