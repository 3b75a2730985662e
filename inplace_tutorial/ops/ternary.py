"""addcmul, addcdiv and lerp: the fused updates optimizers are built from.

The in-place forms work chunk by chunk through a small scratch buffer, so Adam's
``exp_avg_sq.addcmul_(g, g, value=1 - beta2)`` never materialises ``g * g``. Every dtype is
rounded as PyTorch's CPU kernels round it: float32 and float64 step by step in the kernels'
order, the last multiply-add of addcmul and lerp fused in the AVX2/AVX512 builds
(_float_kernel, with _fma.py's exact FMA); float16 and bfloat16 in float32 ("opmath"), each
step rounded to float32, addcmul and lerp ending in a fused multiply-add, and rounded to 16
bits once at the end.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record, record_inplace
from ..layout import broadcast_shapes
from ..tensor import Tensor, tensor_method
from . import _fma
from .arg_checks import check_number, check_overloads, check_tensor, is_number
from .reduced import is_reduced
from .tensor_iterator import arr, check_inplace_operands, shape_of, write_inplace
from .workspace import Scratch, chunks

_INTEGER_ADDCDIV = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv "
    "will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can "
    "be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
    "integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future "
    "addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
    "for all dtypes.")


def _round32(v: np.ndarray, t32: np.ndarray) -> None:
    """v = float32(v), kept in float64 (t32: float32 scratch of v's shape)."""
    np.copyto(t32, v, casting="unsafe")
    np.copyto(v, t32)


def _opmath_kernel(name: str, out: np.ndarray, base, a, b, scale, op: str) -> None:
    """float16/bfloat16: PyTorch's reduced-float kernels, in float32, rounded once to ``out``.
    addcmul: fma(value * t1, t2, self); addcdiv: value * t1 / t2 + self; lerp (weight w,
    d = end - self): fma(w, d, self) if |w| < 0.5 else fma(w - 1, d, end); the DEFAULT build
    rounds each fma's product to float32 first. Every step writes into the workspace (8
    float64 slots a chunk), so no temporary escapes the count."""
    f32 = np.float32
    ops = [np.broadcast_to(arr(x), out.shape) for x in (base, a, b)]
    w = np.broadcast_to(scale, out.shape) if isinstance(scale, np.ndarray) else None
    with Scratch(np.float64, op, 8 * out.size) as scratch:
        n = max(1, scratch.capacity // 8)
        for idx in chunks(out.shape, n):
            o = out[idx]
            buf = scratch.view((8,) + o.shape)
            x, y, z, r, bb, err = buf[:6]
            t32 = buf[6].reshape(-1).view(f32)[: o.size].reshape(o.shape)
            masks = buf[7].reshape(-1).view(np.bool_)
            m, m2 = (masks[k * o.size:(k + 1) * o.size].reshape(o.shape) for k in (0, 1))

            sv, av, bv = (v[idx] for v in ops)
            if name == "lerp":
                np.copyto(y, sv, casting="unsafe")
                np.copyto(z, bv, casting="unsafe")
                np.subtract(z, y, out=x)  # end - self, rounded to float32
                _round32(x, t32)
                np.copyto(r, w[idx] if w is not None else f32(scale), casting="unsafe")
                np.abs(r, out=bb)
                np.less(bb, 0.5, out=m)  # small weight
                np.copyto(z, y, where=m)  # the base: self for a small weight, else end
                np.subtract(r, 1, out=bb)
                _round32(bb, t32)
                np.logical_not(m, out=m2)
                np.copyto(r, bb, where=m2)
                np.copyto(y, r)
                x, y = y, x  # coefficient first, then d
            else:
                np.copyto(x, av, casting="unsafe")
                np.multiply(x, float(f32(scale)), out=x)  # value * t1 in float32
                _round32(x, t32)
                np.copyto(y, bv, casting="unsafe")
                np.copyto(z, sv, casting="unsafe")
            if name == "addcdiv":
                np.divide(x, y, out=r)  # two float32 steps: / then +
                _round32(r, t32)
                np.add(r, z, out=r)
            elif _fma.FUSED:  # (x, the coefficient, may be fma_into's last slot)
                _fma.fma_into(r, x, y, z, np.float32, [bb, r, buf[7], err, buf[6], x])
            else:  # the DEFAULT build: the product rounded to float32, then the sum
                np.multiply(x, y, out=r)
                _round32(r, t32)
                np.add(r, z, out=r)
            np.copyto(t32, r, casting="unsafe")
            np.copyto(o, t32, casting="unsafe")


def _fused_kernel(out: np.ndarray, base, a, b, combine, scale, op: str, inplace: bool,
                  dtype=None) -> None:
    """out = base + scale * combine(a, b), without a full-size temporary when in place;
    float32/float64 (``dtype``: the computation's) rounded as PyTorch's kernels round."""
    if is_reduced(out.dtype):
        _opmath_kernel(op.rstrip("_"), out, base, a, b, scale, op)
        return
    dtype = np.dtype(dtype or out.dtype)
    if dtype.kind == "f":
        _float_kernel(op.rstrip("_"), out, base, a, b, scale, op, dtype)
        return
    a, b = np.broadcast_to(arr(a), out.shape), np.broadcast_to(arr(b), out.shape)
    if not inplace:  # the fresh output is its own workspace
        combine(a, b, out=out, casting="unsafe")
        if isinstance(scale, np.ndarray) or scale != 1:
            np.multiply(out, scale, out=out, casting="unsafe")
        np.add(out, arr(base), out=out, casting="unsafe")
        return
    if isinstance(scale, np.ndarray):  # lerp's tensor weight, indexed chunk by chunk
        scale = np.broadcast_to(scale, out.shape)
    with Scratch(out.dtype, op, out.size) as scratch:
        for idx in chunks(out.shape, scratch.capacity):
            o = out[idx]
            tmp = scratch.view(o.shape)
            combine(a[idx], b[idx], out=tmp, casting="unsafe")
            if isinstance(scale, np.ndarray):
                np.multiply(tmp, scale[idx], out=tmp, casting="unsafe")
            elif scale != 1:
                np.multiply(tmp, scale, out=tmp)
            np.add(o, tmp, out=o)


def _float_kernel(name: str, out: np.ndarray, base, a, b, scale, op: str, dtype) -> None:
    """float32 and float64, each step rounded where PyTorch's kernel rounds it (its scalar
    lambda and its ``Vectorized`` body agree), in the kernel's order:
    addcmul: base + (value * t1) * t2; addcdiv: base + (value * t1) / t2; lerp (d = end -
    self): self + w * d if |w| < 0.5, else end - d * (1 - w). The AVX2/AVX512 builds fuse the
    last multiply-add of addcmul and lerp (``vec::fmadd``, and GCC contracts the scalar
    lambda's); addcdiv ends in a division, and the DEFAULT build has no FMA: two roundings."""
    out = out.reshape(out.shape or (1,))  # (a 0-dim out as one cell: fma_into's slots)
    ops = [np.broadcast_to(x, out.shape) if isinstance(x, np.ndarray) else dtype.type(x)
           for x in (arr(base), arr(a), arr(b), scale)]
    casts = [k for k, v in enumerate(ops) if isinstance(v, np.ndarray) and v.dtype != dtype]
    fused = _fma.FUSED and name != "addcdiv"
    weights = isinstance(ops[3], np.ndarray)  # lerp's weight tensor
    f = _fma.SLOTS if fused else 0
    steps = (4 if weights else 0) if fused else (4 if weights else 1)
    slots = f + steps + len(casts)  # scratch: [the FMA's][x, lerp's terms][casts]
    # x (value * t1, or lerp's d) shares a slot with the FMA when fma_into allows it
    at = f if not fused or weights else (2 if name == "lerp" else 5)
    with Scratch(np.float64, op, slots * out.size) as scratch:
        for idx in chunks(out.shape, max(1, scratch.capacity // slots)):
            o = out[idx]
            work = scratch.view((slots,) + o.shape)
            sv, av, bv = ops[0][idx], ops[1][idx], ops[2][idx]  # (always arrays)
            w = ops[3][idx] if weights else ops[3]
            if casts:  # an operand of another dtype, cast as TensorIterator casts it
                sv, av, bv, w = _cast([sv, av, bv, w], casts, work[f + steps:], dtype)
            x = _as(work[at], dtype)
            if name == "lerp":  # av is self again, bv end
                np.subtract(bv, sv, out=x)  # d
                coeff, start = _lerp_terms(w, sv, bv, work[f + 1:f + steps], dtype)
                if fused:
                    _fma.fma_into(o, coeff, x, start, dtype, work[:_fma.SLOTS])
                else:  # (end + (w - 1) * d is end - d * (1 - w) exactly: 1 - w is rounded
                    np.multiply(x, coeff, out=x)  # as w - 1 is)
                    np.add(start, x, out=o, casting="unsafe")
                continue
            np.multiply(av, w, out=x)  # value * t1, rounded
            if fused:
                _fma.fma_into(o, x, bv, sv, dtype, work[:_fma.SLOTS])
                continue
            (np.multiply if name == "addcmul" else np.divide)(x, bv, out=x)
            np.add(sv, x, out=o, casting="unsafe")


def _lerp_terms(w, self_, end, slots: np.ndarray, dtype) -> tuple:
    """lerp's coefficient and base: (w, self) where |w| < 0.5, else (w - 1, end). A weight
    tensor's are chosen per element, into ``slots`` (three float64 scratch arrays)."""
    if not isinstance(w, np.ndarray):
        return (w, self_) if abs(w) < 0.5 else (w - dtype.type(1), end)
    coeff, start, small = _as(slots[0], dtype), _as(slots[1], dtype), _as(slots[2], np.bool_)
    np.absolute(w, out=coeff)
    np.less(coeff, 0.5, out=small)
    np.subtract(w, dtype.type(1), out=coeff)
    np.copyto(coeff, w, where=small)
    np.copyto(start, end)
    np.copyto(start, self_, where=small)
    return coeff, start


def _as(slot: np.ndarray, dtype) -> np.ndarray:
    """A float64 scratch slot's first cells, in ``dtype`` and the slot's shape."""
    return slot.reshape(-1).view(dtype)[:slot.size].reshape(slot.shape)


def _cast(parts: list, which: list, slots: np.ndarray, dtype) -> list:
    """The operands in ``which`` copied into ``slots`` in the computation's dtype."""
    for j, k in enumerate(which):
        cast = _as(slots[j], dtype)
        np.copyto(cast, parts[k], casting="unsafe")
        parts[k] = cast
    return parts


def _lerp(a, b, out, casting):  # (end - self): lerp's "combine"
    np.subtract(b, a, out=out, casting=casting)


# name -> (how the two operands combine, their names in the derivative table)
_FAMILY = {
    "addcmul": (np.multiply, ("tensor1", "tensor2")),
    "addcdiv": (np.divide, ("tensor1", "tensor2")),
    "lerp": (_lerp, ("end", "weight")),
}


def _check_args(name: str, op: str, t1, t2, value) -> str:
    """PyTorch's argument checks (``op`` is the method's name), before anything is written;
    returns the derivative row."""
    if name == "lerp":
        if not isinstance(t1, Tensor) or not (isinstance(t2, Tensor) or is_number(t2)):
            check_overloads(op, ["weight"], (t2,), fixed=("end", t1))
        return "lerp_tensor" if isinstance(t2, Tensor) else "lerp"
    check_tensor(op, "tensor1", t1, position=1)
    check_tensor(op, "tensor2", t2, position=2)
    check_number(op, "value", value)
    if name == "addcdiv" and not dtypes.result_type(t1, t2).is_floating_point:
        raise RuntimeError(_INTEGER_ADDCDIV)
    return name


def _integral_value(name: str, value, rd):
    """addcmul's value as an integer kernel reads it: c10's checked conversion to the result
    type (-2.7 truncates to -2, -1 wraps into uint8, 300 into int8 is refused), before anything
    is written; Bool has no addcmul kernel at all."""
    if name == "lerp" or rd.is_floating_point:
        return value
    if rd is dtypes.bool_:
        raise NotImplementedError(f'"{name}_cpu_out" not implemented for \'Bool\'')
    return dtypes.checked_scalar(value, rd)


def _weight(t2):
    """lerp's weight as the kernel's scale: a Python number, or the weight tensor's array."""
    return arr(t2) if isinstance(t2, Tensor) else t2


def _fused(name: str, self: Tensor, t1, t2, value) -> Tensor:
    row = _check_args(name, name, t1, t2, value)
    combine, operands = _FAMILY[name]
    a, b, scale = (self, t1, _weight(t2)) if name == "lerp" else (t1, t2, value)
    rd = dtypes.result_type(self, t1, *(() if t2 is None or name == "lerp" else (t2,)))
    shape = broadcast_shapes(broadcast_shapes(shape_of(self), shape_of(a)), shape_of(b))
    if row == "lerp_tensor":
        shape = broadcast_shapes(shape, t2._shape)
    scale = _integral_value(name, scale, rd)
    out = Tensor._empty(shape, rd, name)
    _fused_kernel(out._array(), self, a, b, combine, scale, name, False)
    return record(row, out, {"self": self, operands[0]: t1, operands[1]: t2},
                  **_attrs(name, t2, value))


def _attrs(name: str, t2, value) -> dict:
    if name != "lerp":
        return {"value": value}
    return {} if isinstance(t2, Tensor) else {"weight": t2}


def _fused_(name: str, self: Tensor, t1, t2, value) -> Tensor:
    row = _check_args(name, name + "_", t1, t2, value)
    combine, operands = _FAMILY[name]
    scale = _weight(t2) if name == "lerp" else value
    others = tuple(x for x in (t1, t2) if isinstance(x, Tensor))
    rd = dtypes.result_type(self, *(others[:1] if name == "lerp" else others))
    scale = _integral_value(name, scale, rd)
    return record_inplace(
        row, self, {"self": self, operands[0]: t1, operands[1]: t2},
        compute=lambda: _fused_inplace(name, self, t1, t2, combine, scale, rd.np),
        check=lambda: check_inplace_operands(self, others, rd), **_attrs(name, t2, value))


def _fused_inplace(name: str, self: Tensor, t1, t2, combine, scale, dtype) -> None:
    """The in-place kernel over self's cells, in PyTorch's loop order when an operand overlaps
    self (``x[:, 1:].addcmul_(x[:, :-1], t)``: write_inplace); lerp's weight may be a tensor."""
    weighted = name == "lerp" and isinstance(t2, Tensor)

    def run(out, parts):
        s, p1, p2 = parts
        a, b = (s, p1) if name == "lerp" else (p1, p2)
        _fused_kernel(out, s, a, b, combine, p2 if weighted else scale, name + "_", True,
                      dtype)

    write_inplace(run, name + "_", self, [self._array(), arr(t1), arr(t2)], (t1, t2))


@binding()
@tensor_method
def addcmul(self, tensor1, tensor2, *, value=1) -> Tensor:
    """self + value * tensor1 * tensor2."""
    return _fused("addcmul", self, tensor1, tensor2, value)


@binding()
@tensor_method
def addcmul_(self, tensor1, tensor2, *, value=1) -> Tensor:
    return _fused_("addcmul", self, tensor1, tensor2, value)


@binding()
@tensor_method
def addcdiv(self, tensor1, tensor2, *, value=1) -> Tensor:
    """self + value * tensor1 / tensor2."""
    return _fused("addcdiv", self, tensor1, tensor2, value)


@binding()
@tensor_method
def addcdiv_(self, tensor1, tensor2, *, value=1) -> Tensor:
    return _fused_("addcdiv", self, tensor1, tensor2, value)


@binding()
@tensor_method
def lerp(self, end, weight=None) -> Tensor:
    """self + weight * (end - self)."""
    return _fused("lerp", self, end, weight, 1)


@binding()
@tensor_method
def lerp_(self, end, weight=None) -> Tensor:
    return _fused_("lerp", self, end, weight, 1)


@derivative("addcmul", "AddcmulBackward0", inputs=("self", "tensor1", "tensor2"),
            saves={"tensor1": "tensor2", "tensor2": "tensor1"})
def _addcmul_bw(ctx, g):
    v = ctx.attr("value")
    return (g, g * ctx.saved("tensor2") * v if ctx.needs(1) else None,
            g * ctx.saved("tensor1") * v if ctx.needs(2) else None)


@derivative("addcdiv", "AddcdivBackward0", inputs=("self", "tensor1", "tensor2"),
            saves={"tensor1": "tensor2", "tensor2": None})
def _addcdiv_bw(ctx, g):
    v, t2 = ctx.attr("value"), ctx.saved("tensor2")
    return (g, g * v / t2 if ctx.needs(1) else None,
            g.neg() * v * ctx.saved("tensor1") / (t2 * t2) if ctx.needs(2) else None)


@derivative("lerp", "LerpBackward0", inputs=("self", "end"))  # weight: a number, an attr
def _lerp_bw(ctx, g):
    w = ctx.attr("weight")
    return (g * (1 - w), g * w if ctx.needs(1) else None)


@derivative("lerp_tensor", "LerpBackward1", inputs=("self", "end", "weight"),
            saves={"self": None, "end": None, "weight": None})
def _lerp_tensor_bw(ctx, g):
    w = ctx.saved("weight")
    gw = None
    if ctx.needs(2):
        gw = g * (ctx.saved("end") - ctx.saved("self"))
    return (g * (1 - w) if ctx.needs(0) else None, g * w if ctx.needs(1) else None, gw)
