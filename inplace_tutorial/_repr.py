"""PyTorch's tensor repr: same number formats, alignment, summarisation and suffixes."""
from __future__ import annotations

import math

import numpy as np

from . import dtypes

_THRESHOLD, _EDGE = 1000, 3


def _formatter(values: np.ndarray, dtype):
    if dtype is dtypes.bool_:
        return lambda v: str(bool(v))
    if dtype.category == 1:
        return lambda v: str(int(v))
    finite = values[np.isfinite(values)] if values.size else values
    nonzero = np.abs(finite[finite != 0]) if finite.size else finite
    if finite.size and np.all(finite == np.round(finite)):
        if nonzero.size and nonzero.max() > 1e8:
            return lambda v: _fmt_float(v, "{:.4e}")
        return lambda v: _fmt_float(v, "{:.0f}.")
    if nonzero.size and (nonzero.max() / nonzero.min() > 1000 or nonzero.max() > 1e8
                         or nonzero.min() < 1e-4):
        return lambda v: _fmt_float(v, "{:.4e}")
    return lambda v: _fmt_float(v, "{:.4f}")


def _fmt_float(v, fmt: str) -> str:
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return fmt.format(v)


def _summarized(a: np.ndarray) -> np.ndarray:
    """The elements that will be printed (edges only, for big tensors)."""
    if a.ndim == 0:
        return a.reshape(1)
    if a.shape[0] > 2 * _EDGE:
        a = np.concatenate([a[:_EDGE], a[-_EDGE:]])
    return np.concatenate([_summarized(x).reshape(-1) for x in a]) if a.ndim > 1 else a


def _body(a: np.ndarray, fmt, width: int, indent: int, summarize: bool) -> str:
    if a.ndim == 0:
        return fmt(a[()]).rjust(width)
    if a.ndim == 1:
        items = [fmt(v).rjust(width) for v in a]
        if summarize and len(items) > 2 * _EDGE:
            items = items[:_EDGE] + ["..."] + items[-_EDGE:]
        return "[" + ", ".join(items) + "]"
    rows = [_body(x, fmt, width, indent + 1, summarize) for x in a]
    if summarize and len(rows) > 2 * _EDGE:
        rows = rows[:_EDGE] + ["..."] + rows[-_EDGE:]
    sep = "," + "\n" * (a.ndim - 1) + " " * (indent + 1)
    return "[" + sep.join(rows) + "]"


def tensor_repr(t) -> str:
    a = np.asarray(t._array())
    summarize = a.size > _THRESHOLD
    shown = _summarized(a) if summarize else a.reshape(-1)
    if a.size == 0:
        body = "[]"
    else:
        fmt = _formatter(shown.astype(np.float64) if t.dtype.category == 2 else shown, t.dtype)
        width = max(len(fmt(v)) for v in shown)
        body = _body(a, fmt, width, len("tensor("), summarize)
    suffix = []
    if a.size == 0 and t.dim() != 1:
        suffix.append(f"size={tuple(t.shape)}")
    if t.dtype not in (dtypes.float32, dtypes.int64, dtypes.bool_):
        suffix.append(f"dtype={t.dtype!r}")
    elif t.dtype is dtypes.bool_ and a.size == 0:
        suffix.append(f"dtype={t.dtype!r}")
    fn = t._grad_fn
    if fn is not None:
        suffix.append(f"grad_fn=<{fn.name()}>")
    elif t._requires_grad:
        suffix.append("requires_grad=True")
    return "tensor(" + ", ".join([body] + suffix) + ")"
