"""Random fills: ``normal_``, ``uniform_``, ``bernoulli_``, ``exponential_``, ``geometric_``,
``log_normal_``, ``cauchy_``, and the draw that ``random_`` (random_from_to.py) uses. Each
overwrites self with draws from the core's generator (``generator.manual_seed``), so the values
can't match PyTorch's; the argument checks, dtypes, ranges, versions and node names do.

Every check runs before the first draw, in PyTorch's order (DistributionTemplates.h): the
argument's value, then the dtype, the empty-tensor shortcut and the overlap check, in the order
each kernel of PyTorch happens to make them. Under autograd a fill is an in-place op whose
backward sends zeros to self (the old values no longer matter), as fill_ does (ops/fill.py).
"""
from __future__ import annotations

import math

import numpy as np

from .. import dtypes
from ..arg_parser import binding
from ..autograd import grad_mode
from ..autograd.derivatives import derivative
from ..autograd.record import record_inplace
from ..generator import default_generator
from ..tensor import Tensor, tensor_method
from .arg_checks import argument_error, is_number, type_name
from .tensor_iterator import check_internal_overlap
from .workspace import Scratch, chunks

# PyTorch's std::numeric_limits<scalar_t>::digits: integers a float type holds exactly
_DIGITS = {dtypes.float16: 11, dtypes.bfloat16: 8, dtypes.float32: 24, dtypes.float64: 53}


def _zeros_for(ctx, g):
    return (g * 0,)


def _zeros_for_both(ctx, g):
    return (g * 0 if ctx.needs(0) else None, g * 0 if ctx.needs(1) else None)


def _num(x: float) -> str:
    """A double as C++'s ``operator<<`` prints it (six significant digits): -1, 1.5, 3e+38."""
    return f"{x:g}"


# --------------------------------------------------------------------------- arguments
def _float_arg(op: str, name: str, position: int, value) -> float:
    """A ``float`` parameter of PyTorch's signature: a Python or NumPy number, or a
    one-element tensor (PyTorch's parser takes those too)."""
    if isinstance(value, Tensor) and value.numel() == 1:
        return float(value.item())
    if is_number(value) and not isinstance(value, complex):
        return float(value)
    raise argument_error(op, name, position, "float", value)


# --------------------------------------------------------------------------- checks
def _not_implemented(kernel: str, d: dtypes.dtype) -> NotImplementedError:
    return NotImplementedError(f'"{kernel}" not implemented for \'{d.short}\'')


def _continuous(name: str, d: dtypes.dtype, c_type: bool) -> RuntimeError:
    """exponential_ and cauchy_ name the dtype differently (ScalarType vs C type)."""
    return RuntimeError(f"{name} distribution is a continuous probability distribution. dtype "
                        f"must be a floating point but you specified "
                        f"{d.c_name if c_type else d.short}")


_FLOAT_MAX = {dtypes.float16: 65504.0, dtypes.bfloat16: 3.3895313892515355e38,
              dtypes.float32: float(np.finfo(np.float32).max),
              dtypes.float64: float(np.finfo(np.float64).max)}


def _limits(d: dtypes.dtype) -> tuple:
    """std::numeric_limits<scalar_t>::lowest() and max()."""
    if d.category == dtypes.FLOATING:
        return -_FLOAT_MAX[d], _FLOAT_MAX[d]
    if d is dtypes.bool_:
        return 0, 1
    info = np.iinfo(d.np)
    return int(info.min), int(info.max)


# --------------------------------------------------------------------------- the draw
def _compute_np(d: dtypes.dtype) -> np.dtype:
    """The NumPy type a continuous draw is made in: float16/bfloat16 through float32."""
    return np.dtype(np.float64) if d is dtypes.float64 else np.dtype(np.float32)


def _draw_into(a: np.ndarray, compute: np.dtype, sample, op: str, generator=None) -> None:
    """Fill ``a`` with ``sample(gen, buf, idx)``, which writes draws into the C-contiguous
    ``buf`` for the cells ``a[idx]``: straight into ``a`` when it is contiguous and of the
    compute type, else one workspace chunk at a time, cast on the way (no input-sized
    temporary). ``generator``: a NumPy Generator to draw from instead of the core's own."""
    gen = default_generator() if generator is None else generator
    if a.size == 0:
        return
    if a.flags.c_contiguous and a.dtype == compute:
        sample(gen, a, (Ellipsis,))
        return
    with Scratch(compute, op, a.size) as scratch, np.errstate(invalid="ignore", over="ignore"):
        for idx in chunks(a.shape, scratch.capacity):
            part = a[idx]
            tmp = scratch.view(part.shape)
            sample(gen, tmp, idx)
            np.copyto(part, tmp, casting="unsafe")


