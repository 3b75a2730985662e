"""The recorder behind ``detect_inplace()``: a TorchFunctionMode that logs two things.

* writes: every call that bumped a tensor's version (found by comparing ``_version`` of the
  call's tensor arguments before and after, so methods, ``+=``, ``out=``, ``x[i] = v``,
  ``F.relu(inplace=True)`` and optimizer steps are all caught without a list of names);
* creations: the autograd sequence numbers of the nodes each call created, so a node in the
  graph can be traced back to the line that made it.
Backward itself runs in C++ and is not slowed down; only Python-level torch calls are.
"""
from __future__ import annotations

import bisect
import collections
import weakref
from dataclasses import dataclass

import torch
from torch.overrides import TorchFunctionMode

from .frames import Site, call_sites
from .saved import storage_key

# A long training loop under the manager keeps at most this many records of each kind;
# older ones belong to graphs that backward has long since freed.
MAX_RECORDS = 200_000
KEEP_OUTPUTS = 4096


@dataclass(slots=True)
class Call:
    func: object
    user: Site | None
    lib: Site | None

    @property
    def op(self) -> str:
        return op_name(self.func)


@dataclass(slots=True)
class Write:
    call: Call
    key: int | None  # storage address of the written tensor
    before: int
    after: int


_SYMBOLS = {"__iadd__": "+=", "__isub__": "-=", "__imul__": "*=", "__itruediv__": "/=",
            "__ifloordiv__": "//=", "__imod__": "%=", "__ipow__": "**=", "__imatmul__": "@=",
            "__iand__": "&=", "__ior__": "|=", "__ixor__": "^=", "__ilshift__": "<<=",
            "__irshift__": ">>=", "__setitem__": "x[...] = ..."}


def op_name(func) -> str:
    """``Tensor.mul_``, ``Tensor.__iadd__ (+=)``, ``torch.add``, ``torch.nn.functional.relu``."""
    name = getattr(func, "__name__", None) or repr(func)
    qual = getattr(func, "__qualname__", name)
    if qual.startswith(("TensorBase.", "Tensor.")):
        label = "Tensor." + name
    elif qual.startswith("_VariableFunctionsClass."):
        label = "torch." + name
    elif getattr(func, "__module__", None):
        label = f"{func.__module__}.{name}"
    else:
        label = name
    return f"{label} ({_SYMBOLS[name]})" if name in _SYMBOLS else label


# Property getters (x.grad, x.shape, x.T) reach the mode as their __get__.
_GETTERS = frozenset(getattr(torch.Tensor, n).__get__ for n in dir(torch.Tensor)
                     if type(getattr(torch.Tensor, n, None)).__name__ == "getset_descriptor")
_Tensor = torch.Tensor


def _tensors(args, kwargs) -> list:
    out = [a for a in args if isinstance(a, _Tensor)]
    for a in args:
        if type(a) in (list, tuple):  # foreach ops, torch.cat, autograd.grad
            out.extend(x for x in a if isinstance(x, _Tensor))
    if kwargs:
        for a in kwargs.values():  # out=, and tensors passed by name
            if isinstance(a, _Tensor):
                out.append(a)
            elif type(a) in (list, tuple):
                out.extend(x for x in a if isinstance(x, _Tensor))
    return out


def _versions(tensors) -> list:
    try:
        return [t._version for t in tensors]
    except RuntimeError:  # inference tensors have no version counter
        vs = []
        for t in tensors:
            try:
                vs.append(t._version)
            except RuntimeError:
                vs.append(None)
        return vs


def _outputs(result) -> list:
    if isinstance(result, torch.Tensor):
        return [result]
    if isinstance(result, (list, tuple)):
        return [r for r in result if isinstance(r, torch.Tensor)]
    return []


def sequence_nr_now() -> int:
    """The sequence number the next autograd node will get, minus one (costs one node)."""
    with torch.enable_grad():
        return torch.zeros((), requires_grad=True).clone().grad_fn._sequence_nr()


class Recorder(TorchFunctionMode):
    """Logs writes and node creations; ``on_error`` lets the manager add its report."""

    def __init__(self, on_error):
        super().__init__()
        self.on_error = on_error
        self.writes: list[Write] = []
        self.first_seq = sequence_nr_now()
        self._his: list[int] = []  # highest sequence number created by each call, ascending
        self._calls: list[Call] = []
        self._los: list[int] = []  # highest sequence number before each call
        # Recent results with a grad_fn (weak: they die with the user's graph); the roots
        # searched when an error is raised outside a wrapped call, and by explain().
        self._outputs: collections.deque = collections.deque(maxlen=KEEP_OUTPUTS)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        tensors = _tensors(args, kwargs) if func not in _GETTERS else None
        if not tensors:
            # No tensor in, or a property read (p.grad, x.shape): nothing is written; only
            # a tensor result with a grad_fn (x.T) needs recording.
            result = func(*args, **kwargs)
            if isinstance(result, _Tensor) and result.grad_fn is not None:
                self._created(func, result, None)
            return result
        before = _versions(tensors)
        try:
            result = func(*args, **kwargs)
        except RuntimeError as err:
            self.on_error(err, tensors, self)
            raise
        call = None
        for t, v in zip(tensors, before, strict=True):
            if v is not None and t._version != v:
                call = call or Call(func, *call_sites(func))
                self.writes.append(Write(call, storage_key(t), v, t._version))
        self._created(func, result, call)
        if len(self.writes) > MAX_RECORDS:
            del self.writes[: MAX_RECORDS // 2]
        return result

    def _created(self, func, result, call: Call | None) -> None:
        """Remember which call made the nodes behind ``result`` (by sequence number)."""
        hi = -1
        for out in _outputs(result):
            fn = out.grad_fn
            if fn is not None:
                hi = max(hi, fn._sequence_nr())
                self._outputs.append(weakref.ref(out))
        if hi >= 0 and (not self._his or hi > self._his[-1]):
            self._los.append(self._his[-1] if self._his else self.first_seq)
            self._his.append(hi)
            self._calls.append(call or Call(func, *call_sites(func)))
        if len(self._calls) > MAX_RECORDS:
            del self._his[: MAX_RECORDS // 2], self._los[: MAX_RECORDS // 2]
            del self._calls[: MAX_RECORDS // 2]

    @property
    def outputs(self) -> list:
        """The recorded results that are still alive (each once)."""
        alive = {}
        for r in self._outputs:
            t = r()
            if t is not None:
                alive[id(t)] = t
        return list(alive.values())

    def creator(self, node) -> Call | None:
        """The call that created ``node`` (None when it was made before the manager started)."""
        seq = node._sequence_nr()
        i = bisect.bisect_left(self._his, seq)
        if i < len(self._his) and self._los[i] < seq:
            return self._calls[i]
        return None

    def writes_to(self, key: int | None, saved: int, current: int) -> list[Write]:
        """The writes that moved storage ``key`` from version ``saved`` to ``current``.

        A freed storage's address can be reused, so only the latest write leaving each
        version counts, and only versions in [saved, current).
        """
        latest: dict[int, Write] = {}
        for w in self.writes:
            if w.key == key and saved <= w.before < current:
                latest[w.before] = w
        return [latest[v] for v in sorted(latest)]
