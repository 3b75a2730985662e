"""bincount with weights that require grad, side by side with torch 2.13 (issue 11).

PyTorch has no derivative for bincount, yet its result requires grad when the weights do: the
node is the hand-written NotImplemented (name() "torch::autograd::NotImplemented", the repr
shows "grad_fn=<NotImplemented>"), with one edge, to the weights as given (weights other than
float32/float64 are summed in float64 inside the op, with no ToCopyBackward0 of its own), and
backward refuses when it reaches the node. No grad mode, or an empty input (int64 zeros), gives
a plain tensor.
"""
import numpy as np
import pytest

from .harness import Registry, catch, check_parity, fn_name, next_names

pytestmark = pytest.mark.parity

prog = Registry()


def _w(t, dtype=None):
    w = t.tensor(np.array([0.5, 1.0, 2.0], dtype=np.float32), requires_grad=True)
    return w, (w if dtype is None else w.to(dtype))


def _node(t, r):
    fn = r.grad_fn
    return {"value": r, "requires_grad": r.requires_grad, "is_leaf": r.is_leaf,
            "node": fn_name(fn), "name": None if fn is None else fn.name(),
            "next": None if fn is None else next_names(fn), "repr": repr(r)}


@prog
def weights_that_require_grad_make_a_not_implemented_node(t):
    i = t.tensor([0, 1, 1])
    w, _ = _w(t)
    return [_node(t, t.bincount(i, w)), _node(t, i.bincount(w, 4)),
            _node(t, t.bincount(i, w * 2, minlength=3)),
            _node(t, t.bincount(i, weights=w.to(t.float64)))]


@prog
def other_weight_dtypes_sum_in_float64_with_no_node_of_their_own(t):
    i = t.tensor([0, 2, 2])
    return [_node(t, t.bincount(i, _w(t, d)[1])) for d in (t.float16, t.bfloat16)]


@prog
def backward_reaches_the_node_and_refuses(t):
    i = t.tensor([0, 1, 1])
    w, _ = _w(t)
    r = t.bincount(i, w)
    obs = {"backward": catch(lambda: r.sum().backward(retain_graph=True)),
           "autograd.grad": catch(lambda: t.autograd.grad(r.sum(), w)), "grad": w.grad}
    r2 = t.bincount(i, w).add_(1)  # an in-place op on the result: its own node, then ours
    obs["after add_"] = {"node": fn_name(r2.grad_fn), "next": next_names(r2.grad_fn),
                         "backward": catch(lambda: r2.sum().backward())}
    return obs


@prog
def no_node_without_grad_mode_or_without_cells(t):
    i = t.tensor([0, 1, 1])
    w, _ = _w(t)
    with t.no_grad():
        a = t.bincount(i, w)
    with t.inference_mode():
        b = t.bincount(i, w)
    c = t.bincount(t.tensor([], dtype=t.int64), w[:0], minlength=2)
    d = t.bincount(i, w.detach())
    return [_node(t, a), _node(t, b), b.is_inference(), _node(t, c), _node(t, d)]


@prog
def errors_before_any_node(t):
    i = t.tensor([0, 1, 1])
    w, _ = _w(t)
    return [catch(lambda: t.bincount(i, w[:2])), catch(lambda: t.bincount(i, w, minlength=-1)),
            catch(lambda: t.bincount(-i, w)), catch(lambda: t.bincount(i.float(), w))]


@pytest.mark.parametrize("program", prog.params())
def test_bincount_grad_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 5
