#!/usr/bin/env python3
"""Writes the seed files of the npy and safetensors fuzz targets with the
format's reference writers: NumPy's np.save / np.lib.format.write_array and
the safetensors package's serialize. The Check suites (test_npy.c,
test_safetensors.c) also load these files and assert their exact values,
so what this script writes is part of their specification: change both
together.

Usage: python3 tests/fuzz/gen_corpus.py   (pyenv python3 with numpy and
safetensors installed; rewrites tests/fuzz/corpus_npy and
tests/fuzz/corpus_safetensors)
"""
import ctypes
import os

import numpy as np
import safetensors

HERE = os.path.dirname(os.path.abspath(__file__))
NPY = os.path.join(HERE, "corpus_npy")
ST = os.path.join(HERE, "corpus_safetensors")


def npy(name, array, version=None):
    with open(os.path.join(NPY, name), "wb") as f:
        np.lib.format.write_array(f, array, version=version)


def write_npy_seeds():
    npy("f4_2x3.npy", np.arange(6, dtype="<f4").reshape(2, 3) * np.float32(0.5) - np.float32(1))
    npy("f8_be_4.npy", np.array([1.5, -2.25, 1e300, 5e-324], dtype=">f8"))
    npy("f2_3.npy", np.array([1, -0.5, 65504], dtype="<f2"))
    npy("i4_fortran_2x3x4.npy", np.asfortranarray(np.arange(24, dtype="<i4").reshape(2, 3, 4)))
    npy("i8_be_scalar.npy", np.array(-5, dtype=">i8"))
    npy("u1_5.npy", np.array([0, 1, 127, 128, 255], dtype="|u1"))
    npy("b1_4.npy", np.array([True, False, False, True]))
    npy("f4_v2_0x3.npy", np.zeros((0, 3), dtype="<f4"), version=(2, 0))
    npy("f4_v3_2.npy", np.array([3.5, -7], dtype="<f4"), version=(3, 0))
    npy("i4_be_fortran_3x2.npy", np.asfortranarray(np.array([[1, -2], [3, -4], [5, -6]], dtype=">i4")))
    npy("i2_unsupported.npy", np.array([1, 2], dtype="<i2"))


def spec(dtype, shape, raw, keep):
    buf = ctypes.create_string_buffer(raw, len(raw))
    keep.append(buf)
    return safetensors.TensorSpec(dtype=dtype, shape=shape, data_ptr=ctypes.addressof(buf), data_len=len(raw))


def write_safetensors_seeds():
    keep = []
    mixed = {
        "weight": spec("float32", [2, 3], (np.arange(6, dtype="<f4") - 2).tobytes(), keep),
        "bias": spec("bfloat16", [4], bytes([0x80, 0x3F, 0x00, 0xC0, 0x80, 0x7F, 0x01, 0x00]), keep),
        "scale": spec("float8_e4m3fn", [3], bytes([0x38, 0xB8, 0x7E]), keep),
        "mask": spec("bool", [2], bytes([1, 0]), keep),
        "steps": spec("int16", [2], np.array([7, -7], dtype="<i2").tobytes(), keep),
        "empty": spec("float64", [0, 4], b"", keep),
        "count": spec("int64", [], np.array([-3], dtype="<i8").tobytes(), keep),
    }
    with open(os.path.join(ST, "mixed.safetensors"), "wb") as f:
        f.write(safetensors.serialize(mixed, {"format": "pt", "source": "gen_corpus.py"}))
    one = {"x": spec("float16", [2, 2], np.array([1, 2, -0.5, 65504], dtype="<f2").tobytes(), keep)}
    with open(os.path.join(ST, "f16_2x2.safetensors"), "wb") as f:
        f.write(safetensors.serialize(one))


if __name__ == "__main__":
    write_npy_seeds()
    write_safetensors_seeds()
