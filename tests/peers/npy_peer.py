#!/usr/bin/env python3
"""Peer suite: .npy files and DLPack hand-over against NumPy.

Usage: python3 tests/peers/npy_peer.py path/to/libtensor.so

NumPy is the specification of the .npy format and the most common DLPack
partner. Every comparison is bit-exact (bytes, dtype, shape):

- libtensor writes, NumPy reads: each of the seven dtypes NumPy can name
  (<f4 <f2 <f8 <i4 <i8 |u1 |b1), from contiguous, transposed,
  negative-step, stepped, expanded (stride 0), selected, 0-dim and empty
  views, with random bit patterns (NaN payloads, subnormals, infinities
  included); np.load(allow_pickle=False) must give the same array, and the
  file must be format 1.0.
- NumPy writes, libtensor reads: the same dtypes in C and Fortran order,
  little- and big-endian, format versions 1.0, 2.0 and 3.0, over 0-dim,
  empty, 1-d and 3-d shapes; Fortran files must load with column-major
  strides.
- bf16 and float8 saves fail with LT_ERR_DTYPE.
- DLPack: NumPy arrays (contiguous, transposed, negative-step) taken with
  lt_from_dlpack share NumPy's memory, and NumPy's reference is dropped
  exactly when the last libtensor reference goes; libtensor tensors handed
  to np.from_dlpack (including negative and zero strides) are read in place
  and freed when NumPy lets go. bool, which dlpack.h 0.6 cannot name, is
  refused with LT_ERR_DTYPE (the capsule stays NumPy's) in builds against
  it, and imported in builds against 0.8 or newer.
- Finally every tensor must have been released (bytes_in_use back).

Prints TAP. Skips visibly (1..0 # SKIP) when numpy is missing. Uses the
python3 on PATH (the pyenv one, where pip installs numpy).
"""
import ctypes
import gc
import os
import shutil
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("1..0 # SKIP numpy not installed (pip install numpy)")
    sys.exit(0)

from ltlib import *  # noqa: F401,F403 (the enums and structs shared by the peer suites)
import ltlib

globals().update(ltlib.open_interop_library("npy_peer.py"))

# name -> (lt dtype, little-endian NumPy dtype)
DTYPES = {
    "f32": (LT_F32, "<f4"), "f16": (LT_F16, "<f2"), "f64": (LT_F64, "<f8"), "i32": (LT_I32, "<i4"),
    "i64": (LT_I64, "<i8"), "u8": (LT_U8, "|u1"), "bool": (LT_BOOL, "|b1"),
}


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


def random_array(dt, shape, rng):
    """Random bits of dtype dt (bool: 0/1)."""
    n = int(np.prod(shape, dtype=np.int64))
    if dt == "|b1":
        return (rng.integers(0, 2, size=n) == 1).reshape(shape)
    size = np.dtype(dt).itemsize
    raw = rng.integers(0, 256, size=n * size, dtype=np.uint8)
    return np.frombuffer(raw.tobytes(), dtype=dt).reshape(shape).copy()


def lt_from_numpy(arena, a, lt_dt):
    c = np.ascontiguousarray(a)
    return arena.add(lt_from_data(c.ctypes.data, lt_dt, c.ndim, i64arr(c.shape)), "lt_from_data")


def lt_bytes(h, nbytes):
    buf = ctypes.create_string_buffer(max(1, nbytes))
    s = lt_read(h, buf, nbytes)
    if s != LT_OK:
        raise Failure("lt_read: %s: %s" % (status_name(s), last_error()))
    return buf.raw[:nbytes]


def lt_shape_of(h):
    n = lt_ndim(h)
    sh = lt_shape(h)
    return tuple(sh[i] for i in range(n))


def lt_strides_of(h):
    n = lt_ndim(h)
    st = lt_strides(h)
    return tuple(st[i] for i in range(n))


