"""Picking slices along one dim (``np.take``) without NumPy's hidden copy of the source.

``np.take`` first makes its source C-contiguous: on a transposed, strided or expanded tensor
that is an uncounted copy of the whole source (266 KB for ``index_select`` on a transposed
256x256 float32), behind the allocator's back. ``take_into`` hands NumPy only contiguous
sources; any other source is read slice by slice (views, nothing copied), or in pieces of a
few rows whose only temporary is NumPy's own gathered piece, at most ``_CHUNK`` elements.
"""
from __future__ import annotations

import numpy as np

_CHUNK = 1024  # elements NumPy gathers at a time from a non-contiguous source (8 KiB in float64)


def take_into(a: np.ndarray, idx: np.ndarray, axis: int, out: np.ndarray) -> None:
    """``out[..., j, ...] = a[..., idx[j], ...]`` along ``axis``, for indices already checked
    to be in ``[0, a.shape[axis])``; ``out`` has a's shape with ``len(idx)`` at ``axis``."""
    if out.size == 0:
        return
    if a.flags.c_contiguous and out.flags.c_contiguous:
        np.take(a, idx, axis=axis, out=out, mode="clip")  # ("clip": the default mode fills
        return  # a hidden copy of out first; the indices are in range, so it never clips)
    lead = (slice(None),) * axis
    rest = out.size // idx.size  # cells of one picked slice
    if rest >= _CHUNK:  # large slices: one at a time, view to view
        for j in range(idx.size):
            np.copyto(out[lead + (j,)], a[lead + (int(idx[j]),)])
        return
    per = _CHUNK // rest
    for s in range(0, idx.size, per):
        out[lead + (slice(s, s + per),)] = a[lead + (idx[s:s + per],)]
