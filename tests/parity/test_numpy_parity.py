"""``Tensor.numpy(*, force=False)``: when a tensor that requires grad may be handed to NumPy.

PyTorch refuses it only while grad mode is on (tensor_numpy.cpp checks
``GradMode::is_enabled() && tensor.requires_grad()``), so ``x.numpy()`` works under
``no_grad()`` and ``inference_mode()``; ``force=True`` converts anyway (``detach()`` first).
The array is the tensor's own cells: a write through it shows in the tensor, and no version
moves. (inplace_tutorial/tensor_conversions.py:numpy)
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


@prog
def numpy_of_a_leaf_that_requires_grad_under_no_grad(t):
    x = t.tensor(arr(2, 3), requires_grad=True)
    refused = catch(lambda: x.numpy())
    with t.no_grad():
        a = x.numpy()
    a[0, 0] = 7.0  # the tensor's own cells
    return {"refused": refused, "values": a.tolist(), "x": x.detach().tolist(),
            "version": x._version, "requires_grad": x.requires_grad}


@prog
def numpy_of_a_non_leaf_in_inference_mode(t):
    w = t.tensor(arr(3), requires_grad=True)
    y = w * 2
    with t.inference_mode():
        inside = y.numpy().tolist()
        with t.enable_grad():  # grad mode on again: refused, inference mode or not
            again = catch(lambda: y.numpy())
    return {"inside": inside, "again": again, "after": catch(lambda: y.numpy())}


@prog
def numpy_force_true_converts_anyway(t):
    x = t.tensor(arr(2, 2), requires_grad=True)
    y = x.exp()
    a = x.numpy(force=True)
    a[1, 1] = -1.0
    return {"leaf": a.tolist(), "x": x.detach().tolist(), "x_version": x._version,
            "non_leaf": y.numpy(force=True).tolist(), "y_version": y._version,
            "plain": t.tensor(arr(3)).numpy(force=False).tolist(),
            "grad_fn": y.grad_fn.name()}


@prog
def numpy_force_must_be_a_bool(t):
    x = t.tensor(arr(3))
    return {
        "int": catch(lambda: x.numpy(force=1)),
        "none": catch(lambda: x.numpy(force=None)),
        "numpy_bool": catch(lambda: x.numpy(force=np.True_)),
        "tensor": catch(lambda: x.numpy(force=t.tensor(True))),
        "positional": catch(lambda: x.numpy(True)),
        "unknown_keyword": catch(lambda: x.numpy(forc=True)),
        "unknown_before_type": catch(lambda: x.numpy(force=1, forc=True)),
        "two_unknown": catch(lambda: x.numpy(forc=1, forb=2)),
    }


@prog
def numpy_of_bfloat16(t):
    b = t.ones(2, dtype=t.bfloat16, requires_grad=True)
    return {"requires_grad_first": catch(lambda: b.numpy()),
            "forced": catch(lambda: b.numpy(force=True)),
            "detached": catch(lambda: b.detach().numpy())}


@pytest.mark.parametrize("program", prog.params())
def test_numpy_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
