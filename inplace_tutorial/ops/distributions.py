"""The functions of PyTorch's Distributions.cpp that draw into a new tensor or ``out=``:
torch.normal, in the four overloads PyTorch's binding chooses between, and torch.bernoulli's
``out=`` form (its other forms: fill_draw.py).

PyTorch draws standard normal values into the result and scales them in place (times std,
then plus mean: DistributionTemplates.h), so the result takes mean's dtype (std's when mean is
a number), the broadcast shape, and contiguous strides. The draw itself is the in-place fill
``normal_`` (random.py), from the core's generator or a NumPy ``generator=``. Under autograd a
draw does not depend on mean and std: NormalBackward1/2/3 send zeros shaped as the inputs,
so they save only the inputs' sizes.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import argument_error, forms_fitting, int_list, invalid_combination, is_index
from ..autograd import grad_mode
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import empty, zeros
from ..device import placement
from ..layout import broadcast_shapes
from ..tensor import Tensor, VersionCounter
from . import out_functions, out_variants
from .arg_checks import is_number
from .fill_draw import BERNOULLI_FORMS, bernoulli_function
from .tensor_iterator import check_internal_overlap

_TAIL = "*, torch.Generator generator = None, Tensor out = None"
_FORMS = [f"Tensor mean, Tensor std, {_TAIL}",
          f"Tensor mean, float std = 1, {_TAIL}",
          f"float mean, Tensor std, {_TAIL}",
          f"float mean, float std, tuple of ints size, {_TAIL}, torch.dtype dtype = None, "
          "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
          "bool requires_grad = False"]
_NAMES = ("mean", "std", "size")
_FACTORY = ("dtype", "layout", "device", "pin_memory", "requires_grad")
_MISSING = object()


# --------------------------------------------------------------------------- binding
def _is_float(v) -> bool:
    """A ``float`` of PyTorch's binding: a real number (int and bool too), or a 0-dim tensor
    that does not require grad."""
    if isinstance(v, Tensor):
        return v.dim() == 0 and not v.requires_grad
    return is_number(v) and not isinstance(v, complex)


def _is_size(v) -> bool:
    return isinstance(v, (tuple, list)) and (not v or is_index(v[0]))


def _factory_ok(kw: dict) -> bool:
    return (isinstance(kw.get("dtype"), (dtypes.dtype, type(None)))
            and isinstance(kw.get("requires_grad", False), bool)
            and isinstance(kw.get("pin_memory", False), bool))


def normal(*args, **kwargs) -> Tensor:
    """torch.normal(mean, std[, size], *, generator=None, out=None, ...): the overload is the
    first of PyTorch's four whose types fit (Tensor before float, as its binding tries them)."""
    given = dict(zip(_NAMES, args))
    rest = {k: v for k, v in kwargs.items() if k not in _NAMES or k in given}
    given.update({k: v for k, v in kwargs.items() if k in _NAMES and k not in given})
    gen, out = kwargs.get("generator"), kwargs.get("out")
    mean, std, size = (given.get(n, _MISSING) for n in _NAMES)
    known = {"generator", "out", *_FACTORY}
    if (len(args) <= 3 and set(rest) <= known and isinstance(gen, (np.random.Generator, type(None)))
            and isinstance(out, (Tensor, type(None)))):
        factory = {k: rest[k] for k in _FACTORY if k in rest}
        if out is not None:  # autograd refuses out= before any of the op's own checks
            ff = size is not _MISSING or not any(isinstance(v, Tensor) for v in (mean, std))
            out_functions.start("aten::normal" if ff else "normal", out,
                                tuple(v for v in (mean, std) if isinstance(v, Tensor)))
        if size is _MISSING and not factory and isinstance(mean, Tensor):
            if isinstance(std, Tensor):
                return _tensor_tensor(mean, std, gen, out)
            if std is _MISSING or _is_float(std):
                return _tensor_float(mean, 1.0 if std is _MISSING else _as_float(std), gen, out)
        if size is _MISSING and not factory and _is_float(mean) and isinstance(std, Tensor):
            return _float_tensor(_as_float(mean), std, gen, out)
        if _is_float(mean) and _is_float(std) and _is_size(size) and _factory_ok(factory):
            return _float_float(_as_float(mean), _as_float(std), size, gen, out, **factory)
    raise _no_match(args, kwargs, mean)


def _as_float(v) -> float:
    return float(v.item()) if isinstance(v, Tensor) else float(v)


def _no_match(args: tuple, kwargs: dict, mean) -> TypeError:
    """With one argument only ``(Tensor mean, float std = 1)`` fits, and PyTorch's binding
    names what is wrong with it; otherwise it lists the four forms."""
    if len(forms_fitting(_FORMS, len(args) + len(kwargs))) == 1 and len(args) + len(kwargs) == 1:
        if mean is _MISSING:
            return TypeError('normal() missing 1 required positional arguments: "mean"')
        return argument_error("normal", "mean", 1, "Tensor", mean)
    return invalid_combination("normal", args, _FORMS, kwargs)


# --------------------------------------------------------------------------- checks
def _check_std(std: float) -> None:
    """CHECK_NORMAL_STD: a number std must be >= 0 (NaN is not)."""
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def _check_std_tensor(std: Tensor) -> None:
    """CHECK_NORMAL_TENSOR_STD: every element >= 0 (a NaN anywhere fails: min is NaN)."""
    if std.numel():
        with grad_mode.no_grad():
            smallest = float(std.min().item())
        if not smallest >= 0.0:
            raise RuntimeError("normal expects all elements of std >= 0.0")


