"""F.embedding / nn.Embedding's two gradient flags, against torch 2.13.

``scale_grad_by_freq=True``: the weight's gradient row for an index is the sum of the
incoming rows for that index divided by how often it occurs in the batch (counted over all
indices, the padding index too). ``sparse=True``: PyTorch gives the weight a sparse COO
gradient; the forward and the node are as usual (``_saved_sparse`` is True), and with both
flags PyTorch's backward refuses. The core has no sparse tensors: its backward says so
(checked in tests/test_nn.py), and the forward, node and refusal are compared here.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, upstream

pytestmark = pytest.mark.parity

prog = Registry()
SAVED = ["_saved_padding_idx", "_saved_scale_grad_by_freq", "_saved_sparse",
         "_saved_weight_sym_argsize_0"]
IDX = [[0, 2, 2, 5], [4, 2, 0, 1]]


def _freq_program(name, idx, padding_idx=None, dtype=np.float32, index_dtype="long"):
    def program(t):
        w = t.tensor(arr(6, 3, seed=1, dtype=dtype), requires_grad=True)
        i = t.tensor(idx, dtype=getattr(t, index_dtype))
        y = t.nn.functional.embedding(i, w, padding_idx, scale_grad_by_freq=True)
        fn = y.grad_fn
        obs = {"y": y, "grad_fn": fn_name(fn), "saved": {n: getattr(fn, n) for n in SAVED}}
        y.backward(upstream(t, y))
        return {**obs, "w.grad": w.grad}
    program.__name__ = name
    prog(program)


_freq_program("scale_grad_by_freq", IDX)
_freq_program("scale_grad_by_freq_padding", IDX, padding_idx=2)
_freq_program("scale_grad_by_freq_negative_padding", IDX, padding_idx=-1)
_freq_program("scale_grad_by_freq_int32_indices", IDX, index_dtype="int32")
_freq_program("scale_grad_by_freq_double", [3, 3, 3, 1, 1, 3, 0], dtype=np.float64)
_freq_program("scale_grad_by_freq_scalar_index", 4)
_freq_program("scale_grad_by_freq_every_index_once", [5, 4, 3, 2, 1, 0])


@prog
def scale_grad_by_freq_counts_the_whole_batch(t):
    # index 1 appears 3 times across the two rows of the batch: each of its rows gets 1/3
    w = t.tensor(arr(4, 2, seed=2), requires_grad=True)
    i = t.tensor([[1, 1], [1, 3]])
    t.nn.functional.embedding(i, w, scale_grad_by_freq=True).sum().backward()
    return {"w.grad": w.grad}


@prog
def scale_grad_by_freq_with_max_norm(t):
    w = t.tensor(arr(5, 3, seed=3, low=-3, high=3), requires_grad=True)
    i = t.tensor([0, 4, 4, 2])
    y = t.nn.functional.embedding(i, w, max_norm=1.0, scale_grad_by_freq=True)
    y.backward(upstream(t, y))
    return {"y": y, "w.grad": w.grad, "version": w._version}


@prog
def nn_embedding_flags(t):
    t.manual_seed(0)
    m = t.nn.Embedding(6, 3, padding_idx=1, scale_grad_by_freq=True)
    with t.no_grad():
        m.weight.copy_(t.tensor(arr(6, 3, seed=4)))
    y = m(t.tensor(IDX))
    y.backward(upstream(t, y))
    s = t.nn.Embedding(6, 3, sparse=True)
    both = t.nn.Embedding(5, 3, max_norm=2.0, scale_grad_by_freq=True, sparse=True)
    return {"repr": repr(m), "sparse_repr": repr(s), "both_repr": repr(both),
            "flags": [m.scale_grad_by_freq, m.sparse, s.scale_grad_by_freq, s.sparse],
            "w.grad": m.weight.grad, "saved": {n: getattr(y.grad_fn, n) for n in SAVED}}


@prog
def sparse_forward_and_node(t):
    w = t.tensor(arr(6, 3, seed=5), requires_grad=True)
    y = t.nn.functional.embedding(t.tensor(IDX), w, padding_idx=0, sparse=True)
    return {"y": y, "grad_fn": fn_name(y.grad_fn),
            "saved": {n: getattr(y.grad_fn, n) for n in SAVED}}


@prog
def sparse_without_grad_is_a_plain_lookup(t):
    w = t.tensor(arr(6, 3, seed=6))
    with t.no_grad():
        y = t.nn.functional.embedding(t.tensor(IDX), w, sparse=True, scale_grad_by_freq=True)
    return {"y": y, "grad_fn": fn_name(y.grad_fn)}


@prog
def sparse_with_scale_grad_by_freq_refused_in_backward(t):
    w = t.tensor(arr(6, 3, seed=7), requires_grad=True)
    y = t.nn.functional.embedding(t.tensor(IDX), w, sparse=True, scale_grad_by_freq=True)
    return {"backward": catch(lambda: y.sum().backward()), "grad": w.grad}


@prog
def embedding_flag_errors(t):
    F = t.nn.functional
    w = t.tensor(arr(6, 3, seed=8))
    i = t.tensor([0, 1])
    calls = {
        "scale_str": lambda: F.embedding(i, w, scale_grad_by_freq="a"),
        "scale_int": lambda: F.embedding(i, w, scale_grad_by_freq=1),
        "sparse_none": lambda: F.embedding(i, w, sparse=None),
        "sparse_float": lambda: F.embedding(i, w, sparse=1.0),
        "both_bad": lambda: F.embedding(i, w, scale_grad_by_freq=0, sparse="x"),
        "positional": lambda: F.embedding(i, w, None, None, 2.0, "a"),
        "float_indices_with_flag": lambda: F.embedding(i.float(), w, scale_grad_by_freq=True),
        "out_of_range_with_flag": lambda: F.embedding(t.tensor([6]), w, scale_grad_by_freq=True),
    }
    return {name: catch(fn) for name, fn in calls.items()}


@pytest.mark.parametrize("program", prog.params())
def test_embedding_grad_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
