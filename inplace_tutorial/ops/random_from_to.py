"""random_: integers drawn into a tensor of any dtype, with PyTorch's three overloads and the
range rules of its random_from_to kernel (DistributionTemplates.h).

random_() draws from [0, 2^digits] for a float type (the integers it holds exactly: 2^24 for
float32, 2^53 for float64) and [0, max] for the others (bool: both values); random_(to) from
[0, to); random_(from, to) from [from, to), ``to=None`` meaning the dtype's top. For float types
PyTorch first moves from/to onto values the dtype can hold (update_from/update_to) and warns
when the range goes past 2^digits. The draw itself is random.py's, in int64 chunks.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..tensor import Tensor, tensor_method
from .arg_checks import type_name
from .random import _DIGITS, _fill, _limits, _zeros_for
from .tensor_iterator import check_internal_overlap

# Generator.integers has no out=: each call returns an int64 array of its own, behind the
# allocator's back. 512 draws (4 KiB) a call keeps it as small as a few Python objects; the
# stream is the same whatever the chunk (the bit generator keeps its spare 32-bit half).
_INT_DRAW = 512


def _is_int(value) -> bool:
    if isinstance(value, Tensor):
        return value.numel() == 1 and value.dtype.category == dtypes.INTEGER
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


_RANDOM_FORMS = (" * (*, torch.Generator generator = None)",
                 " * (int from, int to, *, torch.Generator generator = None)",
                 " * (int to, *, torch.Generator generator = None)")


def _random_args(args: tuple, kwargs: dict) -> tuple[str, int, int | None]:
    """random_'s three overloads: () -> ("all", 0, None), (to) -> ("to", 0, to),
    (from, to) -> ("from", from, to or None)."""
    kwargs = dict(kwargs)
    kwargs.pop("generator", None)
    if "from" in kwargs or len(args) == 2 or (args and "to" in kwargs):
        values = [*args, *(kwargs[k] for k in ("from", "to") if k in kwargs)]
        form = "from"
    elif args or "to" in kwargs:
        values = [args[0] if args else kwargs["to"]]
        form = "to"
    else:
        return "all", 0, None
    if len(values) > 2:
        raise TypeError(f"random_() takes 2 positional arguments but {len(values)} were given")
    ok = all(_is_int(v) for v in values[:1]) and (
        len(values) == 1 or values[1] is None or _is_int(values[1]))
    if not ok:
        got = ", ".join(type_name(v) for v in values)
        lines = [f"random_() received an invalid combination of arguments - got ({got}), but "
                 "expected one of:", _RANDOM_FORMS[0]]
        if len(values) == 2:  # PyTorch explains the mismatch against its first form only
            marks = ", ".join(f"!{type_name(v)}!" for v in values)
            lines.append("      didn't match because some of the arguments have invalid "
                         f"types: ({marks})")
        raise TypeError("\n".join([*lines, *_RANDOM_FORMS[1:]]) + "\n")
    values = [None if v is None else int(v.item() if isinstance(v, Tensor) else v)
              for v in values]
    for v in values:
        if v is not None and not -(1 << 63) <= v < (1 << 63):
            raise ValueError("Overflow when unpacking long long")
    if form == "to":
        return "to", 0, values[0]
    return "from", values[0], values[1] if len(values) > 1 else None


def _to_float_type(v: int, d: dtypes.dtype) -> int:
    """``static_cast<int64_t>(static_cast<scalar_t>(v))``: Half and BFloat16 go through
    float, as c10 builds them; a result past int64 (or infinite) becomes int64's lowest
    value, as x86 converts it."""
    with np.errstate(over="ignore"):
        f = float(np.asarray(np.float32(v) if d in (dtypes.float16, dtypes.bfloat16)
                             else np.float64(v)).astype(d.np))
    return int(f) if math.isfinite(f) and f < (1 << 63) else -(1 << 63)


def _update_from(v: int, d: dtypes.dtype) -> int:
    """PyTorch's update_from: the next ``from`` that stays >= from once cast to the dtype."""
    plus_1 = _to_float_type(v + 1, d)
    if plus_1 < v:
        n = abs(v + 1).bit_length() - 1
        v = plus_1 + (1 << (n - _DIGITS[d] + 1))
    return v


