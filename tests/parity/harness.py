"""Run one program on PyTorch and on inplace_tutorial, and compare what each one observed.

A program is a plain function ``prog(t)`` where ``t`` is either the ``torch`` module or the
``inplace_tutorial`` module. It returns a dict of observations: tensors, shapes, strides,
versions, booleans, grad_fn names, caught errors. ``observe`` turns those into plain
Python/NumPy values, and ``compare`` explains every difference it finds.

Write programs as the PyTorch program they mirror. Inputs come from NumPy (``arr``) so that
both libraries start from the same numbers, never from either library's RNG.
"""

from __future__ import annotations

import math
import re
import traceback
import warnings
from dataclasses import dataclass, field

import numpy as np
import pytest

# --------------------------------------------------------------------------------------
# inputs


def arr(*shape, seed=0, dtype=np.float32, low=-2.0, high=2.0):
    """A deterministic NumPy array (float: uniform in [low, high); int: integers in [low, high))."""
    rng = np.random.default_rng(seed)
    if np.issubdtype(np.dtype(dtype), np.integer):
        return rng.integers(int(low), int(high), size=shape).astype(dtype)
    return rng.uniform(low, high, size=shape).astype(dtype)


def ints(*shape, seed=0, dtype=np.float32, low=-3, high=4):
    """Small integers stored as floats: large matmul-style sums stay exact in float32."""
    return arr(*shape, seed=seed, dtype=np.int64, low=low, high=high).astype(dtype)


def pos(*shape, seed=0, dtype=np.float32):
    """Positive values away from zero (for log, sqrt, div, pow)."""
    return arr(*shape, seed=seed, dtype=dtype, low=0.5, high=2.0)


def every_16bit_pattern(t, dtype: str):
    """All 65,536 bit patterns of a 16-bit float type ("float16", "bfloat16"), NaNs and
    infinities included, as a 1-dim tensor of ``t``."""
    raw = np.arange(0, 0x10000, dtype=np.uint32).astype(np.uint16).view(np.int16)
    return t.tensor(raw.copy()).view(getattr(t, dtype))


# --------------------------------------------------------------------------------------
# observation helpers used inside programs


@dataclass(frozen=True)
class Raised:
    """An exception a program caught: type name and message."""

    type: str
    msg: str
    where: str = field(default="", compare=False)  # innermost frame, for reports only

    def __repr__(self):  # readable in assertion output
        return f"Raised({self.type}: {self.msg!r})"


def upstream(t, y, seed=99):
    """A fixed, non-uniform upstream gradient with y's shape (a wrong derivative can't hide
    behind all-ones)."""
    return t.tensor(arr(*tuple(y.shape), seed=seed, low=-1.0, high=1.5))


def leaf(t, a):
    """A leaf that requires grad, from a NumPy array."""
    return t.tensor(a, requires_grad=True)


def _where(e):
    frames = traceback.extract_tb(e.__traceback__)
    if not frames:
        return ""
    f = frames[-1]
    return f"{f.filename.split('/work/main/')[-1]}:{f.lineno} in {f.name}"


def _raised(e):
    return Raised(type(e).__name__, str(e), _where(e))


def catch(fn):
    """Call ``fn()``; return its result, or a Raised describing what it raised."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the exception is the observation
        return _raised(e)


def warned(fn):
    """(catch(fn), the UserWarnings it emitted), each message without PyTorch's
    "(Triggered internally at ...)" tail, which names a C++ source line of one build."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = catch(fn)
    return r, [str(w.message).split(" (Triggered internally")[0] for w in caught
               if w.category is UserWarning]


def into_out(t, call, out) -> dict:
    """An out= call observed: whether ``call(out)`` returned out itself (or what it raised),
    out's shape, version and first cells afterwards, and the warnings it printed."""
    n = out.numel()
    r, w = warned(lambda: call(out))
    return {"returned": r if not isinstance(r, t.Tensor) else r is out, "shape": out.shape,
            "version": out._version, "old cells": out.reshape(-1)[:n].clone(), "warnings": w}


def saved_fields(fn, names):
    """A node's ``_saved_*`` attributes by name (``fn``: a grad_fn)."""
    return {n: getattr(fn, n) for n in names}


def fn_name(grad_fn):
    """``type(grad_fn).__name__`` or None."""
    return None if grad_fn is None else type(grad_fn).__name__