# --------------------------------------------------------------------------- the draw
def _on_alias(result: Tensor, steps) -> None:
    """Run the in-place ``steps`` on an alias of result's cells that has a counter of its
    own: PyTorch's kernel calls normal_, mul_ and add_ below autograd, so result's version
    moves once (by the caller, for out=) or not at all (a fresh result), not once a step."""
    alias = Tensor._make(result._storage, result._shape, result._stride, result._offset,
                         result.dtype, VersionCounter())
    with grad_mode.no_grad():
        steps(alias)


def _scaled_draw(result: Tensor, mean, std, gen) -> None:
    """result = draw * std + mean, in place, in PyTorch's order (a number std scales the
    draw itself)."""
    def steps(alias: Tensor) -> None:
        if isinstance(std, Tensor):
            alias.normal_(0.0, 1.0, generator=gen)
            alias.mul_(std)
        else:
            alias.normal_(0.0, std, generator=gen)
        alias.add_(mean)
    _on_alias(result, steps)


def _write(out: Tensor, mean, std, gen) -> Tensor:
    out_functions.write(out, "normal", lambda: _scaled_draw(out, mean, std, gen))
    return out


def _fresh(shape: tuple, dtype: dtypes.dtype, mean, std, gen) -> Tensor:
    result = Tensor._empty(tuple(shape), dtype, "normal")
    _scaled_draw(result, mean, std, gen)
    return result


def _into_out(out: Tensor, shape: tuple) -> None:
    """out takes the broadcast shape (resize_output: a warning unless out was empty)."""
    out_variants.resize_output(out, tuple(shape))
    check_internal_overlap(out)


def _tensor_tensor(mean: Tensor, std: Tensor, gen, out) -> Tensor:
    _check_std_tensor(std)
    shape = broadcast_shapes(mean._shape, std._shape)
    if out is not None:
        _into_out(out, shape)
        return _write(out, mean, std, gen)
    result = _fresh(shape, mean.dtype, mean, std, gen)
    return record("normal_tensor_tensor", result, {"mean": mean, "std": std},
                  mean_sym_sizes=mean._shape, std_sym_sizes=std._shape)


def _tensor_float(mean: Tensor, std: float, gen, out) -> Tensor:
    _check_std(std)
    if out is not None:  # PyTorch broadcasts mean against out as it is
        _into_out(out, broadcast_shapes(mean._shape, out._shape))
        return _write(out, mean, std, gen)
    result = _fresh(mean._shape, mean.dtype, mean, std, gen)
    return record("normal_tensor_float", result, {"mean": mean}, mean_sym_sizes=mean._shape)


def _float_tensor(mean: float, std: Tensor, gen, out) -> Tensor:
    _check_std_tensor(std)
    if out is not None:
        _into_out(out, std._shape)
        return _write(out, mean, std, gen)
    result = _fresh(std._shape, std.dtype, mean, std, gen)
    return record("normal_float_tensor", result, {"std": std}, std_sym_sizes=std._shape)


def _float_float(mean: float, std: float, size, gen, out, *, dtype=None, layout=None,
                 device=None, pin_memory=False, requires_grad=False) -> Tensor:
    placement("normal", device)
    shape = int_list("normal", "size", (size,), position=3, varargs=False)
    if out is None:
        result = empty(shape, dtype=dtype)
        _on_alias(result, lambda alias: alias.normal_(mean, std, generator=gen))
        return result.requires_grad_(True) if requires_grad else result
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(f"dtype {dtype.short} does not match dtype of out parameter "
                           f"({out.dtype.short})")
    out_variants.resize_output(out, tuple(shape), warn=False)  # resize_: no warning
    with grad_mode.no_grad():
        out.normal_(mean, std, generator=gen)
    return out.requires_grad_(True) if requires_grad else out


# --------------------------------------------------------------------------- bernoulli
def bernoulli(input: Tensor, p=None, *, generator=None, out=None) -> Tensor:  # noqa: A002
    """torch.bernoulli(input, *, generator=None, out=None); torch.bernoulli(input, p)."""
    if out is None:
        return bernoulli_function(input, p, generator=generator)
    if not isinstance(input, Tensor) or p is not None or not isinstance(out, Tensor):
        given = (input,) if p is None else (input, p)
        raise invalid_combination("bernoulli", given, BERNOULLI_FORMS, {"out": out})
    out_functions.start("bernoulli", out, (input,))
    # PyTorch's bernoulli_out: result.resize_(self.sizes()), no warning, then bernoulli_
    out_variants.resize_output(out, input._shape, warn=False)
    with grad_mode.no_grad():
        return out.bernoulli_(input, generator=generator)


# --------------------------------------------------------------------------- derivatives
@derivative("normal_tensor_float", "NormalBackward1", inputs=("mean",))
def _normal_mean_bw(ctx, g):
    return (zeros(ctx.attr("mean_sym_sizes"), dtype=g.dtype),)


@derivative("normal_float_tensor", "NormalBackward2", inputs=("std",))
def _normal_std_bw(ctx, g):
    return (zeros(ctx.attr("std_sym_sizes"), dtype=g.dtype),)


@derivative("normal_tensor_tensor", "NormalBackward3", inputs=("mean", "std"))
def _normal_both_bw(ctx, g):
    return (zeros(ctx.attr("mean_sym_sizes"), dtype=g.dtype) if ctx.needs(0) else None,
            zeros(ctx.attr("std_sym_sizes"), dtype=g.dtype) if ctx.needs(1) else None)


__all__ = ["bernoulli", "normal"]
