"""clamp with number bounds and ``out=``, side by side with torch 2.13 (issue 11).

clamp, clamp_min, clamp_max and clip with Number bounds are structured kernels. Their meta
function promotes self with the bounds (int8 self, bound 1.5: the result is Float) and builds
a unary TensorIterator that wants out to have exactly that dtype ("Found dtype Char but
expected Float"). Then out is resized, with resize_output's deprecation warning when it had
elements, and only then does the kernel convert each bound to the result type: a bound the
type can't hold (300 for int8, 70000 for float16) raises after out took its new shape, with
out's version unchanged and no cell written. The cells a resize adds hold whatever the grown
buffer held, so only the old cells are compared after a failed call.
"""
import numpy as np
import pytest

from .harness import Registry, check_parity, into_out

pytestmark = pytest.mark.parity

prog = Registry()


def _ints(t, dtype):
    return t.tensor(np.array([1, 2, 3]), dtype=dtype)


@prog
def overflowing_bound_raises_after_the_resize_warning(t):
    x = _ints(t, t.int8)
    return [into_out(t, lambda o: t.clamp(x, 0, 300, out=o), t.zeros(2, dtype=t.int8)),
            into_out(t, lambda o: t.clamp_min(x, 300, out=o), t.zeros(2, dtype=t.int8)),
            into_out(t, lambda o: t.clamp_max(x, -200, out=o), t.zeros(2, dtype=t.int8)),
            into_out(t, lambda o: t.clip(x, max=300, out=o), t.zeros(2, dtype=t.int8))]


@prog
def overflowing_bound_every_dtype(t):
    obs = []
    for dtype, bound in ((t.uint8, 300), (t.int16, 40000), (t.int32, 2**40),
                         (t.float16, 70000), (t.bfloat16, 1e39), (t.float32, 1e39)):
        x = _ints(t, dtype)
        obs.append(into_out(t, lambda o, x=x, b=bound: t.clamp(x, 0, b, out=o),
                         t.zeros(2, dtype=dtype)))
    return obs


@prog
def empty_out_is_resized_without_a_warning_then_the_overflow(t):
    x = _ints(t, t.int8)
    return [into_out(t, lambda o: t.clamp(x, 0, 300, out=o), t.zeros(0, dtype=t.int8)),
            into_out(t, lambda o: t.clamp(x, -1000, out=o), t.zeros(1, 3, dtype=t.int8)),
            into_out(t, lambda o: t.clamp(x, 0, 300, out=o), t.zeros(3, dtype=t.int8))]


@prog
def number_bounds_promote_before_the_dtype_check(t):
    """int8 self with a float bound: out must be Float; float self: out must be self's."""
    x = _ints(t, t.int8)
    f = t.tensor([1.0, -2.0, 3.0])
    calls = [(lambda o: t.clamp(x, 0, 1.5, out=o), t.int8),
             (lambda o: t.clamp(x, 0, 1.5, out=o), t.float32),
             (lambda o: t.clamp(x, 0, 1.5, out=o), t.float64),
             (lambda o: t.clamp_min(x, 1.5, out=o), t.int8),
             (lambda o: t.clamp_min(x, 1.5, out=o), t.float32),
             (lambda o: t.clamp_max(x, 1.5, out=o), t.float32),
             (lambda o: t.clip(x, 0.5, out=o), t.int64),
             (lambda o: t.clamp(x, 0, 2, out=o), t.int8),
             (lambda o: t.clamp(x, 0, 2, out=o), t.int64),
             (lambda o: t.clamp(f, 0, 1e39, out=o), t.float64),
             (lambda o: t.clamp(_ints(t, t.int64), 0, 1e19, out=o), t.int64),
             (lambda o: t.clamp(_ints(t, t.int8), np.float64(3.5), out=o), t.float32)]
    return [into_out(t, c, t.zeros(2, dtype=d)) for c, d in calls]


@prog
def bool_self_number_bounds(t):
    """bool self, int bounds: Long expected; bool bounds keep Bool, and the kernel has none."""
    b = t.tensor([True, False, True])
    return [into_out(t, lambda o: t.clamp(b, 0, 1, out=o), t.zeros(2, dtype=t.bool)),
            into_out(t, lambda o: t.clamp_min(b, True, out=o), t.zeros(2, dtype=t.bool)),
            into_out(t, lambda o: t.clamp(b, False, True, out=o), t.zeros(3, dtype=t.bool))]


@prog
def meta_errors_come_before_the_resize(t):
    x = _ints(t, t.int8)
    return [into_out(t, lambda o: t.clamp(x, out=o), t.zeros(2, dtype=t.float32)),
            into_out(t, lambda o: t.clamp(x, None, None, out=o), t.zeros(2, dtype=t.int8))]


@prog
def good_calls_resize_and_write(t):
    x = t.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
    obs = []
    for call in (lambda o: t.clamp(x, -1, 2, out=o), lambda o: t.clamp_min(x, 0.5, out=o),
                 lambda o: t.clamp_max(x, 0, out=o), lambda o: t.clip(x, max=4, out=o)):
        o = t.zeros(4)
        r = into_out(t, call, o)
        r["values"] = o
        obs.append(r)
    return obs


@pytest.mark.parametrize("program", prog.params())
def test_clamp_out_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 7
