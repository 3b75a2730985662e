"""Which in-place methods exist (``matmul_`` does not) and what they return.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once
with ``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import pytest

from .harness import Registry, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


# ======================================================================================
# which in-place methods exist


@prog
def exists_inplace_methods(t):
    x = t.zeros(2, 2)
    names = [
        "matmul_",
        "permute_",
        "minimum_",
        "maximum_",
        "transpose_",
        "t_",
        "clamp_",
        "clamp_min_",
        "clamp_max_",
        "pow_",
        "neg_",
        "zero_",
        "fill_",
        "copy_",
        "random_",
        "normal_",
        "add_",
        "mul_",
        "relu_",
        "sigmoid_",
        "addbmm_",
        "baddbmm_",
        "addmm_",
        "unsqueeze_",
        "squeeze_",
        "as_strided_",
        "view_",
        "reshape_",
        "expand_",
        "mm_",
        "bmm_",
        "einsum_",
        "softmax_",
        "sum_",
    ]
    return {n: hasattr(x, n) for n in names}


@prog
def random_and_normal_inplace_metadata(t):
    x = t.zeros(100)
    p = x.data_ptr()
    r = x.normal_()
    v1 = x._version
    y = t.zeros(50)
    y.random_(0, 10)
    xs, ys = x.tolist(), y.tolist()
    return {
        "same": r is x,
        "ptr": x.data_ptr() == p,
        "v1": v1,
        "nonzero": any(v != 0 for v in xs),
        "y_ints_in_range": all(v == int(v) and 0 <= v < 10 for v in ys),
        "y_version": y._version,
    }


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_inplace_methods_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