def next_names(grad_fn):
    """The class names in ``grad_fn.next_functions`` (None stays None), with the input index."""
    if grad_fn is None:
        return None
    return [(None if f is None else type(f).__name__, int(i)) for f, i in grad_fn.next_functions]


def graph(grad_fn, depth=6):
    """A nested (name, [children]) description of the backward graph below grad_fn."""
    if grad_fn is None:
        return None
    if depth == 0:
        return (type(grad_fn).__name__, "...")
    return (
        type(grad_fn).__name__,
        [None if f is None else graph(f, depth - 1) for f, _ in grad_fn.next_functions],
    )


def meta(x):
    """The layout of a tensor: shape, stride, storage_offset, contiguity, dtype."""
    return {
        "shape": tuple(x.shape),
        # An empty tensor addresses no memory, and PyTorch picks its strides arbitrarily
        # (they differ between its own kernels), so they are not compared.
        "stride": tuple(x.stride()) if x.numel() else "empty",
        "offset": x.storage_offset(),
        "contiguous": x.is_contiguous(),
        "dtype": str(x.dtype),
    }


def same_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def ptr_delta(a, b):
    """``a.data_ptr() - b.data_ptr()`` in bytes."""
    return a.data_ptr() - b.data_ptr()


# --------------------------------------------------------------------------------------
# turning observations into plain values


def _is_tensor(t, v):
    return isinstance(v, t.Tensor)


