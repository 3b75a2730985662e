"""out= in the core: writes straight into out (0 B allocated), and the two places where the
core is stricter than PyTorch on purpose (wrong-shaped out, matmul out aliasing an input)."""
from __future__ import annotations

import pytest

import inplace_tutorial as ipt
from inplace_tutorial import memory


def test_out_allocates_nothing_and_bumps_out():
    a, b = ipt.randn(512, 512), ipt.randn(512, 512)
    c = ipt.empty(512, 512)
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    ipt.minimum(a, b, out=a)
    ipt.add(a, b, alpha=-0.5, out=a)
    ipt.matmul(a, b, out=c)
    assert memory.max_memory_allocated() == base
    assert a._version == 2 and c._version == 1


def test_wrong_shape_is_an_error_not_a_resize():
    with pytest.raises(RuntimeError, match=r"out= has shape \[2\] but the result has shape"):
        ipt.add(ipt.ones(3), 1, out=ipt.zeros(2))


def test_matmul_refuses_out_that_aliases_an_input():
    a, b = ipt.ones(3, 3), ipt.ones(3, 3)
    with pytest.raises(RuntimeError, match="out shares memory with an input"):
        ipt.matmul(a, b, out=a)
    assert a.tolist() == [[1.0] * 3] * 3 and a._version == 0  # nothing half-written


def test_ops_without_out_say_so():
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        ipt.sum(ipt.ones(2), out=ipt.zeros(()))
