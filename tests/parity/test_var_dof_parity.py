"""var, std, var_mean and std_mean with no degrees of freedom left, side by side with torch 2.13
(issue 11).

The reduction factor (input numel over output numel, 0 when the output is empty) minus the
correction <= 0: ReduceOps.cpp warns "<op>(): degrees of freedom is <= 0 ..." on every call,
naming the function called (var_mean's own name, not var's), and the kernel divides the sum of
squares by max(0, dof): inf, or nan where every value is the mean. Backward (var_backward)
without a dim takes 2 / dof as inf (inf off the mean, nan on it), with a dim it divides by the
negative dof; std_backward passes nothing where the std is 0.
"""
import numpy as np
import pytest

from .harness import Registry, check_parity, warned

pytestmark = pytest.mark.parity

prog = Registry()

X = np.array([[1.0, 2.0, 4.0], [3.0, 3.0, 3.0]], dtype=np.float32)


def _each(t, calls):
    """For each call on a fresh leaf: its result, warnings, and the gradient of its first
    output's sum (or what backward raised)."""
    obs = []
    for call in calls:
        x = t.tensor(X.copy(), requires_grad=True)
        r, w = warned(lambda call=call, x=x: call(x))
        first = r[0] if isinstance(r, tuple) else r
        g, gw = warned(lambda first=first, x=x: (first.sum().backward(), x.grad)[1])
        obs.append({"result": r, "warnings": w, "grad": g, "backward warnings": gw})
    return obs


@prog
def var_std_without_dim(t):
    return _each(t, [lambda x: x.var(correction=6), lambda x: x.var(correction=7),
                     lambda x: x.var(correction=8.5), lambda x: x.var(correction=5),
                     lambda x: x.std(correction=6), lambda x: x.std(correction=9),
                     lambda x: x.std(correction=5.5), lambda x: x.var(unbiased=True),
                     lambda x: x[0, :1].var(), lambda x: x[0, 0].var(),
                     lambda x: x[0, 0].std(0, correction=2), lambda x: x[1].std(),
                     lambda x: x[1].std(correction=0)])


@prog
def var_std_with_dims(t):
    return _each(t, [lambda x: x.var(1, correction=3), lambda x: x.var(1, correction=4),
                     lambda x: x.var(0), lambda x: x.std(0), lambda x: x.std(1),
                     lambda x: x.std(1, correction=3), lambda x: x.std(1, correction=5),
                     lambda x: x.var((), correction=7), lambda x: x.var([], correction=7),
                     lambda x: x.var(1, correction=-1), lambda x: x.std(1, keepdim=True),
                     lambda x: x.var(1, correction=1e20), lambda x: t.var(x, 0, True)])


@prog
def var_mean_std_mean_name_themselves(t):
    return _each(t, [lambda x: t.var_mean(x, correction=6), lambda x: t.var_mean(x, 0),
                     lambda x: t.var_mean(x, correction=9), lambda x: t.std_mean(x, 1),
                     lambda x: t.var_mean(x, 1, correction=4),
                     lambda x: t.var_mean(x, 1, correction=3.5),
                     lambda x: t.std_mean(x, correction=7), lambda x: t.std_mean(x[1]),
                     lambda x: t.std_mean(x, 1, correction=3),
                     lambda x: t.std_mean(x, dim=0, correction=1),
                     lambda x: t.var_mean(x, 0, unbiased=True)])


@prog
def the_mean_output_alone_backpropagates(t):
    x = t.tensor(X.copy(), requires_grad=True)
    r, w = warned(lambda: t.var_mean(x, correction=7))
    r[1].sum().backward()
    return {"result": r, "warnings": w, "grad": x.grad}


@prog
def empty_inputs_and_outputs(t):
    """No cells reduced (nan, a warning even with correction 0); no output cells (factor 0:
    any correction >= 0 warns)."""
    x = t.tensor(X.copy())
    calls = [lambda: t.var_mean(x[:, :0], 1), lambda: t.std_mean(x[:, :0], 1, correction=0),
             lambda: t.std_mean(x[:0], 1, correction=0), lambda: t.var(x[:0], 1, correction=-1),
             lambda: t.var(x[:0], 1, correction=0), lambda: x[:, :0].var(),
             lambda: t.tensor(3.0).var(), lambda: t.tensor(3.0).std(0, correction=0)]
    return [warned(c) for c in calls]


@prog
def out_form_and_half_precision(t):
    x = t.tensor(X.copy())
    o = t.empty(3)
    return [warned(lambda: t.var(x, 0, out=o)), o,
            warned(lambda: t.std(x, 1, correction=4, out=t.empty(2))),
            warned(lambda: x.half().std(1, correction=4)),
            warned(lambda: x.to(t.float64).var(correction=6))]


@pytest.mark.parametrize("program", prog.params())
def test_var_dof_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 6
