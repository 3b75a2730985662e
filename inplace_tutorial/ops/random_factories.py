"""The random factories (PyTorch's TensorFactories.cpp): rand, randn and their *_like, drawn
from [0, 1) or the standard normal; randint and randint_like, a fresh tensor filled as
random_(low, high) fills one (random_from_to.py's range checks and draw); randperm, a shuffled
0 .. n-1. A fresh tensor's fill is no in-place op on anything the caller holds: ``_version``
stays 0 and no node is made. The values come from the core's generator, so they are not
torch's; the shapes, dtypes, ranges and refusals are.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import is_index
from ..copy_kernel import cast_into
from ..creation import (
    factory_options,
    factory_size,
    finish_factory,
    new_like,
    out_dtype,
    refuse_grad,
    resize_,
)
from ..function_parser import torch_function
from ..generator import default_generator
from ..layout import preserve_format
from ..tensor import Tensor
from .random import _draw_into
from .random_from_to import _INT_DRAW, _random_range

_RANDINT_NAMES = {2: ("high", "size"), 3: ("low", "high", "size")}


def _fill_ints(t: Tensor, low: int, high: int, generator) -> Tensor:
    """random_(low, high)'s checks, then its draw into ``t``, counted, without a version step."""
    lo, hi = _random_range(t, "from", low, high)

    def sample(gen, buf, idx):
        flat = buf.reshape(-1)
        for i in range(0, flat.size, _INT_DRAW):
            part = flat[i:i + _INT_DRAW]
            part[...] = gen.integers(lo, hi, size=part.size, dtype=np.int64, endpoint=True)

    _draw_into(t._array(), np.dtype(np.int64), sample, "randint", generator)
    return t


@torch_function()
def randint(*args, generator=None, dtype: dtypes.dtype | None = None, layout=None,
            device=None, pin_memory: bool | None = None, requires_grad: bool | None = False,
            **kwargs) -> Tensor:
    """randint(high, size) or randint(low, high, size): integers from [low, high) (low 0),
    int64 unless dtype says."""
    given = [k for k in ("low", "high", "size") if k in kwargs]
    names = _RANDINT_NAMES.get(len(args) + len(given))
    out = kwargs.pop("out", None)
    if names is None:
        raise TypeError("randint() fits none of torch's forms")  # (torch_function words it)
    bound = dict(zip(names, args)) | {k: kwargs.pop(k) for k in given}
    if not all(is_index(bound[k]) for k in ("low", "high") if k in bound):
        raise TypeError("randint() fits none of torch's forms")  # (torch_function words it)
    requires_grad = factory_options("randint", dtype, requires_grad, layout, device, pin_memory)
    size = factory_size("randint", (bound["size"],), varargs=False)
    low, high = int(bound.get("low", 0)), int(bound["high"])
    if out is not None:  # an out= function: the range checked, out resized, one write
        out_dtype("randint", out, dtype)
        refuse_grad("randint", out)
        resize_(out, size)
        _random_range(out, "from", low, high)
        out._vc.write(lambda: _fill_ints(out, low, high, generator), "randint")
        return finish_factory(out, requires_grad)
    t = Tensor._empty(size, dtype or dtypes.int64, "randint")
    _fill_ints(t, low, high, generator)
    return finish_factory(t, requires_grad)


@torch_function()
def randint_like(input: Tensor, low, high=None, *, generator=None,  # noqa: A002
                 memory_format=None, dtype=None, layout=None, device=None,
                 pin_memory: bool | None = None, requires_grad: bool | None = False) -> Tensor:
    """randint_like(input, high) or (input, low, high): input's shape, dtype and layout."""
    low, high = (0, low) if high is None else (low, high)
    if not (is_index(low) and is_index(high)):
        raise TypeError("randint_like() fits none of torch's forms")  # (torch_function: words)
    t = new_like(input, dtype, requires_grad, None, "randint_like",
              preserve_format if memory_format is None else memory_format,
              (layout, device, pin_memory))
    return _fill_ints(t, int(low), int(high), generator)  # (a raw draw: no graph, no version)


# the largest n whose 0 .. n-1 a dtype holds exactly (PyTorch checks Half's alone; the integer
# types refuse n - 1 in c10's words)
_HALF_LIMIT = 2049


@torch_function()
def randperm(n: int, *, generator=None, out=None, dtype: dtypes.dtype | None = None,
             layout=None, device=None, pin_memory: bool | None = None,
             requires_grad: bool | None = False) -> Tensor:
    """A random permutation of 0 .. n-1: counted arange, shuffled in place."""
    requires_grad = factory_options("randperm", dtype, requires_grad, layout, device, pin_memory)
    if out is not None:
        dtype = out_dtype("randperm", out, dtype)
        refuse_grad("randperm", out)
    dtype = dtype or dtypes.int64
    size = factory_size("randperm", ((n,),), varargs=False)
    if dtype is dtypes.bool_:
        raise NotImplementedError("\"randperm\" not implemented for 'Bool'")
    if dtype is dtypes.float16 and n > _HALF_LIMIT:
        raise RuntimeError(f"n cannot be greater than {_HALF_LIMIT} for Half type.")
    if n and not dtype.is_floating_point:
        dtypes.checked_scalar(n - 1, dtype, "fill")  # n - 1 must fit: c10's overflow words
    t = Tensor._empty(size, dtype, "randperm")
    a = t._array()
    for s in range(0, n, _INT_DRAW):  # 0 .. n-1, a chunk of float64 positions at a time
        np.copyto(a[s:s + _INT_DRAW], np.arange(s, min(n, s + _INT_DRAW), dtype=np.float64),
                  casting="unsafe")
    (generator or default_generator()).shuffle(a)  # in place: no n-sized temporary
    if out is not None:  # resize_, then one write
        resize_(out, size)
        out._vc.write(lambda: np.copyto(out._array(), a), "randperm")
        t = out
    return finish_factory(t, requires_grad)


