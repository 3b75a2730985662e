"""catalogue: every public in-place method of ``torch.Tensor`` 2.13, and what the core does.

The list comes from ``data/torch_inplace_methods.json``, which ``tools/gen_torch_catalogue.py``
writes by asking torch 2.13 (``dir(torch.Tensor)``, its operator schemas, and a small probe
program per method whose ``grad_fn._saved_*`` attributes it reads). A parity test re-runs the
tool and compares, so the file can't go stale. Nothing is typed by hand but the probe programs.

The core's side is introspected when you ask: whether ``Tensor`` has the method, what the same
probe program saves on the core (its node comes from the derivative table), the bytes the call
allocates under ``no_grad`` (a temporary) and keeps with grad (a saved copy), measured with the
allocator, and which out-of-place function or ``out=`` form exists.

The probe runner takes the library as an argument, so the tool runs the same programs on torch;
this module never imports torch.
"""
from __future__ import annotations

import inspect
import json
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from . import dtypes, functional, memory
from .autograd import grad_mode
from .autograd.graph import Node
from .tensor import Tensor
from .tensor_new import tensor

DATA = Path(__file__).parent / "data" / "torch_inplace_methods.json"

# The seed article's appendix list (notebook 09, SEED_CLAIMS.md claim 12), in its order.
ARTICLE_LIST = ("add_", "sub_", "mul_", "div_", "relu_", "sigmoid_", "tanh_", "pow_", "neg_",
                "matmul_", "transpose_", "permute_", "clamp_min_", "clamp_max_", "clamp_",
                "minimum_", "maximum_", "zero_", "fill_", "copy_", "random_", "normal_")


def _values(shape: tuple[int, ...], kind: str) -> Any:
    """Deterministic nested lists: floats in [0.125, 0.625], ints 1..5, a bool pattern."""
    n = 1
    for s in shape:
        n *= s
    if kind == "float":
        flat: list = [(k % 5 + 1) / 8 for k in range(n)]
    elif kind == "int":
        flat = [k % 5 + 1 for k in range(n)]
    else:
        flat = [k % 3 != 1 for k in range(n)]
    for s in reversed(shape[1:]):
        flat = [flat[i:i + s] for i in range(0, len(flat), s)]
    return flat if shape else flat[0]


def namespace(lib: Any, grad: bool) -> dict[str, Any]:
    """The names a probe program may use, for ``lib`` (torch, or ``core_lib()``).

    ``f(*shape)``: a float32 leaf (requires grad if ``grad``); ``s(*shape)``: a float32 non-leaf
    (its clone), the usual ``self``; ``d(*shape)``: the same in float64; ``n(*shape)``: int64;
    ``b(*shape)``: bool; ``ix(*values)``: an int64 index tensor; ``ixs(rows, cols, hi)``: a 2-D
    index tensor with entries below ``hi``.
    """
    def leaf(shape, dtype, kind="float"):
        return lib.tensor(_values(shape, kind), dtype=dtype, requires_grad=grad)

    def nonleaf(shape, dtype):
        t = leaf(shape, dtype)
        return t.clone() if grad else t

    return {
        "lib": lib,
        "f": lambda *shape: leaf(shape, lib.float32),
        "s": lambda *shape: nonleaf(shape, lib.float32),
        "d": lambda *shape: nonleaf(shape, lib.float64),
        "n": lambda *shape: lib.tensor(_values(shape, "int"), dtype=lib.int64),
        "b": lambda *shape: lib.tensor(_values(shape, "bool"), dtype=lib.bool),
        "ix": lambda *values: lib.tensor(list(values), dtype=lib.int64),
        "ixs": lambda rows, cols, hi: lib.tensor(
            [[(r + c) % hi for c in range(cols)] for r in range(rows)], dtype=lib.int64),
    }


def core_lib() -> SimpleNamespace:
    """The core's names a probe needs (what ``torch`` provides on the other side)."""
    return SimpleNamespace(tensor=tensor, float32=dtypes.float32, float64=dtypes.float64,
                           int64=dtypes.int64, bool=dtypes.bool_)


def _kind(value: Any, tensor_type: type) -> str:
    if isinstance(value, tensor_type):
        return "tensor"
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, tensor_type)
                                                           for v in value):
        return "tensor"
    return "value"


