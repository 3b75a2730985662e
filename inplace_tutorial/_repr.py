"""PyTorch's tensor repr (torch/_tensor_str.py's rules): number formats, widths, line
wrapping at 80 columns, summarisation of big tensors with "...", and the suffixes."""
from __future__ import annotations

import math

import numpy as np

from . import dtypes

_THRESHOLD, _EDGE, _LINEWIDTH, _PRECISION = 1000, 3, 80, 4


class _Formatter:
    """Chooses integer, fixed or scientific notation and one width for every element."""

    def __init__(self, values: np.ndarray, dtype):
        self.floating = dtype.category == 2
        self.int_mode, self.sci_mode, self.max_width = True, False, 1
        if not self.floating:
            for v in values.reshape(-1).tolist():
                self.max_width = max(self.max_width, len(str(v)))
            return
        v = values.astype(np.float64).reshape(-1)
        nz = v[np.isfinite(v) & (v != 0)]
        if nz.size == 0:
            return
        a = np.abs(nz)
        lo, hi = float(a.min()), float(a.max())
        self.int_mode = bool(np.all(nz == np.ceil(nz)))
        if self.int_mode:
            if hi / lo > 1000.0 or hi > 1.0e8:
                self.sci_mode = True
                self.max_width = max(len(f"{x:.{_PRECISION}e}") for x in nz.tolist())
            else:
                self.max_width = max(len(f"{x:.0f}") + 1 for x in nz.tolist())
        elif hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4:
            self.sci_mode = True
            self.max_width = max(len(f"{x:.{_PRECISION}e}") for x in nz.tolist())
        else:
            self.max_width = max(len(f"{x:.{_PRECISION}f}") for x in nz.tolist())

    def format(self, value) -> str:
        if self.floating:
            value = float(value)
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{_PRECISION}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{_PRECISION}f}"
        else:
            ret = str(value)
        return (self.max_width - len(ret)) * " " + ret


def _summarized(a: np.ndarray) -> np.ndarray:
    if a.ndim == 0:
        return a
    if a.shape[0] > 2 * _EDGE:
        parts = [a[:_EDGE], a[-_EDGE:]]
    else:
        parts = [a]
    if a.ndim == 1:
        return np.concatenate(parts)
    return np.stack([_summarized(x) for p in parts for x in p])


def _vector(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    per_line = max(1, math.floor((_LINEWIDTH - indent) / (fmt.max_width + 2)))
    if summarize and a.shape[0] > 2 * _EDGE:
        data = ([fmt.format(v) for v in a[:_EDGE].tolist()] + [" ..."]
                + [fmt.format(v) for v in a[-_EDGE:].tolist()])
    else:
        data = [fmt.format(v) for v in a.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _body(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    if a.ndim == 0:
        return fmt.format(a[()].item())
    if a.ndim == 1:
        return _vector(a, indent, summarize, fmt)
    if summarize and a.shape[0] > 2 * _EDGE:
        rows = ([_body(a[i], indent + 1, summarize, fmt) for i in range(_EDGE)] + ["..."]
                + [_body(a[i], indent + 1, summarize, fmt)
                   for i in range(a.shape[0] - _EDGE, a.shape[0])])
    else:
        rows = [_body(a[i], indent + 1, summarize, fmt) for i in range(a.shape[0])]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def tensor_repr(t) -> str:
    a = np.asarray(t._array())
    prefix = "tensor("
    suffix = []
    if a.size == 0:
        body = "[]"
        if t.dim() != 1:
            suffix.append(f"size={tuple(t.shape)}")
        if t.dtype is not dtypes.float32:
            suffix.append(f"dtype={t.dtype!r}")
    else:
        summarize = a.size > _THRESHOLD
        fmt = _Formatter(_summarized(a) if summarize else a, t.dtype)
        body = _body(a, len(prefix), summarize, fmt)
        if t.dtype not in (dtypes.float32, dtypes.int64, dtypes.bool_):
            suffix.append(f"dtype={t.dtype!r}")
    fn = t._grad_fn
    if fn is not None:
        # (_tensor_str.py shows a node's class name: NotImplemented, not the name() of
        # the hand-written node, "torch::autograd::NotImplemented")
        suffix.append(f"grad_fn=<{fn.name().rsplit('::', 1)[-1]}>")
    elif t._requires_grad:
        suffix.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffix, len(prefix))


def _add_suffixes(text: str, suffixes: list, indent: int) -> str:
    """A suffix that would pass the line width goes on a line of its own, indented."""
    parts = [text]
    last = len(text) - text.rfind("\n") + 1
    for s in suffixes:
        if last + len(s) + 2 > _LINEWIDTH:
            parts.append(",\n" + " " * indent + s)
            last = indent + len(s)
        else:
            parts.append(", " + s)
            last += len(s) + 2
    return "".join(parts) + ")"