# ------------------------------------------------------------------ rand, randn and their *_like
@torch_function()
def randn(*size, dtype: dtypes.dtype | None = None, requires_grad: bool | None = False,
          generator: np.random.Generator | None = None, layout=None, device=None,
          pin_memory: bool | None = None, out=None, **kwargs) -> Tensor:
    requires_grad = factory_options("randn", dtype, requires_grad, layout, device, pin_memory)
    shape = factory_size("randn", size, kwargs=kwargs)
    gen = generator or default_generator()
    if out is not None:
        return _draw_out("randn", out, shape, dtype, gen.standard_normal, "normal_kernel_cpu",
                         requires_grad)
    t = Tensor._empty(shape, dtype or dtypes.float32, "randn")
    _draw(t, gen.standard_normal, "normal_kernel_cpu")
    return finish_factory(t, requires_grad)


@torch_function()
def rand(*size, dtype: dtypes.dtype | None = None, requires_grad: bool | None = False,
         generator: np.random.Generator | None = None, layout=None, device=None,
         pin_memory: bool | None = None, out=None, **kwargs) -> Tensor:
    requires_grad = factory_options("rand", dtype, requires_grad, layout, device, pin_memory)
    shape = factory_size("rand", size, kwargs=kwargs)
    gen = generator or default_generator()
    if out is not None:
        return _draw_out("rand", out, shape, dtype, gen.random, "check_uniform_bounds",
                         requires_grad)
    t = Tensor._empty(shape, dtype or dtypes.float32, "rand")
    _draw(t, gen.random, "check_uniform_bounds")
    return finish_factory(t, requires_grad)


def _draw_out(op: str, out: Tensor, shape: tuple, dtype, sample, kernel: str,
              requires_grad: bool) -> Tensor:
    """rand/randn(..., out=out): rand is an out= function (autograd's refusal, one write);
    randn resizes out through resize_ (its own refusal of a tensor that requires grad, a
    version step when the shape changes) and then draws (one more)."""
    out_dtype(op, out, dtype)
    if op == "randn":
        if out.requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        if out._shape != shape:
            out._vc.write(lambda: resize_(out, shape), "resize_")
    else:
        refuse_grad(op, out)
        resize_(out, shape)
    fresh = Tensor._empty(shape, out.dtype, op)  # drawn contiguous, then copied into out
    _draw(fresh, sample, kernel)
    out._vc.write(lambda: np.copyto(out._array(), fresh._array()), op)
    return finish_factory(out, requires_grad)


def _draw(t: Tensor, sample, kernel: str) -> None:
    """Fill ``t`` from NumPy's sampler, which makes only float32 and float64: a float16 or
    bfloat16 tensor draws float32 values into a counted buffer and rounds them, as PyTorch
    builds Half and BFloat16 from a float; integer dtypes have no such kernel in PyTorch."""
    if not t.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{t.dtype.short}\'')
    if t.dtype.np in (np.float32, np.float64):
        sample(out=t._array(), dtype=t.dtype.np)
        return
    single = Tensor._empty(t._shape, dtypes.float32, t._storage.op + " (float32 draw)")
    sample(out=single._array(), dtype=np.float32)
    cast_into(t._array(), single._array(), t.dtype)


@torch_function()
def rand_like(input: Tensor, *, generator: np.random.Generator | None = None,  # noqa: A002
              memory_format=preserve_format, dtype=None, layout=None, device=None,
              pin_memory: bool | None = None, requires_grad: bool | None = False) -> Tensor:
    """empty_like(input) filled from [0, 1) (float dtypes only, as torch's uniform kernel)."""
    t = new_like(input, dtype, requires_grad, None, "rand_like", memory_format,
              (layout, device, pin_memory))
    _draw(t, (generator or default_generator()).random, "check_uniform_bounds")
    return t


@torch_function()
def randn_like(input: Tensor, *, generator: np.random.Generator | None = None,  # noqa: A002
               memory_format=preserve_format, dtype=None, layout=None, device=None,
               pin_memory: bool | None = None, requires_grad: bool | None = False) -> Tensor:
    """empty_like(input) filled from the standard normal (float dtypes only)."""
    t = new_like(input, dtype, requires_grad, None, "randn_like", memory_format,
              (layout, device, pin_memory))
    _draw(t, (generator or default_generator()).standard_normal, "normal_kernel_cpu")
    return t


__all__ = ["rand", "rand_like", "randint", "randint_like", "randn", "randn_like", "randperm"]