def saved_of(grad_fn: Any, tensor_type: type, skip: frozenset = frozenset()) -> dict[str, list]:
    """``{"tensors": [...], "values": [...]}``: the ``_saved_*`` names of a node, by kind."""
    out: dict[str, list] = {"tensors": [], "values": []}
    for attr in sorted(set(dir(grad_fn))):
        if not attr.startswith("_saved_") or attr in skip:
            continue
        try:
            value = getattr(grad_fn, attr)
        except Exception:  # noqa: BLE001  (a freed or unreadable saved value still counts)
            value = None
        out["tensors" if _kind(value, tensor_type) == "tensor" else "values"].append(attr[7:])
    return out


def _first_line(e: BaseException) -> str:
    return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:120]


def call_probe(lib: Any, name: str, probe: dict, grad: bool) -> tuple[Any, Any]:
    """Build the probe's inputs, then return ``(self, call)``: ``call()`` runs the method."""
    ns = namespace(lib, grad)
    self_ = eval(probe["self"], ns)  # noqa: S307  (probe programs come from our data file)
    args, kwargs = eval(f"(lambda *a, **k: (a, k))({probe['args']})", ns)  # noqa: S307
    return self_, lambda: _quietly(getattr(self_, name), args, kwargs)


def _quietly(method, args: tuple, kwargs: dict) -> Any:
    """A probe is measured, not read: the warnings it emits (index_reduce's "in beta"
    notice) stay out of the table's notebook."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return method(*args, **kwargs)


def run_probe(lib: Any, name: str, probe: dict, tensor_type: type,
              skip: frozenset = frozenset()) -> dict[str, Any]:
    """Run the probe with grad: the node's name and saved names, or the error it raised."""
    try:
        _, call = call_probe(lib, name, probe, grad=True)
        result = call()
    except Exception as e:  # noqa: BLE001  (the error is the finding)
        return {"grad_fn": None, "error": _first_line(e), "saved": None}
    fn = getattr(result, "grad_fn", None)
    if fn is None:
        return {"grad_fn": None, "error": None, "saved": None}
    return {"grad_fn": fn.name(), "error": None, "saved": saved_of(fn, tensor_type, skip)}


_NODE_SLOTS = frozenset(Node.__slots__)


@dataclass
class Row:
    """One in-place method (or one overload of it) on both sides."""

    name: str
    variant: str  # "" or an overload label such as "tensor bound"
    highlighted: bool  # on the seed article's list
    scope: str  # "" (in scope) or why the course leaves it out
    torch: dict  # from the data file
    exists: bool
    core: dict  # run_probe on the core ({} if it doesn't exist)
    temp_bytes: int | None  # peak extra bytes under no_grad (None: not measured)
    kept_bytes: int | None  # bytes still allocated after the call with grad (a saved copy)
    alternative: bool  # the core has PyTorch's out-of-place form too
    alternative_torch: str  # PyTorch's out-of-place function (with out= if it has one)

    @property
    def saves_match(self) -> bool | None:
        if not self.exists or self.scope:
            return None
        t, c = self.torch.get("saved"), self.core.get("saved")
        return (self.torch.get("grad_fn"), t and t["tensors"]) == \
            (self.core.get("grad_fn"), c and c["tensors"])


def load() -> dict[str, Any]:
    """The data file: torch's version and one entry per in-place method."""
    return json.loads(DATA.read_text(encoding="utf-8"))


def _measure(name: str, probe: dict) -> tuple[int | None, int | None]:
    def bytes_of(grad: bool) -> tuple[int, int]:
        with grad_mode.set_grad_enabled(grad):
            self_, call = call_probe(core_lib(), name, probe, grad=grad)
            with memory.record() as trace:
                result = call()
            del self_, call
        end = trace.events[-1].allocated if trace.events else trace.start_allocated
        del result
        return trace.peak - trace.start_allocated, end - trace.start_allocated

    try:
        temp, _ = bytes_of(False)
        _, kept = bytes_of(True)
    except Exception:  # noqa: BLE001  (a probe the core refuses has nothing to measure)
        return None, None
    return temp, kept


