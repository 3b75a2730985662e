"""torch.fmax / torch.fmin (issue 10): NaN-skipping maximum and minimum, their backward
(FmaxBackward0/FminBackward0 save self and other), out=, their errors, and the bits they leave
(ties, signalling NaNs, two NaNs) in every float dtype; capability_runner.py runs the bit
programs under each of PyTorch's CPU builds too.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, meta, upstream, warned
from .test_nan_sign_parity import bits

pytestmark = pytest.mark.parity

prog = Registry()

NAN = float("nan")


@prog
def fmax_fmin_values_grads_and_saved(t):
    out = {}
    for name in ("fmax", "fmin"):
        a = leaf(t, np.array([1.0, NAN, 2.0, 0.0, -3.0, NAN], dtype=np.float32))
        b = leaf(t, np.array([NAN, 3.0, 2.0, -0.0, 4.0, NAN], dtype=np.float32))
        r = getattr(t, name)(a, b)
        saved = (r.grad_fn._saved_self, r.grad_fn._saved_other)
        r.backward(upstream(t, r))
        out[name] = {"r": r, "fn": fn_name(r.grad_fn), "saved": saved, "ga": a.grad,
                     "gb": b.grad, "method": getattr(a, name)(b),
                     "nexts": [fn_name(f) for f, _ in r.grad_fn.next_functions]}
    return out


@prog
def fmax_fmin_broadcast_and_promotion_grads(t):
    """A (2, 3) self and a (3,) float64 other: the result is float64, each gradient is summed
    back to its input's shape and dtype; NaN upstream gradients stay where they are picked."""
    out = {}
    for name in ("fmax", "fmin"):
        a = leaf(t, arr(2, 3, seed=1))
        b = t.tensor(np.array([0.5, NAN, -0.25]), requires_grad=True)
        r = getattr(t, name)(a, b)
        g = t.tensor(np.array([[1.0, NAN, 2.0], [-1.0, 0.5, NAN]]))
        r.backward(g)
        out[name] = {"r": r, "dtype": str(r.dtype), "ga": a.grad, "gb": b.grad,
                     "ints": getattr(t, name)(t.tensor([1, 5, -2]), t.tensor([3, 2, -2])),
                     "int_float": getattr(t, name)(t.tensor([1, 5]), t.tensor([2.5, NAN])),
                     "bools": getattr(t, name)(t.tensor([True, False]), t.tensor([False, False])),
                     "int8_uint8": getattr(t, name)(t.tensor([1, -5], dtype=t.int8),
                                                    t.tensor([200, 3], dtype=t.uint8)),
                     "zero_dim": getattr(t, name)(t.tensor(NAN), t.tensor([1.0, NAN])),
                     "meta_t": meta(getattr(t, name)(t.tensor(arr(3, 2)).t(),
                                                     t.tensor(arr(2, 3)))),
                     "empty": getattr(t, name)(t.zeros(0, 3), t.zeros(3))}
    return out


def _specials(t, dtype):
    """Every NaN kind (quiet, payload, signalling, both signs), both zeros, ±1, ±inf."""
    if dtype == "float32":
        u = [0x7FC00000, 0xFFC00000, 0x7FC12345, 0xFFC12345, 0x7FA00000, 0xFFA00001, 0,
             0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000]
        return t.tensor(np.array(u, dtype=np.uint32).view(np.float32))
    if dtype == "float64":
        u = [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF8000012345000, 0x7FF4000000000000,
             0xFFF4000000000001, 0, 0x8000000000000000, 0x3FF0000000000000]
        return t.tensor(np.array(u, dtype=np.uint64).view(np.float64))
    u = ([0x7E00, 0xFE00, 0x7E23, 0xFE23, 0x7D00, 0xFD01, 0, 0x8000, 0x3C00, 0xBC00, 0x7C00]
         if dtype == "float16" else
         [0x7FC0, 0xFFC0, 0x7FC3, 0xFFA0, 0x7FA1, 0, 0x8000, 0x3F80, 0xBF80, 0x7F80])
    return t.tensor(np.array(u, dtype=np.uint16).view(np.int16)).view(getattr(t, dtype))


