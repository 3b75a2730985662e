"""positive, angle, signbit: three questions about the sign of a real number.

``positive`` is unary plus (``+x``): PyTorch returns the tensor itself, the same object with
no node, and refuses bool. ``angle`` is the complex argument of a real number: pi for a
negative one, 0 otherwise (-0.0 included), NaN for NaN; integers give a float result. Its
node, AngleBackward0, saves self and sends back zeros: the angle is flat wherever it has a
slope. ``signbit`` reads the sign bit itself (True for -0.0 and for a negative NaN), a bool
result that carries no gradient. None of the three has an in-place form; angle and signbit
take ``out=`` (ops/out_variants.py).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..cpu_capability import VECTOR_INSTRUCTIONS
from ..creation import zeros_like
from ..tensor import Tensor, tensor_method
from ._pointwise import new_output
from .cpu_lanes import element_strides, vector_mask
from .tensor_iterator import new_elementwise


# --------------------------------------------------------------------------- positive
@tensor_method
def positive(self) -> Tensor:
    """``+x``: x itself (torch.positive is ``return self;``), refused for bool."""
    if self.dtype is dtypes.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return self


@tensor_method
def __pos__(self, *args, **kwargs) -> Tensor:
    # torch's Tensor.__pos__ IS TensorBase.positive: x.__pos__(1) is refused as positive()
    return Tensor.positive(self, *args, **kwargs)


# --------------------------------------------------------------------------- angle
def angle_kernel(x, out, dtype):
    """pi where x < 0, else +0.0; a NaN stays NaN (its bits: _angle_nan_bits)."""
    if x.dtype.kind != "f" or x.dtype != out.dtype:  # integers, bool: no NaN to keep
        np.less(x, 0, out=out, casting="unsafe")
    else:  # (float to float: no cast, so NumPy makes no loop buffer)
        with np.errstate(invalid="ignore"):
            np.heaviside(x, 1, out=out)  # 0 where x < 0, 1 where x >= 0, NaN for NaN
        np.subtract(1, out, out=out)
    np.multiply(out, out.dtype.type(np.pi), out=out)


# the NaN a vector lane of PyTorch's AVX2/AVX512 angle leaves: float's canonical NaN, rounded
# to float16 as it is; bfloat16's vectorised float -> bfloat16 conversion writes NaN as 0xFFFF
_VECTOR_NAN = {"float16": np.uint16(0x7E00), "bfloat16": np.uint16(0xFFFF),
               "float32": np.uint32(0x7FC00000), "float64": np.uint64(0x7FF8000000000000)}


def _angle_nan_bits(out: Tensor, self: Tensor) -> None:
    """PyTorch's angle_impl returns a NaN input as it is (sign and payload): so do the
    element loop and the DEFAULT build's vectors. An AVX2/AVX512 vector builds the NaN
    itself (_VECTOR_NAN) for the elements it takes (cpu_lanes.py)."""
    x = self._array()
    with np.errstate(invalid="ignore", over="ignore"):
        if not np.isnan(np.add.reduce(x, axis=None)):
            return  # no NaN in: no mask (inf + -inf only sends us down the slow path)
    mask_t = Tensor._empty(self._shape, dtypes.bool_, "angle (NaN mask)")
    m = mask_t._array()
    np.isnan(x, out=m)
    uint = f"u{self.dtype.itemsize}"
    o = out._array()
    np.copyto(o.view(uint), x.view(uint), where=m)
    if VECTOR_INSTRUCTIONS:
        shape = out._shape
        vector = vector_mask(shape, [out._stride, element_strides(self, shape)],
                             out.dtype.itemsize)
        if vector is not None:
            np.logical_and(m, vector, out=m)
            np.copyto(o.view(uint), _VECTOR_NAN[str(out.dtype.np)], where=m)


@tensor_method
def angle(self) -> Tensor:
    out = new_elementwise("angle", True, angle_kernel, self)
    if self.dtype.is_floating_point and out.numel():
        _angle_nan_bits(out, self)
    return out


@derivative("angle", "AngleBackward0", saves={"self": None})
def _angle_bw(ctx, g):
    # derivatives.yaml: angle_backward(grad, self), for a real self
    # zeros_like(self, preserve_format): self's layout, whatever grad holds (NaN too)
    return (zeros_like(ctx.saved("self")),)


# --------------------------------------------------------------------------- signbit
@tensor_method
def signbit(self) -> Tensor:
    out = new_output("signbit", self._shape, dtypes.bool_, (self,))
    x, o = self._array(), out._array()
    if self.dtype.is_floating_point:
        np.signbit(x, out=o)
    elif self.dtype.is_signed:  # (uint8 and bool have no sign: all False)
        np.less(x, 0, out=o)
    else:
        o.fill(False)
    return out