def _fill(op: str, self: Tensor, compute: np.dtype, sample, check=None, inputs=None,
          node_op: str | None = None, generator=None) -> Tensor:
    a = self._array()
    return record_inplace(node_op or op, self, inputs or {"self": self},
                          compute=lambda: _draw_into(a, compute, sample, op, generator),
                          check=check)


def _empty_or(self: Tensor, then) -> None:
    """PyTorch returns before its kernel (and the kernel's checks) for an empty tensor."""
    if self.numel():
        then()


def _overlap_then(self: Tensor, dtype_check) -> None:
    check_internal_overlap(self)
    dtype_check()


@binding()
@tensor_method
def normal_(self, mean: float = 0.0, std: float = 1.0, *, generator=None) -> Tensor:
    mean = _float_arg("normal_", "mean", 1, mean)
    std = _float_arg("normal_", "std", 2, std)

    def check():
        if not std >= 0.0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {_num(std)}")

        def kernel():
            if self.dtype.category != dtypes.FLOATING:
                raise _not_implemented("normal_kernel_cpu", self.dtype)
            check_internal_overlap(self)
        _empty_or(self, kernel)

    def sample(gen, buf, idx):
        gen.standard_normal(out=buf, dtype=buf.dtype)
        buf *= std
        buf += mean
    return _fill("normal_", self, _compute_np(self.dtype), sample, check, generator=generator)


@binding()
@tensor_method
def uniform_(self, from_: float = 0.0, to: float = 1.0, *, generator=None) -> Tensor:
    lo = _float_arg("uniform_", "from", 1, from_)
    hi = _float_arg("uniform_", "to", 2, to)

    def check():
        d = self.dtype
        if d.category != dtypes.FLOATING:
            raise _not_implemented("check_uniform_bounds", d)
        mn, mx = _limits(d)
        for value, name in ((lo, "from"), (hi, "to")):
            if not mn <= value <= mx:
                raise RuntimeError(f"{name} is out of bounds for {d.c_name}")
        if not lo <= hi:
            raise RuntimeError("uniform_ expects to return a [from, to) range, but found "
                               f"from={_num(lo)} > to={_num(hi)}")
        if not hi - lo <= mx:
            raise RuntimeError(
                f"uniform_ expects to-from <= std::numeric_limits<{d.short}>::max(), but found "
                f"to={_num(hi)} and from={_num(lo)} which result in to-from to exceed the limit")
        _empty_or(self, lambda: check_internal_overlap(self))

    def sample(gen, buf, idx):
        gen.random(out=buf, dtype=buf.dtype)
        buf *= hi - lo
        buf += lo
    return _fill("uniform_", self, _compute_np(self.dtype), sample, check)


def _bernoulli_p(self: Tensor, p: Tensor) -> Tensor:
    """p expanded to self's shape (PyTorch's error if it can't be), checked as PyTorch does."""
    with grad_mode.no_grad():
        expanded = p.expand(self._shape)
    if p.dtype.category != dtypes.FLOATING:
        raise _not_implemented("bernoulli_tensor_cpu_p_", p.dtype)
    values = p._array()  # min and max (NaN propagates) need no input-sized temporary
    if values.size and not (values.min() >= 0 and values.max() <= 1):
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could "
                           "this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    return expanded


@binding()
@tensor_method
def bernoulli_(self, p=0.5, *, generator=None) -> Tensor:
    """Each cell becomes 1 with probability p (a number, or a tensor that expands to self)."""
    if isinstance(p, Tensor):
        return _bernoulli_tensor(self, p)
    if not is_number(p) or isinstance(p, complex):
        raise TypeError(
            f"bernoulli_() received an invalid combination of arguments - got "
            f"({type_name(p)}), but expected one of:\n"
            " * (Tensor p, *, torch.Generator generator = None)\n"
            " * (float p = 0.5, *, torch.Generator generator = None)\n")
    p = float(p)

    def check():
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_num(p)}")
        _empty_or(self, lambda: check_internal_overlap(self))

    def sample(gen, buf, idx):
        gen.random(out=buf, dtype=buf.dtype)
        np.less(buf, p, out=buf, casting="unsafe")
    compute = np.dtype(np.float64 if self.dtype is dtypes.float64 else np.float32)
    return _fill("bernoulli_", self, compute, sample, check)