@prog
def fmax_fmin_bits_every_pair(t):
    """Each special value against each, at the length of all pairs, and alone (one element),
    a broadcast row, a transposed and a strided view: ties keep self, a signalling NaN
    against a number is a NaN, two NaNs give other's (16-bit types: their own rules)."""
    out = {}
    for dtype in ("float32", "float64", "float16", "bfloat16"):
        s = _specials(t, dtype)
        n = s.numel()
        a, b = s.repeat_interleave(n), s.repeat(n)
        for name in ("fmax", "fmin"):
            f = getattr(t, name)
            out[f"{dtype}_{name}"] = (
                bits(f(a, b)), [bits(f(a[k:k + 1], b[k:k + 1])) for k in range(0, n * n, n + 1)],
                bits(f(a.reshape(n, n), s)), bits(f(a.reshape(n, n).t(), b.reshape(n, n).t())),
                bits(f(a[::3][: b[1::3].numel()], b[1::3])))
    return out


@prog
def fmax_fmin_zero_ties_every_length(t):
    """0.0 against -0.0 at lengths where NumPy's loops change their answer: self's zero."""
    out = {}
    for dtype in ("float32", "float64", "float16", "bfloat16"):
        for n in (1, 3, 8, 16, 33, 100):
            z = t.zeros(n, dtype=getattr(t, dtype))
            m = -z
            out[f"{dtype}_{n}"] = [bits(getattr(t, f)(x, y)) for f in ("fmax", "fmin")
                                   for x, y in ((z, m), (m, z))]
    return out


@prog
def fmax_fmin_out(t):
    out = {}
    a, b = t.tensor([1.0, NAN, 2.0]), t.tensor([NAN, 3.0, 5.0])
    for name in ("fmax", "fmin"):
        f = getattr(t, name)
        o = t.zeros(3)
        v0 = o._version
        r = f(a, b, out=o)
        wide = t.zeros(3, dtype=t.float64)
        grown, warns = warned(lambda: f(a, b, out=t.zeros(2)))  # noqa: B023
        out[name] = {
            "r": r, "same": r is o, "bumped": o._version - v0,
            "wide": f(a, b, out=wide), "wide_dtype": str(wide.dtype),
            "grown": grown, "warns": warns,
            "int_out": catch(lambda: f(a, b, out=t.zeros(3, dtype=t.int64))),  # noqa: B023
            "int_inputs_float_out": f(t.tensor([1, 4]), t.tensor([3, 2]), out=t.zeros(2)),
            "requires_grad": catch(lambda: f(leaf(t, arr(3)), b, out=t.zeros(3))),  # noqa: B023
            "no_grad_out": catch(lambda: f(a, b, out=t.zeros(3, requires_grad=True))),  # noqa: B023
            "bits": bits(f(_specials(t, "float32"), _specials(t, "float32").flip(0),
                           out=t.empty(12))),
        }
    return out


@prog
def fmax_fmin_bad_calls(t):
    x = t.tensor([1.0, 2.0])
    return {
        "number_other": catch(lambda: t.fmax(x, 1.5)),
        "method_number": catch(lambda: x.fmin(2)),
        "no_other": catch(lambda: x.fmax()),
        "none_other": catch(lambda: t.fmin(x, None)),
        "shapes": catch(lambda: t.fmax(x, t.zeros(3))),
        "no_inplace": catch(lambda: x.fmax_(x)),
        "keyword": x.fmax(other=t.tensor([0.0, 5.0])),
        "keyword_function": t.fmin(input=x, other=t.tensor([0.0, 5.0])),
    }


@pytest.mark.parametrize("prog", prog.params())
def test_fmax_fmin_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