def views(arena, t, a):
    """(name, libtensor view, NumPy view) pairs over a [3,4,5] base."""
    out = [("contiguous", t, a),
           ("transposed", arena.add(lt_transpose(t, 0, 2)), np.swapaxes(a, 0, 2)),
           ("negative step", arena.add(lt_slice(t, 1, LT_NONE, LT_NONE, -1)), a[:, ::-1]),
           ("stepped", arena.add(lt_slice(t, 2, 1, LT_NONE, 2)), a[:, :, 1::2]),
           ("selected", arena.add(lt_select(t, 0, 1)), a[1]),
           ("empty", arena.add(lt_slice(t, 1, 2, 2, 1)), a[:, 2:2])]
    first = arena.add(lt_slice(t, 0, 0, 1, 1))
    out.append(("expanded", arena.add(lt_expand(first, 3, i64arr([3, 4, 5]))), np.broadcast_to(a[0:1], (3, 4, 5))))
    s = arena.add(lt_select(arena.add(lt_select(arena.add(lt_select(t, 0, 2)), 0, 1)), 0, 3))
    out.append(("0-dim", s, a[2, 1, 3, ...]))
    return out


def same(got, want, what, diags):
    if got.dtype != want.dtype or got.shape != want.shape or got.tobytes() != want.tobytes():
        diags.append("%s: got %s%s, want %s%s%s" % (what, got.dtype.str, got.shape, want.dtype.str, want.shape,
                                                   "" if got.shape != want.shape else " (bytes differ)"))
        return False
    return True


# ---------------------------------------------------------------------------
# .npy: libtensor writes, NumPy reads
# ---------------------------------------------------------------------------

def lt_writes(name, tmp):
    lt_dt, np_dt = DTYPES[name]

    def body(diags, notes):
        arena = Arena()
        try:
            rng = np.random.default_rng(1000 + lt_dt)
            a = random_array(np_dt, (3, 4, 5), rng)
            t = lt_from_numpy(arena, a, lt_dt)
            ok = True
            for vname, v, want in views(arena, t, a):
                path = os.path.join(tmp, "lt_%s.npy" % name)
                s = lt_save_npy(path.encode(), v)
                if s != LT_OK:
                    diags.append("%s: lt_save_npy: %s: %s" % (vname, status_name(s), last_error()))
                    ok = False
                    continue
                with open(path, "rb") as f:
                    version = np.lib.format.read_magic(f)
                got = np.load(path, allow_pickle=False)
                if version != (1, 0):
                    diags.append("%s: format %s, want (1, 0)" % (vname, version))
                    ok = False
                ok &= same(got, np.array(want, order="C"), vname, diags)
            return ok
        finally:
            arena.close()
    return body


# ---------------------------------------------------------------------------
# .npy: NumPy writes, libtensor reads
# ---------------------------------------------------------------------------

def numpy_writes(name, tmp):
    lt_dt, np_dt = DTYPES[name]

    def body(diags, notes):
        rng = np.random.default_rng(2000 + lt_dt)
        ok = True
        count = 0
        for shape in [(), (0, 3), (7,), (3, 4, 5)]:
            base = random_array(np_dt, shape, rng)
            for order in "CF":
                for endian in "<>":
                    for version in [(1, 0), (2, 0), (3, 0)]:
                        a = base.astype(np.dtype(np_dt).newbyteorder(endian) if np_dt[0] != "|" else np_dt)
                        a = np.array(a, order=order)  # keeps 0-dim arrays 0-dim
                        path = os.path.join(tmp, "np_%s.npy" % name)
                        with open(path, "wb") as f:
                            np.lib.format.write_array(f, a, version=version)
                        what = "%s %s order %s-endian v%d.%d" % (shape, order, endian, *version)
                        h = lt_load_npy(path.encode())
                        if not h:
                            diags.append("%s: lt_load_npy: %s: %s" % (what, status_name(lt_last_status()),
                                                                      last_error()))
                            ok = False
                            continue
                        try:
                            count += 1
                            want = np.array(base, order="C")
                            if lt_dtype_of(h) != lt_dt or lt_shape_of(h) != shape:
                                diags.append("%s: dtype %d shape %s" % (what, lt_dtype_of(h), lt_shape_of(h)))
                                ok = False
                                continue
                            got = np.frombuffer(lt_bytes(h, want.nbytes), dtype=np_dt).reshape(shape)
                            ok &= same(got, want, what, diags)
                            # NumPy writes fortran_order only for arrays that are not also C-contiguous.
                            if a.flags.f_contiguous and not a.flags.c_contiguous:
                                colmajor, s = [], 1
                                for d in shape:
                                    colmajor.append(s)
                                    s *= max(d, 1)
                                if lt_strides_of(h) != tuple(colmajor):
                                    diags.append("%s: strides %s, want column-major %s"
                                                 % (what, lt_strides_of(h), tuple(colmajor)))
                                    ok = False
                        finally:
                            lt_release(h)
        notes.append("%d NumPy-written files loaded" % count)
        return ok
    return body


