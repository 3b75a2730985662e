"""LAPACK's gesdd called directly, with every buffer it needs taken from the allocator.

PyTorch's CPU SVD (``apply_svd`` in BatchLinearAlgebraKernel.cpp) copies A column-major,
asks gesdd how much workspace it wants (``lwork = -1``), allocates it and the integer
workspace through its allocator, and lets LAPACK write U and Vh straight into the outputs
(column-major, which is why U.stride() is (1, m)). NumPy's ``svd`` wrapper does the same
with buffers of its own, outside the count (on NumPy 2.5+, 81-91 KB where tracemalloc sees
them). Here the copy of A, ``work`` and ``iwork`` are counted storages, and U, S and Vh are
the outputs' own cells, so an SVD allocates nothing the allocator does not see.

The routine is the one NumPy's ``_umath_linalg`` links (its OpenBLAS exports it as
``scipy_dgesdd_64_``, 64-bit integers, in NumPy's wheels); the same routine with the same
arguments, so the results are NumPy's bit for bit. A NumPy built against a LAPACK without
such a symbol has ``GESDD = None``, and ops/svd.py falls back to NumPy's wrapper.
"""
from __future__ import annotations

import ctypes

import numpy as np
from numpy.linalg import _umath_linalg

from ..storage import UntypedStorage


def _find() -> tuple | None:
    """(dgesdd, sgesdd, the Fortran integer type) from the LAPACK NumPy links, or None."""
    try:
        lib = ctypes.CDLL(_umath_linalg.__file__)  # its dependencies' symbols resolve too
    except OSError:
        return None
    for prefix, suffix, integer in (("scipy_", "_64_", ctypes.c_int64),
                                    ("", "_64_", ctypes.c_int64), ("", "_", ctypes.c_int32)):
        try:
            d = getattr(lib, f"{prefix}dgesdd{suffix}")
            s = getattr(lib, f"{prefix}sgesdd{suffix}")
        except AttributeError:
            continue
        for f in (d, s):
            f.restype = None
        return {np.dtype(np.float64): d, np.dtype(np.float32): s}, integer
    return None


GESDD = _find()


def _ptr(a: np.ndarray) -> ctypes.c_void_p:
    return ctypes.c_void_p(a.ctypes.data)


_BLOCK_BYTES = 32 * 1024  # column-major copies of A made per block of matrices (at least one)


def _matrices(a: np.ndarray, count: int) -> np.ndarray | None:
    """``a``'s matrices as one (count, r, c) view, or None where its batch dims can't be
    merged without a copy."""
    try:
        return np.reshape(a, (count, *a.shape[-2:]), copy=False)
    except ValueError:
        return None


def gesdd(A: np.ndarray, S: np.ndarray, U: np.ndarray | None, Vh: np.ndarray | None,
          full_matrices: bool, op: str) -> list[int]:
    """Every matrix of ``A`` (..., m, n) decomposed into the caller's ``S`` (..., k), ``U``
    (..., m, m or k) and ``Vh`` (..., n or k, n), fresh outputs whose matrices lie one after
    another, each matrix of U and Vh column-major (as ops/svd.py allocates them). Returns
    LAPACK's info per matrix (0: done; -4: a NaN in A).

    A batch is copied column-major a block of matrices at a time (about 32 KiB, counted), and
    each matrix's cells are handed to LAPACK by address: for 1000 small matrices the Python
    work per matrix is one call."""
    routines, integer = GESDD  # type: ignore[misc]
    fn = routines[A.dtype]
    *batch, m, n = A.shape
    k, count, item = min(m, n), int(np.prod(batch, dtype=np.int64)), A.dtype.itemsize
    vc = n if full_matrices else k
    jobz = ctypes.c_char(b"A" if full_matrices else b"S")
    M, N, LDA, LDU, LDVT = (integer(v) for v in (m, n, max(1, m), max(1, m), max(1, vc)))
    info = integer(0)
    flat = _matrices(A, count)
    block = max(1, min(count, _BLOCK_BYTES // (m * n * item))) if flat is not None else 1
    # the column-major copies gesdd overwrites, one matrix after another
    a_store = UntypedStorage(block * m * n, A.dtype, f"{op} (A, column-major)")
    a_cm = a_store._array.reshape(block, n, m).transpose(0, 2, 1)
    iwork_store = UntypedStorage(8 * k, np.dtype(np.int64 if integer is ctypes.c_int64
                                                  else np.int32), f"{op} (iwork)")
    iwork = iwork_store._array
    # the workspace query: lwork = -1 asks for the optimal size, returned in work[0]
    size = (ctypes.c_double if A.dtype == np.float64 else ctypes.c_float)(0)
    head = (ctypes.byref(jobz), ctypes.byref(M), ctypes.byref(N))
    lda, ldu, ldvt = ctypes.byref(LDA), ctypes.byref(LDU), ctypes.byref(LDVT)
    fn(*head, _ptr(a_cm), lda, _ptr(S), _ptr(U), ldu, _ptr(Vh), ldvt, ctypes.byref(size),
       ctypes.byref(integer(-1)), _ptr(iwork), ctypes.byref(info), ctypes.c_size_t(1))
    lwork = max(1, int(size.value))
    work_store = UntypedStorage(lwork, A.dtype, f"{op} (work)")
    work = work_store._array
    tail = (_ptr(work), ctypes.byref(integer(lwork)), _ptr(iwork), ctypes.byref(info),
            ctypes.c_size_t(1))
    # each matrix's cells by address (the outputs' matrices lie one after another): one
    # argument tuple, its four pointers moved along from call to call
    a0, s0, u0, v0 = (x.ctypes.data for x in (a_cm, S, U, Vh))
    a_step, u_step, v_step = m * n * item, m * (m if full_matrices else k) * item, vc * n * item
    pa, ps, pu, pv = (ctypes.c_void_p(0) for _ in range(4))
    args = (*head, pa, lda, ps, pu, ldu, pv, ldvt, *tail)
    infos = []
    for first in range(0, count, block):
        b = min(block, count - first)
        if flat is not None:
            np.copyto(a_cm[:b], flat[first:first + b])
        else:  # batch dims that don't merge: matrix by matrix
            np.copyto(a_cm[0], A[np.unravel_index(first, batch)])
        for j in range(b):
            i = first + j
            pa.value, ps.value = a0 + j * a_step, s0 + i * k * item
            pu.value, pv.value = u0 + i * u_step, v0 + i * v_step
            fn(*args)
            infos.append(info.value)
    return infos
