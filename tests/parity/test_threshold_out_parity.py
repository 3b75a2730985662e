"""torch.threshold with ``out=``, and threshold's Scalars converted with c10's overflow check,
side by side with torch 2.13 (issue 11).

threshold.out is a structured TensorIterator kernel built without an overlap check: out= refuses
autograd, out's dtype must hold self's, out is resized (with its warning when it had
elements), then the kernel converts threshold and value to self's type (a float16/bfloat16
self compares in float, so only its value must fit the 16-bit type): an overflowing Scalar
raises after the resize, out's version unchanged. The same conversion refuses before any write
in threshold, threshold_ and F.threshold(inplace=True).
"""
import numpy as np
import pytest

from .harness import Registry, catch, check_parity, into_out

pytestmark = pytest.mark.parity

prog = Registry()


def _x(t, dtype=None):
    return t.tensor(np.array([1.0, -2.0, 0.5], dtype=np.float32), dtype=dtype)


@prog
def threshold_out_writes_and_returns_out(t):
    x = _x(t)
    obs = []
    for out in (t.zeros(3), t.zeros(2), t.zeros(0), t.zeros(3, dtype=t.float64),
                t.zeros(3, dtype=t.float16)):
        r = into_out(t, lambda o: t.threshold(x, 0.6, 9.0, out=o), out)
        r["values"] = out
        obs.append(r)
    o = t.zeros(3)
    obs.append(into_out(t, lambda out: t.threshold(input=x, threshold=0.5, value=1, out=out), o))
    return obs


@prog
def threshold_out_layouts(t):
    x = t.tensor(np.array([[1.0, -2.0, 0.5], [3.0, 4.0, -1.0]], dtype=np.float32))
    o = t.zeros(6)
    e = t.zeros(1)
    return [into_out(t, lambda out: t.threshold(x, 0.5, 1, out=out), o.view(3, 2).t()), o,
            into_out(t, lambda out: t.threshold(x[0], 0.5, 1, out=out), e.expand(3)), e]


@prog
def integer_self_truncates_the_scalars(t):
    x = t.tensor(np.array([1, -2, 5]))
    o, f = t.zeros(3, dtype=t.int64), t.zeros(3)
    return [into_out(t, lambda out: t.threshold(x, 1.5, 9.5, out=out), o), o,
            into_out(t, lambda out: t.threshold(x, 0.6, 9.5, out=out), f), f]


@prog
def refusals_before_the_resize(t):
    x = _x(t)
    return [into_out(t, lambda o: t.threshold(x, 0.6, 9.0, out=o), t.zeros(2, dtype=t.int64)),
            into_out(t, lambda o: t.threshold(t.tensor([1, -2, 5]), 1, 0, out=o),
                  t.zeros(2, dtype=t.bool)),
            into_out(t, lambda o: t.threshold(x.requires_grad_(), 0.6, 9.0, out=o), t.zeros(2)),
            into_out(t, lambda o: t.threshold(_x(t), 0.6, 9.0, out=o),
                  t.zeros(2, requires_grad=True)),
            into_out(t, lambda o: t.threshold(_x(t), "a", 9.0, out=o), t.zeros(2)),
            catch(lambda: t.threshold(_x(t), 0.5, 1, out=3))]


@prog
def kernel_errors_after_the_resize(t):
    i8 = t.tensor(np.array([1, -2, 5]), dtype=t.int8)
    return [into_out(t, lambda o: t.threshold(i8, 300, 9, out=o), t.zeros(2, dtype=t.int8)),
            into_out(t, lambda o: t.threshold(i8, 1, 300, out=o), t.zeros(3, dtype=t.int8)),
            # (a bool self with an out to resize: torch 2.13 warns twice, the core once)
            into_out(t, lambda o: t.threshold(t.tensor([True, False]), 0, 1, out=o), t.zeros(2)),
            into_out(t, lambda o: t.threshold(_x(t, t.float16), 1, 70000, out=o),
                  t.zeros(1, dtype=t.float16))]


@prog
def scalars_checked_for_every_form(t):
    def i8():
        return t.tensor(np.array([1, -2, 5]), dtype=t.int8)
    calls = [lambda: t.threshold(i8(), 300, 9), lambda: t.threshold(i8(), 1, 300),
             lambda: t.threshold(i8(), 1.5, -128.7), lambda: t.threshold(i8(), 127.9, 3),
             lambda: t.threshold(i8(), float("nan"), 3), lambda: t.threshold(i8(), True, 3),
             lambda: t.threshold(i8().to(t.uint8), -1, 3),
             lambda: t.threshold(i8().to(t.uint8), -300, 3),
             lambda: t.threshold(i8().int(), 2**40, 3),
             lambda: t.threshold(i8().long(), 2**63, 1),
             lambda: t.threshold(_x(t, t.float16), 1, 70000),
             lambda: t.threshold(_x(t, t.float16), 1e5, 7),
             lambda: t.threshold(_x(t, t.bfloat16), 1e39, 7),
             lambda: t.threshold(_x(t), 1e39, 7),
             lambda: t.threshold(_x(t), float("nan"), float("inf")),
             lambda: t.nn.functional.threshold(i8(), 1, 300)]
    obs = [catch(c) for c in calls]
    x = i8()
    obs.append((catch(lambda: t.threshold_(x, 1, 300)), x, x._version))
    y = _x(t).requires_grad_() * 1
    obs.append((catch(lambda: t.nn.functional.threshold(y, 1, 1e39, inplace=True)), y,
                y._version))
    return obs


@pytest.mark.parametrize("program", prog.params())
def test_threshold_out_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 6