def narrow_saves_refused(tmp):
    def body(diags, notes):
        ok = True
        for dt in (LT_BF16, LT_F8_E4M3, LT_F8_E5M2):
            h = lt_zeros(dt, 1, i64arr([2]), LT_HOST)
            path = os.path.join(tmp, "narrow.npy")
            s = lt_save_npy(path.encode(), h)
            lt_release(h)
            if s != LT_ERR_DTYPE or os.path.exists(path):
                diags.append("dtype %d: %s (file left: %s)" % (dt, status_name(s), os.path.exists(path)))
                ok = False
        return ok
    return body


# ---------------------------------------------------------------------------
# DLPack
# ---------------------------------------------------------------------------

class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", DELETER)]

api = ctypes.pythonapi
api.PyCapsule_GetPointer.restype = ctypes.c_void_p
api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_SetName.restype = ctypes.c_int
api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_IsValid.restype = ctypes.c_int
api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_New.restype = ctypes.py_object
api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


@CAPSULE_DESTRUCTOR
def unconsumed_capsule(capsule):
    # The protocol: a capsule still named "dltensor" was never consumed, so
    # its destructor runs the producer's deleter.
    cap = ctypes.cast(capsule, ctypes.py_object)
    if api.PyCapsule_IsValid(cap, b"dltensor"):
        m = ctypes.cast(api.PyCapsule_GetPointer(cap, b"dltensor"), ctypes.POINTER(DLManagedTensor))
        m.contents.deleter(m)


