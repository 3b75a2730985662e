"""What ``grad_fn._saved_<field>`` hands back, and how a node prints, against torch 2.13.

PyTorch's SavedVariable keeps a saved *input* (or leaf) as the tensor itself, so
``(x * y).grad_fn._saved_self is x`` and reading it twice gives one object, whose grad_fn is
the input's own; a saved *output* comes back as a new tensor each time, whose grad_fn is the
node that saved it. A node's repr is Python's default: ``<MulBackward0 object at 0x...>``
(``<CopySlices object at ...>``, though CopySlices' name() is
``torch::autograd::CopySlices``). (autograd/saved_tensor.py:SavedTensor.unpack_saved)
"""
import re

import pytest

from .harness import Registry, arr, check_parity, fn_name

pytestmark = pytest.mark.parity

prog = Registry()


@prog
def a_saved_input_is_the_tensor_itself(t):
    x = t.tensor(arr(3, seed=1), requires_grad=True)
    y = x * 2
    z = y * y
    g = z.grad_fn
    w = x * y
    idx = t.tensor([0, 2])
    s = y[idx]
    return {"leaf": w.grad_fn._saved_self is x, "nonleaf": w.grad_fn._saved_other is y,
            "both": (g._saved_self is y, g._saved_other is y), "twice": g._saved_self is
            g._saved_self, "its_grad_fn": fn_name(g._saved_self.grad_fn),
            "same_grad_fn": g._saved_self.grad_fn is y.grad_fn,
            "leaf_grad_fn": fn_name(w.grad_fn._saved_self.grad_fn),
            "requires_grad": (w.grad_fn._saved_self.requires_grad, g._saved_self.is_leaf),
            "index_indices": s.grad_fn._saved_indices[0] is idx,
            "clamp_self": y.clamp(0, 1).grad_fn._saved_self is y,
            "exp_self_of_sin": y.sin().grad_fn._saved_self is y}


@prog
def a_saved_output_is_a_new_tensor_whose_grad_fn_is_the_node(t):
    x = t.tensor(arr(3, seed=2), requires_grad=True)
    y = x * 1
    r = y.exp()
    h = r.grad_fn
    a, b = h._saved_result, h._saved_result
    y.relu_()
    return {"is_r": a is r, "twice": a is b, "grad_fn": fn_name(a.grad_fn),
            "grad_fn_is_node": a.grad_fn is h, "requires_grad": a.requires_grad,
            "leaf": a.is_leaf, "value": a, "relu_": fn_name(y.grad_fn._saved_result.grad_fn),
            "relu_is_y": y.grad_fn._saved_result is y, "shares": a.data_ptr() == r.data_ptr()}


@prog
def a_dead_input_comes_back_with_its_grad_fn(t):
    x = t.tensor(arr(3, seed=3), requires_grad=True)
    a = x * 1
    b = a.sin()
    del a  # the saved tensor outlives the name
    s1 = b.grad_fn._saved_self
    return {"twice": s1 is b.grad_fn._saved_self, "grad_fn": fn_name(s1.grad_fn),
            "value": s1, "requires_grad": s1.requires_grad}


@prog
def node_reprs(t):
    x = t.tensor(arr(4, seed=4), requires_grad=True)
    y = x * 1
    y[1:3].mul_(2)
    fns = {"mul": (x * 2).grad_fn, "copyslices": y.grad_fn,
           "accumulate": (x * 2).grad_fn.next_functions[0][0], "sum": x.sum().grad_fn}
    out = {}
    for k, fn in fns.items():
        text = repr(fn)
        out[k] = (re.sub(r"0x[0-9a-f]+", "0xADDR", text), text == str(fn),
                  text.endswith(f"{id(fn):#x}>"))
    return out


@pytest.mark.parametrize("program", prog.params())
def test_saved_identity_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_programs_count():
    assert len(prog.programs) >= 4
