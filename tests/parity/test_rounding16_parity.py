"""The last bits of float16/bfloat16 rsqrt and sinc on torch 2.13 and the core (issue 10):
every one of the 65,536 bit patterns of each type, in place and out of place, contiguous
(rsqrt's vector loop in the AVX2/AVX512 builds rounds once), strided and in row tails (its
element loop rounds sqrt to 16 bits first), and with out=. sinc has no vector loop: pi x,
its sine and the quotient in float32, one rounding. capability_runner.py runs these
programs under each of PyTorch's CPU builds too.
"""

import pytest

from .harness import Registry, check_parity, every_16bit_pattern
from .test_nan_sign_parity import bits

pytestmark = pytest.mark.parity

prog = Registry()


@prog
def rsqrt_and_sinc_16bitevery_16bit_pattern(t):
    out = {}
    for dtype in ("float16", "bfloat16"):
        x = every_16bit_pattern(t, dtype)
        for op in ("rsqrt", "sinc"):
            o = t.empty(256, 256, dtype=x.dtype).t()
            getattr(t, op)(x.reshape(256, 256), out=o)
            out[f"{dtype}_{op}"] = (
                bits(getattr(x, op)()), bits(getattr(x.clone(), op + "_")()),
                bits(getattr(x[::3], op)()),
                bits(getattr(x.reshape(512, 128)[:, :100], op)()),  # vectors, then a tail
                bits(o))
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_rounding16_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
