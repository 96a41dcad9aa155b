"""libtensor through ctypes, shared by the peer suites: the enums, the
public structs, open_library(), which loads the shared library named
on the command line and declares the functions the suites call, and the
TAP runner the suites print their results with."""

import ctypes
import sys
import traceback

LT_F32, LT_F16, LT_BF16, LT_F8_E4M3, LT_F8_E5M2, LT_F64, LT_I32, LT_I64, LT_U8, LT_BOOL = range(10)
LT_SUM, LT_MEAN, LT_MAX, LT_MIN, LT_PROD = range(5)
LT_CAST_DEFAULT, LT_CAST_SATURATE = 0, 1
(LT_OK, LT_ERR_ARG, LT_ERR_SHAPE, LT_ERR_NOT_VIEWABLE, LT_ERR_PATTERN, LT_ERR_DTYPE,
 LT_ERR_DEVICE, LT_ERR_NOMEM, LT_ERR_IO, LT_ERR_OVERLAP) = range(10)
STATUS_NAMES = ["LT_OK", "LT_ERR_ARG", "LT_ERR_SHAPE", "LT_ERR_NOT_VIEWABLE", "LT_ERR_PATTERN",
                "LT_ERR_DTYPE", "LT_ERR_DEVICE", "LT_ERR_NOMEM", "LT_ERR_IO", "LT_ERR_OVERLAP"]
LT_NONE = -(2 ** 63)


class LtAxis(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("size", ctypes.c_int64)]


class LtStats(ctypes.Structure):
    _fields_ = [(n, ctypes.c_int64) for n in
                ("bytes_in_use", "peak_bytes", "allocs", "copies", "implicit_copies",
                 "bytes_copied", "flops")]


class LtDevice(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("index", ctypes.c_int)]


LT_HOST = LtDevice(0, 0)
P = ctypes.c_void_p
I64 = ctypes.c_int64
I64P = ctypes.POINTER(ctypes.c_int64)
AXP = ctypes.POINTER(LtAxis)
INT = ctypes.c_int

# name -> (restype, argtypes)
SIGNATURES = {
    "lt_from_data": (P, [P, INT, INT, I64P]),
    "lt_empty": (P, [INT, INT, I64P, LtDevice]),
    "lt_release": (None, [P]),
    "lt_read": (INT, [P, P, ctypes.c_size_t]),
    "lt_ndim": (INT, [P]),
    "lt_shape": (I64P, [P]),
    "lt_numel": (I64, [P]),
    "lt_dtype_of": (INT, [P]),
    "lt_is_contiguous": (ctypes.c_bool, [P]),
    "lt_shares_storage": (ctypes.c_bool, [P, P]),
    "lt_transpose": (P, [P, INT, INT]),
    "lt_slice": (P, [P, INT, I64, I64, I64]),
    "lt_expand": (P, [P, INT, I64P]),
    "lt_permute": (P, [P, ctypes.POINTER(INT)]),
    "lt_cast": (P, [P, INT, INT]),
    "lt_to": (P, [P, INT]),
    "lt_copy": (INT, [P, P]),
    "lt_rearrange": (P, [P, ctypes.c_char_p, AXP, INT]),
    "lt_repeat": (P, [P, ctypes.c_char_p, AXP, INT]),
    "lt_reduce": (P, [P, ctypes.c_char_p, INT, AXP, INT]),
    "lt_last_status": (INT, []),
    "lt_last_error": (ctypes.c_char_p, []),
    "lt_stats_get": (LtStats, [LtDevice]),
    "lt_stats_reset": (None, [LtDevice]),
    "lt_pattern_cache_clear": (None, []),
}


def open_library(script):
    """Loads sys.argv[1] (bailing out in TAP's way if it cannot) and returns
    the declared functions plus status_name() and last_error(), for the
    caller's globals()."""
    if len(sys.argv) != 2:
        print("Bail out! usage: %s path/to/libtensor.so" % script)
        sys.exit(2)
    try:
        lib = ctypes.CDLL(sys.argv[1])
    except OSError as e:
        print("Bail out! cannot load %s: %s" % (sys.argv[1], e))
        sys.exit(2)
    funcs = {}
    for name, (restype, argtypes) in SIGNATURES.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = restype, argtypes
        funcs[name] = f

    def status_name(s):
        return STATUS_NAMES[s] if 0 <= s < len(STATUS_NAMES) else "status %d" % s

    def last_error():
        m = funcs["lt_last_error"]()
        return m.decode("utf-8", "replace") if m is not None else "<NULL>"

    funcs.update(status_name=status_name, last_error=last_error)
    return funcs


def open_interop_library(script):
    """open_library() plus the interop functions (DLPack, safetensors, .npy)
    and the few tensor functions the interop suites also need."""
    funcs = open_library(script)
    lib = ctypes.CDLL(sys.argv[1])
    cp = ctypes.c_char_p
    cpp = ctypes.POINTER(ctypes.c_char_p)
    signatures = {
        "lt_save_npy": (INT, [cp, P]),
        "lt_load_npy": (P, [cp]),
        "lt_safetensors_save": (INT, [cp, INT, cpp, ctypes.POINTER(P), cpp]),
        "lt_safetensors_open": (P, [cp]),
        "lt_safetensors_count": (INT, [P]),
        "lt_safetensors_name": (cp, [P, INT]),
        "lt_safetensors_metadata": (cp, [P, cp]),
        "lt_safetensors_get": (P, [P, cp]),
        "lt_safetensors_close": (None, [P]),
        "lt_to_dlpack": (P, [P]),
        "lt_from_dlpack": (P, [P]),
        "lt_data": (P, [P]),
        "lt_strides": (I64P, [P]),
        "lt_write": (INT, [P, P, ctypes.c_size_t]),
        "lt_select": (P, [P, INT, I64]),
        "lt_zeros": (P, [INT, INT, I64P, LtDevice]),
    }
    for name, (restype, argtypes) in signatures.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = restype, argtypes
        funcs[name] = f
    return funcs


def leak_test(bytes_in_use):
    """A test, to append last, that passes when bytes_in_use() is back at
    the value it has now: every tensor the suite made was released."""
    start = bytes_in_use()

    def body(diags, notes):
        now = bytes_in_use()
        if now != start:
            diags.append("bytes_in_use %d at start, %d after every tensor was released" % (start, now))
            return False
        return True
    return ("every tensor released: bytes_in_use back to its start value", body)


def run_tap(tests):
    """Runs tests, a list of (description, body(diags, notes) -> bool), and
    prints TAP: diags under a failure, notes always. Returns the exit status."""
    def clean(text):
        return text.replace("\n", "\\n").replace("\t", "\\t")
    print("1..%d" % len(tests))
    sys.stdout.flush()
    failed = 0
    for k, (desc, body) in enumerate(tests, 1):
        diags, notes = [], []
        try:
            ok = body(diags, notes)
        except Exception:
            ok = False
            diags += traceback.format_exc().splitlines()
        print("%s %d - %s" % ("ok" if ok else "not ok", k, clean(desc.replace("#", "\\#"))))
        for d in notes:
            print("# note: " + clean(d))
        if not ok:
            failed += 1
            for d in diags[:30]:
                print("# " + clean(d))
        sys.stdout.flush()
    if failed:
        print("# %d of %d failed" % (failed, len(tests)))
    return 1 if failed else 0