class Exported:
    """What np.from_dlpack asks for: __dlpack__ and __dlpack_device__."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


def numpy_to_lt():
    def body(diags, notes):
        ok = True
        rng = np.random.default_rng(7)
        for name in ("f32", "f16", "f64", "i32", "i64", "u8"):
            lt_dt, np_dt = DTYPES[name]
            base = random_array(np_dt, (4, 6), rng)
            for vname, a in (("contiguous", base), ("transposed", base.T), ("negative step", base[:, ::-2])):
                what = "%s %s" % (name, vname)
                refs = sys.getrefcount(a)
                cap = a.__dlpack__()
                h = lt_from_dlpack(api.PyCapsule_GetPointer(cap, b"dltensor"))
                if not h:
                    diags.append("%s: %s: %s" % (what, status_name(lt_last_status()), last_error()))
                    ok = False
                    continue
                api.PyCapsule_SetName(cap, b"used_dltensor")
                del cap
                want = np.array(a, order="C")
                got = np.frombuffer(lt_bytes(h, want.nbytes), dtype=np_dt).reshape(a.shape)
                ok &= same(got, want, what, diags)
                if lt_data(h) != a.ctypes.data:
                    diags.append("%s: lt_data %#x is not NumPy's %#x (a copy?)" % (what, lt_data(h), a.ctypes.data))
                    ok = False
                new = np.ascontiguousarray(random_array(np_dt, a.shape, rng))
                lt_write(h, new.ctypes.data, new.nbytes)
                ok &= same(np.ascontiguousarray(a), new, what + " after lt_write (shared memory)", diags)
                lt_release(h)
                gc.collect()
                if sys.getrefcount(a) != refs:
                    diags.append("%s: the array's refcount is %d after the last release, want %d (deleter not "
                                 "run?)" % (what, sys.getrefcount(a), refs))
                    ok = False
        # bool needs kDLBool (dlpack.h 0.8+); whether this build has it shows in lt_to_dlpack.
        probe = lt_zeros(LT_BOOL, 1, i64arr([1]), LT_HOST)
        m = lt_to_dlpack(probe)
        lt_release(probe)
        if m:
            ctypes.cast(m, ctypes.POINTER(DLManagedTensor)).contents.deleter(ctypes.cast(m, ctypes.POINTER(DLManagedTensor)))
        b = np.array([True, False, True])
        try:
            cap = b.__dlpack__()
        except BufferError:
            notes.append("NumPy %s does not export bool through DLPack" % np.__version__)
            return ok
        h = lt_from_dlpack(api.PyCapsule_GetPointer(cap, b"dltensor"))
        if h:
            api.PyCapsule_SetName(cap, b"used_dltensor")
            ok &= m is not None and same(np.frombuffer(lt_bytes(h, 3), dtype="|b1"), b, "bool", diags)
            lt_release(h)
        elif m or lt_last_status() != LT_ERR_DTYPE:
            diags.append("bool: %s, want LT_ERR_DTYPE (this build's dlpack.h has no kDLBool)"
                         % status_name(lt_last_status()))
            ok = False
        notes.append("bool through DLPack: %s" % ("imported" if m else "refused, as this build's dlpack.h has "
                                                 "no kDLBool"))
        return ok
    return body


def lt_to_numpy():
    def body(diags, notes):
        ok = True
        start = lt_stats_get(LT_HOST).bytes_in_use
        rng = np.random.default_rng(8)
        for name in ("f32", "f16", "f64", "i32", "i64", "u8"):
            lt_dt, np_dt = DTYPES[name]
            arena = Arena()
            try:
                a = random_array(np_dt, (3, 4, 5), rng)
                t = lt_from_numpy(arena, a, lt_dt)
                for vname, v, want in views(arena, t, a):
                    what = "%s %s" % (name, vname)
                    m = lt_to_dlpack(v)
                    if not m:
                        diags.append("%s: lt_to_dlpack: %s" % (what, last_error()))
                        ok = False
                        continue
                    got = np.from_dlpack(Exported(api.PyCapsule_New(m, b"dltensor",
                                                                    ctypes.cast(unconsumed_capsule, ctypes.c_void_p))))
                    ok &= same(got, want, what, diags)
                    if want.size > 0 and got.ctypes.data != lt_data(v):
                        diags.append("%s: NumPy's data %#x is not lt_data %#x" % (what, got.ctypes.data, lt_data(v)))
                        ok = False
                    del got
            finally:
                arena.close()
        gc.collect()
        if lt_stats_get(LT_HOST).bytes_in_use != start:
            diags.append("bytes_in_use %d after NumPy dropped every array, want %d"
                         % (lt_stats_get(LT_HOST).bytes_in_use, start))
            ok = False
        return ok
    return body


def main():
    tmp = tempfile.mkdtemp(prefix="lt_npy_peer_")
    tests = []
    for name in DTYPES:
        tests.append(("libtensor writes %s (every layout), NumPy reads it exactly" % name, lt_writes(name, tmp)))
    for name in DTYPES:
        tests.append(("NumPy writes %s (C/F order, both byte orders, v1-v3), libtensor reads it exactly" % name,
                      numpy_writes(name, tmp)))
    tests.append(("bf16 and float8 saves fail with LT_ERR_DTYPE and leave no file", narrow_saves_refused(tmp)))
    tests.append(("DLPack: NumPy arrays into libtensor without copies; NumPy's deleter runs on the last release",
                  numpy_to_lt()))
    tests.append(("DLPack: libtensor views into np.from_dlpack in place; storage freed when NumPy lets go",
                  lt_to_numpy()))

    tests.append(ltlib.leak_test(lambda: lt_stats_get(LT_HOST).bytes_in_use))
    try:
        return ltlib.run_tap(tests)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
