"""torch.searchsorted and torch.bucketize (PyTorch's Bucketization.cpp), and torch.isin
(TensorCompare.cpp): index and membership answers, no gradient.

``searchsorted(sorted_sequence, values)`` gives, for each value, the index where it would be
inserted to keep its row sorted (the first such place, or the last with ``right=True`` /
``side="right"``); a 1-D sequence serves every value, an N-D one pairs its leading dims with
the values'. ``sorter`` gives the order of an unsorted sequence. int64 indices, int32 with
``out_int32``. ``bucketize(values, boundaries)`` is the same search with its arguments the
other way round and 1-D boundaries only. With ``out=`` the answer goes into out (resized,
its dtype checked against ``out_int32``). A non-contiguous input, boundary or sorter tensor
warns once per process for each of the three, as PyTorch's TORCH_WARN_ONCE does. ``isin``
marks the elements found in test_elements (NaN is never found), bool.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes, function_parser
from ..creation import zeros
from ..tensor import Tensor
from ..tensor_new import tensor
from ..warn_once import warn_once
from .out_variants import resize_output
from .workspace import chunks

# NumPy's searches return a fresh array as long as their values: they run over pieces this
# long (4 KiB of int64), so what they hold beside the counted result stays a few KiB.
_PIECE = 512


def _as_tensor(v, like: Tensor) -> Tensor:
    """A Scalar argument as the 0-dim tensor PyTorch makes of it."""
    return v if isinstance(v, Tensor) else tensor(v, dtype=dtypes.result_type(v, like))


def _shape(t: Tensor) -> str:
    return f"[{', '.join(map(str, t._shape))}]"


def _pre_check(boundaries: Tensor, values: Tensor, out: Tensor | None, out_int32: bool,
               right: bool, side: str | None, sorter: Tensor | None) -> bool:
    """BucketizationUtils.h's searchsorted_pre_check, in its order; returns ``right``."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError("torch.searchsorted(): side can only be 'left' or 'right' but "
                               f"got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to "
                               "opposites, got side of left while right was True")
        right = side == "right"
    if sorter is not None:
        if tuple(sorter._shape) != tuple(boundaries._shape):
            raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same "
                               f"size, but got boundary tensor {_shape(boundaries)}and got "
                               f"sorter tensor {_shape(sorter)}")
        if sorter.dtype is not dtypes.int64:
            raise RuntimeError("torch.searchsorted(): sorter must be a tensor of long dtype but "
                               f"got dtype {sorter.dtype.short}")
        n = boundaries._shape[-1] if boundaries._shape else 1
        if bool((sorter < 0).any()) or bool((sorter >= n).any()):
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
    if values.dim() == 0 and boundaries.dim() != 1:
        raise RuntimeError("torch.searchsorted(): input value can be a scalar only when "
                           f"boundaries tensor dimension is 1, but we got boundaries tensor "
                           f"dim({boundaries.dim()}) and input value's dim(0) numel(1)")
    if boundaries.dim() == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    if boundaries.dim() != 1 and (boundaries.dim() != values.dim() or tuple(
            boundaries._shape[:-1]) != tuple(values._shape[:-1])):
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            "dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {_shape(boundaries)} and input value tensor {_shape(values)}")
    if out is not None and out.dtype is not (dtypes.int32 if out_int32 else dtypes.int64):
        raise RuntimeError(
            "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or "
            "Long(int64) depending on whether out_int32 flag is True, but we got output "
            f"tensor's dtype {out.dtype.short} and out_int32 flag is {bool(out_int32)}")
    return right


def _warn_non_contiguous(values: Tensor, boundaries: Tensor, sorter: Tensor | None) -> None:
    """TORCH_WARN_ONCE in searchsorted_maybe_trim_input_tensors: one flag per operand for the
    whole process, shared by searchsorted and bucketize (which calls it)."""
    for what, t in (("input value", values), ("boundary", boundaries), ("sorter", sorter)):
        if t is not None and not t.is_contiguous():
            warn_once(
                f"torch.searchsorted(): {what} tensor is non-contiguous, this will lower the "
                "performance due to extra data copy when converting non-contiguous tensor to "
                f"contiguous, please use contiguous {what} tensor if possible. This message "
                "will only appear once per program.")