def observe(t, v):
    """Convert an observation made with module ``t`` into plain Python / NumPy values."""
    if isinstance(v, Raised):
        return v
    if _is_tensor(t, v):
        d = v.detach()
        return {
            "__tensor__": True,
            "shape": tuple(int(s) for s in d.shape),
            "dtype": str(d.dtype),
            "requires_grad": bool(v.requires_grad),
            # torch has no NumPy bfloat16: both sides compare bfloat16 values as float32
            "values": np.array((d.float() if "bfloat16" in str(d.dtype) else d).numpy(),
                               copy=True),
        }
    if isinstance(v, dict):
        return {k: observe(t, x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        # torch.Size is a tuple; the core's shape may be a tuple subclass too
        return (
            tuple(observe(t, x) for x in v) if isinstance(v, tuple) else [observe(t, x) for x in v]
        )
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if hasattr(v, "is_floating_point") and hasattr(v, "itemsize"):  # a dtype object
        return ("dtype", str(v))
    if isinstance(v, np.generic):
        return ("numpy scalar", type(v).__name__, v.item())
    if isinstance(v, np.ndarray):
        return ("numpy array", v.dtype.name, v.shape, v.copy())
    # dtype objects, grad-mode objects, anything else: compare by type name and str()
    return ("object", type(v).__name__, str(v))


def run(t, prog):
    """Run the program on module t; the observation is its dict, or the exception it raised."""
    try:
        out = prog(t)
    except Exception as e:  # noqa: BLE001
        return _raised(e)
    try:
        return observe(t, out)
    except Exception as e:  # noqa: BLE001 - e.g. the core's tensor cannot be read back
        r = _raised(e)
        return Raised(r.type, f"(while observing the result) {r.msg}", r.where)


# --------------------------------------------------------------------------------------
# comparing


def norm_ws(s):
    return re.sub(r"\s+", " ", s).strip()


def _before_registrations(msg):
    """torch's dispatcher ends a missing-kernel error ("Could not run 'aten::mm.dtype' with
    arguments from the 'CPU' backend ...") with where each backend's kernel is registered:
    source lines of one build and torch's install path. Compared up to that listing."""
    return msg.split("\n\n")[0] if msg.startswith("Could not run '") else msg


def strip_hint(s):
    return norm_ws(s.split("Hint:")[0])


def _kind(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    return type(v).__name__


def _close(a, b, dtype):
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "biu" or b.dtype.kind in "biu":
        return np.array_equal(a, b)
    if "float64" in dtype:
        return np.allclose(a, b, rtol=1e-10, atol=1e-12, equal_nan=True)
    if "float16" in dtype:  # two units in the last place: PyTorch's scalar loops (strided or
        # tail elements) round after every step, its vectorised loop once; the core rounds
        # once (test_small_dtypes_parity checks those bits exactly)
        return np.allclose(a, b, rtol=2.0 ** -6 if "bfloat16" in dtype else 2.0 ** -9,
                           atol=1e-6, equal_nan=True)
    return np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True)


def compare(ref, got, path="obs"):
    """A list of human-readable differences between torch's observation and the core's."""
    diffs = []
    if isinstance(ref, Raised) or isinstance(got, Raised):
        if not (isinstance(ref, Raised) and isinstance(got, Raised)):
            where = f" at {got.where}" if isinstance(got, Raised) and got.where else ""
            diffs.append(f"{path}: torch -> {_short(ref)}; core -> {got!r}{where}")
            return diffs
        if ref.type != got.type:
            diffs.append(
                f"{path}: exception type torch={ref.type} core={got.type} "
                f"(torch msg {ref.msg!r}; core msg {got.msg!r})"
            )
        elif norm_ws(_before_registrations(ref.msg)) != norm_ws(got.msg):
            same_head = strip_hint(ref.msg) == strip_hint(got.msg)
            diffs.append(
                f"{path}: {ref.type} message differs"
                f"{' (only in the Hint: tail)' if same_head else ''}:\n"
                f"    torch: {ref.msg!r}\n    core:  {got.msg!r}"
            )
        return diffs
    if isinstance(ref, dict) and ref.get("__tensor__"):
        if not (isinstance(got, dict) and got.get("__tensor__")):
            return [f"{path}: torch -> tensor; core -> {got!r}"]
        for key in ("shape", "dtype", "requires_grad"):
            if ref[key] != got[key]:
                diffs.append(f"{path}.{key}: torch={ref[key]!r} core={got[key]!r}")
        if ref["shape"] == got["shape"] and not _close(ref["values"], got["values"], ref["dtype"]):
            diffs.append(
                f"{path}.values:\n    torch: {ref['values'].tolist()!r}\n"
                f"    core:  {got['values'].tolist()!r}"
            )
        return diffs
    if isinstance(ref, dict):
        if not isinstance(got, dict):
            return [f"{path}: torch -> dict; core -> {got!r}"]
        for k in ref:
            if k not in got:
                diffs.append(f"{path}[{k!r}] missing in core")
            else:
                diffs += compare(ref[k], got[k], f"{path}[{k!r}]")
        for k in got:
            if k not in ref:
                diffs.append(f"{path}[{k!r}] only in core")
        return diffs
    if isinstance(ref, (list, tuple)):
        if not isinstance(got, (list, tuple)) or type(ref) is not type(got) or len(ref) != len(got):
            return [f"{path}: torch={_short(ref)} core={_short(got)}"]
        for i, (a, b) in enumerate(zip(ref, got, strict=False)):
            diffs += compare(a, b, f"{path}[{i}]")
        return diffs
    if _kind(ref) != _kind(got):
        return [f"{path}: torch={ref!r} ({_kind(ref)}) core={_short(got)} ({_kind(got)})"]
    if isinstance(ref, float):
        if not (
            math.isclose(ref, got, rel_tol=1e-5, abs_tol=1e-6)
            or (math.isnan(ref) and math.isnan(got))
        ):
            diffs.append(f"{path}: torch={ref!r} core={got!r}")
        return diffs
    if isinstance(ref, np.ndarray) or isinstance(got, np.ndarray):
        return [] if np.array_equal(ref, got) else [f"{path}: torch={ref!r} core={got!r}"]
    try:
        equal = ref == got
        if not isinstance(equal, bool):
            equal = bool(np.all(equal))
    except Exception:  # noqa: BLE001
        equal = False
    if not equal:
        diffs.append(f"{path}: torch={ref!r} core={got!r}")
    return diffs


def _short(v, n=300):
    s = repr(v)
    return s if len(s) <= n else s[:n] + "..."


def check_parity(prog, torch_mod, core_mod):
    ref = run(torch_mod, prog)
    got = run(core_mod, prog)
    diffs = compare(ref, got)
    if diffs:
        pytest.fail(
            f"{prog.__name__}: core differs from torch\n  " + "\n  ".join(diffs), pytrace=False
        )


# --------------------------------------------------------------------------------------
# registry


class Registry:
    """Collects programs; ``params()`` gives one pytest case per program, id = function name."""

    def __init__(self):
        self.programs = {}

    def __call__(self, fn):
        if fn.__name__ in self.programs:
            raise ValueError(f"duplicate program name {fn.__name__}")
        self.programs[fn.__name__] = fn
        return fn

    def params(self):
        return [pytest.param(fn, id=name) for name, fn in self.programs.items()]