def _core_alternative(base: str, torch_alt: dict) -> bool:
    """Does the core offer PyTorch's out-of-place form (the function, with out= if torch's has
    it; else the method)?"""
    fn = getattr(functional, base, None)
    if torch_alt["function"]:
        return callable(fn) and (not torch_alt["out"]
                                 or "out" in inspect.signature(fn).parameters)
    return bool(torch_alt["method"]) and callable(getattr(Tensor, base, None))


def rows() -> list[Row]:
    """Every entry of the data file, with the core introspected and measured now."""
    out = []
    for entry in load()["methods"]:
        name, scope = entry["name"], entry["scope"]
        for probe in entry["probes"] or [{"variant": "", "torch": {}}]:
            exists = hasattr(Tensor, name)
            core: dict = {}
            temp = kept = None
            if exists and not scope and "self" in probe:
                core = run_probe(core_lib(), name, probe, Tensor, _NODE_SLOTS)
                if core["error"] is None:
                    temp, kept = _measure(name, probe)
            out.append(Row(name, probe["variant"], name in ARTICLE_LIST, scope,
                           probe["torch"], exists, core, temp, kept,
                           _core_alternative(entry["base"], entry["alternative"]),
                           _torch_alternative(entry["alternative"], entry["base"])))
    return out


def saves_text(side: dict) -> str:
    """What one side's probe saved, as text (or how it failed)."""
    if side.get("error"):
        return "fails: " + side["error"].split(":")[0]
    if side.get("grad_fn") is None:
        return "no grad_fn"
    return ", ".join(side["saved"]["tensors"]) or "nothing"


def _torch_alternative(entry_alt: dict, base: str) -> str:
    if entry_alt["function"]:
        return f"torch.{base}(…, out=)" if entry_alt["out"] else f"torch.{base}(…)"
    return f"x.{base}(…)" if entry_alt["method"] else "—"


def table(rows_: list[Row]) -> str:
    """The in-scope rows as text: ★ marks the seed article's names."""
    head = (f"  {'method':<31}{'core':<6}{'PyTorch saves':<22}{'core saves':<20}"
            f"{'temp B':>7}{'kept B':>7}  out-of-place / out= (PyTorch; core has it?)")
    lines = [head, "  " + "-" * (len(head) - 2)]
    for r in rows_:
        if r.scope:
            continue
        label = r.name + (f" ({r.variant})" if r.variant else "")
        core = "yes" if r.exists else "—"
        if not r.exists:
            same = "—"
        elif r.saves_match:
            same = "same"
        elif r.core.get("grad_fn") == r.torch.get("grad_fn"):
            same = "≠ " + saves_text(r.core)
        else:
            same = "≠ " + (r.core.get("grad_fn") or saves_text(r.core))
        temp = "" if r.temp_bytes is None else f"{r.temp_bytes:,}"
        kept = "" if r.kept_bytes is None else f"{r.kept_bytes:,}"
        alt = r.alternative_torch + ("" if r.alternative_torch == "—"
                                     else ("  yes" if r.alternative else "  no"))
        lines.append(f"{'★' if r.highlighted else ' '} {label[:30]:<31}{core:<6}"
                     f"{saves_text(r.torch)[:21]:<22}{same[:19]:<20}{temp:>7}{kept:>7}  {alt}")
    return "\n".join(lines)


def summary(rows_: list[Row]) -> str:
    """Counts: methods in torch, in the course's scope, in the core, saves that agree."""
    names = {r.name for r in rows_}
    scoped = {r.name for r in rows_ if not r.scope}
    core = {r.name for r in rows_ if not r.scope and r.exists}
    checked = [r for r in rows_ if r.saves_match is not None]
    agree = sum(bool(r.saves_match) for r in checked)
    return (f"torch {load()['torch']}: {len(names)} public in-place methods; {len(scoped)} in the "
            f"course's scope; the core has {len(core)} of them.\n"
            f"Node name and saved tensors agree with PyTorch for {agree} of {len(checked)} "
            "probes the core runs.")


__all__ = ["ARTICLE_LIST", "DATA", "Row", "call_probe", "core_lib", "load", "namespace",
           "rows", "run_probe", "saved_of", "saves_text", "summary", "table"]