def _search(boundaries: Tensor, values: Tensor, out_int32: bool, right: bool,
            side: str | None, sorter: Tensor | None, out: Tensor | None = None) -> Tensor:
    """searchsorted_out_cpu: the checks, out resized, then the search row by row (into out,
    whose version goes up by one)."""
    right = _pre_check(boundaries, values, out, out_int32, right, side, sorter)
    if out is None:
        result = zeros(values._shape, dtype=dtypes.int32 if out_int32 else dtypes.int64)
    else:
        resize_output(out, tuple(values._shape))
        result = out
    if values.numel() == 0:  # (an out= call still counts as a write: out's version goes up)
        if out is not None:
            out._vc.write(lambda: None, "searchsorted")
        return result
    _warn_non_contiguous(values, boundaries, sorter)
    if sorter is not None:  # the sequence in sorted order, in counted memory
        boundaries = boundaries.gather(-1, sorter)
    b, v = boundaries._array(), values._array()
    how = "right" if right else "left"

    def search() -> None:
        o = result._array()
        if boundaries.dim() == 1:
            _search_into(o, b, v, how)
        else:
            for row in np.ndindex(*v.shape[:-1]):
                _search_into(o[row], b[row], v[row], how)
    if out is None:
        search()
    else:
        out._vc.write(search, "searchsorted")
    return result


def _search_into(o: np.ndarray, seq: np.ndarray, v: np.ndarray, how: str) -> None:
    for piece in chunks(v.shape, _PIECE):
        o[piece] = np.searchsorted(seq, v[piece], side=how)


def searchsorted(*args, **kwargs) -> Tensor:
    """torch.searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None,
    sorter=None)."""
    _, v = function_parser.parse("searchsorted", args, kwargs)
    seq = v["sorted_sequence"]
    values = v["input"] if "input" in v else _as_tensor(v["self"], seq)
    return _search(seq, values, bool(v.get("out_int32")), bool(v.get("right")), v.get("side"),
                   v.get("sorter"), v.get("out"))


def bucketize(*args, **kwargs) -> Tensor:
    """torch.bucketize(input, boundaries, *, out_int32=False, right=False)."""
    _, v = function_parser.parse("bucketize", args, kwargs)
    boundaries = v["boundaries"]
    values = v["input"] if "input" in v else _as_tensor(v["self"], boundaries)
    if boundaries.dim() != 1:
        raise RuntimeError("boundaries tensor must be 1 dimension, but got "
                           f"dim({boundaries.dim()})")
    return _search(boundaries, values, bool(v.get("out_int32")), bool(v.get("right")), None,
                   None, v.get("out"))


def isin(*args, **kwargs) -> Tensor:
    """torch.isin(elements, test_elements, *, assume_unique=False, invert=False)."""
    _, v = function_parser.parse("isin", args, kwargs)
    elements, tests = v.get("elements", v.get("element")), v.get("test_elements",
                                                                   v.get("test_element"))
    like = elements if isinstance(elements, Tensor) else tests
    elements, tests = _as_tensor(elements, like), _as_tensor(tests, like)
    for t in (elements, tests):
        if t.dtype is dtypes.bool_:
            raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    out = zeros(elements._shape, dtype=dtypes.bool_)
    invert = bool(v.get("invert"))
    if tests.numel() == 0:
        out._array()[...] = invert
        return out
    # Both sides in their common dtype, the test elements sorted (counted copies); each
    # element is found by a binary search and compared with what it lands on (NaN never
    # equals anything, so it is never found).
    common = dtypes.promote_types(elements.dtype, tests.dtype)
    found = tests.to(common).flatten().sort()[0]._array()
    e, o, last = elements.to(common)._array(), out._array(), found.shape[0] - 1
    for piece in chunks(e.shape, _PIECE):
        values = e[piece]
        hit = found[np.minimum(np.searchsorted(found, values), last)]
        o[piece] = (hit != values) if invert else (hit == values)
    return out


__all__ = ["bucketize", "isin", "searchsorted"]