def _update_to(v: int, d: dtypes.dtype) -> int:
    """PyTorch's update_to: the previous ``to`` that stays < to once cast to the dtype."""
    minus_1 = _to_float_type(v - 1, d)
    if minus_1 >= v:
        n = abs(v - 1).bit_length() - 1
        v = minus_1 - (1 << (n - _DIGITS[d] + 1))
    return v


def _check_random_range(lo: int, hi_inc: int, d: dtypes.dtype) -> None:
    """PyTorch's check_from_to_in_range, with its precision warning for float types."""
    mn, mx = _limits(d)
    for value, name in ((lo, "from"), (hi_inc, "to - 1")):
        if not mn <= value <= mx:
            raise RuntimeError(f"{name} is out of bounds for {d.c_name}")
    if d.category == dtypes.FLOATING:
        digits = _DIGITS[d]
        for value, name in ((lo, "from"), (hi_inc, "to - 1")):
            if not -(1 << digits) <= value <= (1 << digits):
                warnings.warn(
                    f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {d.c_name} can support discrete uniform distribution only "
                    "within this range. This warning will become an error in version 1.7 "
                    "release, please fix the code in advance", UserWarning, stacklevel=4)


def _random_range(self: Tensor, form: str, lo: int, to: int | None) -> tuple[int, int]:
    """The inclusive range [lo, hi] random_ draws from, after PyTorch's checks."""
    d = self.dtype
    check_internal_overlap(self)  # PyTorch builds its iterator before it checks the range
    if form == "all":  # [0, 2^digits] for float types, [0, max] for the others
        return 0, (1 << _DIGITS[d]) if d.category == dtypes.FLOATING else _limits(d)[1]
    if to is not None:
        if not lo < to:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                               f"from={lo} >= to={to}")
        if d.category == dtypes.FLOATING:
            lo, to = _update_from(lo, d), _update_to(to, d)
            if not lo < to:
                raise RuntimeError("random_ expects 'from' casted to dtype to be less than "
                                   f"'to' casted to dtype, but got from={lo} >= to={to}")
        _check_random_range(lo, to - 1, d)
        return lo, to - 1
    if lo == -(1 << 63):
        return lo, (1 << 63) - 1
    if d.category == dtypes.FLOATING:
        hi = 1 << _DIGITS[d]
        lo = _update_from(lo, d)
        if not lo < hi:
            raise RuntimeError("random_ expects 'from' casted to dtype to be less than or equal "
                               f"to 'to_inc' casted to dtype, but got from={lo} > to_inc={hi}")
    else:
        hi = _limits(d)[1]
    _check_random_range(lo, hi, d)
    return lo, hi


@binding()
@tensor_method
def random_(self, *args, generator=None, **kwargs) -> Tensor:
    """random_() draws from [0, 2^digits] (float types) or [0, max] (the others; bool gives
    both values); random_(to) from [0, to); random_(from, to) from [from, to), to=None
    meaning the dtype's top."""
    form, lo, to = _random_args(args, kwargs)
    bounds = []

    def check():
        bounds.extend(_random_range(self, form, lo, to))

    def sample(gen, buf, idx):
        flat = buf.reshape(-1)
        for i in range(0, flat.size, _INT_DRAW):
            part = flat[i:i + _INT_DRAW]
            part[...] = gen.integers(bounds[0], bounds[1], size=part.size, dtype=np.int64,
                                     endpoint=True)
    node = {"all": "random_", "to": "random_to", "from": "random_from"}[form]
    return _fill("random_", self, np.dtype(np.int64), sample, check, node_op=node)


derivative("random_from", "RandomBackward0")(_zeros_for)
derivative("random_to", "RandomBackward1")(_zeros_for)
derivative("random_", "RandomBackward2")(_zeros_for)
