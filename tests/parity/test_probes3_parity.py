"""Parity programs behind probes3's fixes (issue 11), each the PyTorch program it mirrors:
take_along_dim wrapping its indices into the dim's size (values, gradient, the saved index and
its layout); torch.where converting a Python number branch before any write; var/std over an
empty dim list (and var_backward's 2 / 0); constant_pad_nd's layout and fill value; fmax/fmin
of 0-dim tensors; aminmax(dim=, out=) refusing an out that shares cells with self;
nn.Embedding.from_pretrained sharing the table; views whose element count overflows int64."""
import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, meta, upstream

pytestmark = [pytest.mark.parity,
              pytest.mark.filterwarnings("ignore:An output with one or more elements")]

prog = Registry()


@prog
def take_along_dim_wraps_indices(t):
    w = t.tensor(arr(3, 4, seed=1), requires_grad=True)
    idx = t.tensor(np.array([[5, -1], [4, -4], [7, 2]], dtype=np.int64))
    y = w.take_along_dim(idx, 1)
    fn = y.grad_fn
    obs = {"y": y, "grad_fn": fn_name(fn), "index": fn._saved_index,
           "index stride": fn._saved_index.stride(), "idx after": idx}
    y.backward(upstream(t, y))
    return {**obs, "w.grad": w.grad}


@prog
def take_along_dim_wraps_a_transposed_index(t):
    w = t.tensor(arr(2, 3, seed=2), requires_grad=True)
    idx = t.tensor(np.array([[0, 4], [-2, 1], [2, 9]], dtype=np.int64)).t()
    y = w.take_along_dim(idx, 1)
    return {"y": y, "meta": meta(y), "index": y.grad_fn._saved_index,
            "index stride": y.grad_fn._saved_index.stride(),
            "zero-size dim": catch(lambda: t.zeros(2, 0).take_along_dim(
                t.zeros(2, 1, dtype=t.int64), 1)),
            "flat form": catch(lambda: w.detach().take_along_dim(t.tensor([6])))}


@prog
def where_converts_number_branches(t):
    b = t.tensor(np.array([[True, False, True], [False, True, False]]))
    i = t.tensor(np.arange(6, dtype=np.int64).reshape(2, 3))
    x = t.tensor(arr(2, 3, seed=3))
    return {"int32 overflow": catch(lambda: t.where(b, i.int(), 2**40)),
            "uint8 -1": t.where(b, i.to(t.uint8), -1),
            "uint8 256": catch(lambda: t.where(b, i.to(t.uint8), 256)),
            "float32 1e40": catch(lambda: t.where(b, x, 1e40)),
            "float16 1e10": t.where(b, x.half(), 1e10),
            "number first": catch(lambda: t.where(b, 2**40, i.int())),
            "out is an input": catch(lambda: t.where(b, x, x[0], out=x[0])),
            "x after": x}


@prog
def var_std_over_an_empty_dim_list(t):
    w = t.tensor(arr(3, 4, seed=4), requires_grad=True)
    v = w.var(())
    s = w.std([], keepdim=True)
    obs = {"var": v, "std": s, "var dim": v.grad_fn._saved_dim,
           "std correction": s.grad_fn._saved_correction}
    (v + s.sum()).backward()
    one = t.tensor(arr(1, 3, seed=9), requires_grad=True)
    one.var(0).sum().backward()  # one value per column, correction 1: 2 / 0 in var_backward
    return {**obs, "w.grad": w.grad, "size-1 dim grad": one.grad}


@prog
def constant_pad_nd_layout_and_value(t):
    img = t.tensor(arr(2, 3, 4, 4, seed=5)).contiguous(memory_format=t.channels_last)
    y = t.constant_pad_nd(img, (1, 2, 0, 1), 0.5)
    i = t.tensor(np.arange(6, dtype=np.int64).reshape(2, 3))
    return {"y": y, "meta": meta(y),
            "only cuts": meta(t.constant_pad_nd(img, (-1, 0))),
            "int64 2**63": catch(lambda: t.constant_pad_nd(i, (1, 1), 2**63)),
            "uint8 -1": t.constant_pad_nd(i.to(t.uint8), (1, 1), -1),
            "0-dim tensor value": t.constant_pad_nd(i, (1, 1), t.tensor(2.5)),
            "float16 overflow": catch(lambda: t.constant_pad_nd(i.half(), (1, 1), 1e5))}


@prog
def fmax_fmin_zero_dim(t):
    nan = t.tensor(np.float32(np.nan))
    one = t.tensor(np.float32(1.0))
    return {"fmax(nan, nan)": t.fmax(nan, nan), "fmax(nan, 1)": t.fmax(nan, one),
            "fmin(1, nan)": t.fmin(one, nan),
            "fmax(-0, 0)": 1 / t.fmax(t.tensor(np.float32(-0.0)), t.tensor(np.float32(0.0)))}


@prog
def aminmax_out_overlapping_self(t):
    x = t.tensor(arr(2, 3, seed=6))
    return {"dim 0": catch(lambda: t.aminmax(x, dim=0, out=(x[0], x[1]))), "x after": x,
            "version": x._version,
            "dim 1, strided outs": t.aminmax(x, dim=1, out=(x[:, 0], x[:, 1])),
            "x after dim 1": x, "version after": x._version}


@prog
def embedding_from_pretrained_shares_the_table(t):
    table = t.tensor(arr(4, 3, seed=7))
    e = t.nn.Embedding.from_pretrained(table, padding_idx=1)
    y = e(t.tensor(np.array([1, 3], dtype=np.int64)))
    return {"y": y, "shares": e.weight.data_ptr() == table.data_ptr(),
            "frozen": e.weight.requires_grad, "version": e.weight._version,
            "not 2-D": catch(lambda: t.nn.Embedding.from_pretrained(table[0])),
            "empty table": catch(lambda: t.nn.functional.embedding(
                t.tensor(np.array([0], dtype=np.int64)), t.zeros(0, 2)))}


@prog
def views_whose_numel_overflows(t):
    v = t.tensor(arr(3, seed=8))
    return {"expand": catch(lambda: v.expand(2**32, 2**32, 3)),
            "broadcast_to": catch(lambda: t.broadcast_to(v, (2**40, 2**40, 3))),
            "as_strided": catch(lambda: v.as_strided((2**62, 2), (0, 0))),
            "past a zero": catch(lambda: t.ones(0).expand(2**40, 2**40, 0)),
            "a zero first": meta(t.ones(0).expand(0, 2**40, 2**40, 0)),
            "largest": meta(v.as_strided((2**63 - 1,), (0,)))}


@pytest.mark.parametrize("program", prog.params())
def test_probes3_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