def _bernoulli_tensor(self: Tensor, p: Tensor) -> Tensor:
    probs = []

    def check():
        if self.numel():
            check_internal_overlap(self)
            probs.append(_bernoulli_p(self, p))
            if p._storage is self._storage:  # read p before the draw overwrites it
                with grad_mode.no_grad():
                    probs[0] = probs[0].clone()

    def sample(gen, buf, idx):
        gen.random(out=buf, dtype=buf.dtype)
        pa = probs[0]._array()[idx]
        np.less(buf, pa.astype(np.float64) if pa.dtype.kind == "V" else pa, out=buf,
                casting="unsafe")
    return _fill("bernoulli_", self, np.dtype(np.float64), sample, check,
                 inputs={"self": self, "p": p}, node_op="bernoulli_tensor")


@binding()
@tensor_method
def exponential_(self, lambd: float = 1.0, *, generator=None) -> Tensor:
    lambd = _float_arg("exponential_", "lambd", 1, lambd)

    def check():
        if not lambd > 0.0:
            raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda="
                               f"{_num(lambd)}")

        def dtype_check():
            if self.dtype.category != dtypes.FLOATING:
                raise _continuous("Exponential", self.dtype, c_type=False)
        _empty_or(self, lambda: _overlap_then(self, dtype_check))

    def sample(gen, buf, idx):
        gen.standard_exponential(out=buf, dtype=buf.dtype)
        buf /= lambd
    return _fill("exponential_", self, _compute_np(self.dtype), sample, check)


@binding()
@tensor_method
def geometric_(self, p: float, *, generator=None) -> Tensor:
    """The number of Bernoulli(p) trials up to the first success: 1, 2, 3 ..."""
    p = _float_arg("geometric_", "p", 1, p)

    def check():
        if not 0 < p < 1:
            raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_num(p)}")

        def dtype_check():
            if self.dtype is dtypes.bool_:
                raise _not_implemented("geometric_cpu", self.dtype)
        _empty_or(self, lambda: _overlap_then(self, dtype_check))

    def sample(gen, buf, idx):  # ceil(log(u) / log(1 - p)) for u uniform in (0, 1]
        gen.random(out=buf, dtype=buf.dtype)
        np.subtract(1.0, buf, out=buf)
        np.log(buf, out=buf)
        buf /= math.log1p(-p)
        np.ceil(buf, out=buf)
    return _fill("geometric_", self, np.dtype(np.float64), sample, check)


@binding()
@tensor_method
def log_normal_(self, mean: float = 1.0, std: float = 2.0, *, generator=None) -> Tensor:
    """exp of a normal draw with this mean and std."""
    mean = _float_arg("log_normal_", "mean", 1, mean)
    std = _float_arg("log_normal_", "std", 2, std)

    def check():
        if not std > 0.0:
            raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_num(std)}")

        def dtype_check():
            if self.dtype.category != dtypes.FLOATING:
                raise _not_implemented("log_normal_cpu", self.dtype)
        _empty_or(self, lambda: _overlap_then(self, dtype_check))

    def sample(gen, buf, idx):
        gen.standard_normal(out=buf, dtype=buf.dtype)
        buf *= std
        buf += mean
        np.exp(buf, out=buf)
    return _fill("log_normal_", self, _compute_np(self.dtype), sample, check)


@binding()
@tensor_method
def cauchy_(self, median: float = 0.0, sigma: float = 1.0, *, generator=None) -> Tensor:
    """median + sigma * tan(pi * (u - 1/2)) for u uniform in [0, 1)."""
    median = _float_arg("cauchy_", "median", 1, median)
    sigma = _float_arg("cauchy_", "sigma", 2, sigma)

    def check():
        if not sigma > 0.0:
            raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_num(sigma)}")
        if self.dtype.category != dtypes.FLOATING:
            raise _continuous("Cauchy", self.dtype, c_type=True)
        _empty_or(self, lambda: check_internal_overlap(self))

    def sample(gen, buf, idx):
        gen.random(out=buf, dtype=buf.dtype)
        buf -= 0.5
        buf *= math.pi
        np.tan(buf, out=buf)
        buf *= sigma
        buf += median
    return _fill("cauchy_", self, _compute_np(self.dtype), sample, check)


derivative("normal_", "NormalBackward0")(_zeros_for)
derivative("uniform_", "UniformBackward0")(_zeros_for)
derivative("bernoulli_tensor", "BernoulliBackward1", inputs=("self", "p"))(_zeros_for_both)
derivative("bernoulli_", "BernoulliBackward2")(_zeros_for)
derivative("exponential_", "ExponentialBackward0")(_zeros_for)
derivative("geometric_", "GeometricBackward0")(_zeros_for)
derivative("log_normal_", "LogNormalBackward0")(_zeros_for)
derivative("cauchy_", "CauchyBackward0")(_zeros_for)
