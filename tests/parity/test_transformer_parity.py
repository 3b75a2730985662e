"""Transformer ops against PyTorch: layer_norm, embedding, gelu, dropout(inplace=) and
scaled_dot_product_attention; values, gradients, grad_fn names, saved tensors, versions and
the errors of bad calls. Read each program as the PyTorch program it mirrors."""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name

prog = Registry()


def saved(fn):
    return sorted(a for a in dir(fn) if a.startswith("_saved_") and a not in (
        "_saved_scalar",))


def up(t, y, seed=99):
    return t.tensor(arr(*tuple(y.shape), seed=seed, low=-1.0, high=1.5, dtype=np.float64))


def leaf64(t, *shape, seed=0, scale=1.0):
    return t.tensor(arr(*shape, seed=seed, dtype=np.float64) * scale, requires_grad=True)


@prog
def layer_norm_values_grads_saved(t):
    x, w, b = leaf64(t, 2, 3, 5), leaf64(t, 5, seed=1), leaf64(t, 5, seed=2)
    y = t.nn.functional.layer_norm(x, (5,), w, b)
    y.backward(up(t, y))
    fn = y.grad_fn
    return {"y": y, "grads": [x.grad, w.grad, b.grad], "name": fn_name(fn),
            "saved": {n: getattr(fn, f"_saved_{n}") for n in ("result1", "result2",
                                                               "normalized_shape")},
            "input_is_x": fn._saved_input.data_ptr() == x.data_ptr()}


@prog
def layer_norm_module_two_dims_float32(t):
    ln = t.nn.LayerNorm((3, 4))
    x = t.tensor(arr(2, 3, 4), requires_grad=True)
    y = ln(x)
    y.backward(t.tensor(arr(2, 3, 4, seed=5)))
    return {"y": y, "x.grad": x.grad, "w.grad": ln.weight.grad, "b.grad": ln.bias.grad,
            "versions": [ln.weight._version, ln.bias._version], "repr": repr(ln)}


@prog
def layer_norm_output_modified_is_fine_input_is_not(t):
    x = leaf64(t, 2, 4)
    y = t.nn.functional.layer_norm(x * 1, (4,))
    y.add_(1)
    ok = catch(lambda: y.sum().backward())
    h = x * 1
    z = t.nn.functional.layer_norm(h, (4,))
    h.mul_(2)
    return {"output_modified": ok, "input_modified": catch(lambda: z.sum().backward())}


@prog
def layer_norm_errors(t):
    F, x = t.nn.functional, t.tensor(arr(2, 3, 4))
    return {"shape": catch(lambda: F.layer_norm(x, (5,))),
            "two": catch(lambda: F.layer_norm(x, (3, 5))),
            "weight": catch(lambda: F.layer_norm(x, (4,), weight=t.ones(3))),
            "long": catch(lambda: F.layer_norm(t.tensor([[1, 2]]), (2,)))}


@prog
def embedding_padding_idx_gets_no_gradient(t):
    e = t.nn.Embedding(6, 3, padding_idx=0)
    with t.no_grad():
        e.weight.copy_(t.tensor(arr(6, 3)))
    idx = t.tensor([[0, 2, 2], [5, 0, 1]])
    y = e(idx)
    y.backward(t.tensor(arr(2, 3, 3, seed=4)))
    fn = y.grad_fn
    return {"y": y, "grad": e.weight.grad, "name": fn_name(fn), "saved": saved(fn),
            "padding_idx": fn._saved_padding_idx, "rows": fn._saved_weight_sym_argsize_0,
            "version": e.weight._version}


@prog
def embedding_indices_modified_before_backward(t):
    w = leaf64(t, 5, 2)
    idx = t.tensor([1, 3, 1])
    y = t.nn.functional.embedding(idx, w)
    idx.add_(1)
    return {"backward": catch(lambda: y.sum().backward()),
            "no_padding": y.grad_fn._saved_padding_idx}


@prog
def embedding_errors(t):
    F, w = t.nn.functional, t.tensor(arr(5, 3))
    return {"float": catch(lambda: F.embedding(t.tensor([1.0, 2.0]), w)),
            "high": catch(lambda: F.embedding(t.tensor([1, 7]), w)),
            "negative": catch(lambda: F.embedding(t.tensor([1, -1]), w)),
            "padding": catch(lambda: F.embedding(t.tensor([1, 2]), w, padding_idx=5)),
            "module": catch(lambda: t.nn.Embedding(5, 3, padding_idx=-6))}


def _gelu_program(approximate):
    def program(t):
        x = leaf64(t, 3, 7, scale=4.0)
        y = t.nn.functional.gelu(x, approximate=approximate)
        y.backward(up(t, y))
        h = x * 1
        z = t.nn.GELU(approximate=approximate)(h)
        h.add_(1)
        return {"y": y, "x.grad": x.grad, "name": fn_name(y.grad_fn), "saved": saved(y.grad_fn),
                "approximate": y.grad_fn._saved_approximate,
                "input_modified": catch(lambda: z.sum().backward())}
    program.__name__ = f"gelu_{approximate}"
    prog(program)


_gelu_program("none")
_gelu_program("tanh")


@prog
def gelu_errors(t):
    F = t.nn.functional
    return {"approx": catch(lambda: F.gelu(t.ones(2), approximate="foo")),
            "long": catch(lambda: F.gelu(t.tensor([1, 2])))}


@prog
def dropout_inplace_versions_and_node(t):
    h = t.tensor(arr(4, 5), requires_grad=True) * 1
    y = t.nn.functional.dropout(h, 0.5, inplace=True)
    z = t.nn.Dropout(0.3)(h)
    e = t.nn.functional.dropout(h, 0.5, training=False)
    zeros = t.nn.functional.dropout(h * 1, 1.0)
    return {"same": y is h, "version": h._version, "name": fn_name(y.grad_fn),
            "z_name": fn_name(z.grad_fn), "eval_same": e is h, "p1": zeros,
            "bad_p": catch(lambda: t.nn.Dropout(1.5))}


def _sdpa_program(name, mask=None, is_causal=False, kv_len=7):
    def program(t):
        q, k, v = leaf64(t, 2, 3, 6, 8), leaf64(t, 2, 3, kv_len, 8, seed=1), \
            leaf64(t, 2, 3, kv_len, 8, seed=2)
        m = None if mask is None else t.tensor(mask(kv_len))
        y = t.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=m,
                                                          is_causal=is_causal)
        y.backward(up(t, y))
        fn = y.grad_fn
        return {"y": y, "grads": [q.grad, k.grad, v.grad], "name": fn_name(fn),
                "saved": saved(fn), "logsumexp": fn._saved_logsumexp,
                "mask": fn._saved_attn_mask, "is_causal": fn._saved_is_causal,
                "scale": fn._saved_scale, "dropout_p": fn._saved_dropout_p,
                "output_is_y": fn._saved_output.data_ptr() == y.data_ptr()}
    program.__name__ = name
    prog(program)


_sdpa_program("sdpa_plain")
_sdpa_program("sdpa_causal_square", is_causal=True, kv_len=6)
_sdpa_program("sdpa_causal_longer_keys", is_causal=True, kv_len=7)
_sdpa_program("sdpa_bool_mask", mask=lambda s: np.tril(np.ones((6, s), dtype=bool), 1))
_sdpa_program("sdpa_float_mask", mask=lambda s: arr(6, s, seed=8, dtype=np.float64))


@prog
def sdpa_saved_modified(t):
    F = t.nn.functional
    q = leaf64(t, 1, 2, 4, 4)
    h = q * 1
    y = F.scaled_dot_product_attention(h, h, h)
    h.add_(1)
    z = F.scaled_dot_product_attention(q, q, q)
    z.add_(1)
    return {"query_modified": catch(lambda: y.sum().backward()),
            "output_modified": catch(lambda: z.sum().backward())}


@prog
def sdpa_value_dim_differs_runs_the_math_path(t):
    q, k, v = leaf64(t, 1, 2, 3, 4), leaf64(t, 1, 2, 5, 4, seed=1), leaf64(t, 1, 2, 5, 2, seed=2)
    y = t.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    y.backward(up(t, y))
    return {"y": y, "grads": [q.grad, k.grad, v.grad]}


@prog
def sdpa_errors(t):
    F, x = t.nn.functional, t.tensor(arr(2, 3, 4))
    return {"mask_dtype": catch(lambda: F.scaled_dot_product_attention(
        x, x, x, attn_mask=t.ones(3, 3, dtype=t.int64)))}


@prog
def linear_on_3d_input_folds_into_one_addmm(t):
    m = t.nn.Linear(4, 3)
    with t.no_grad():
        m.weight.copy_(t.tensor(arr(3, 4, seed=1)))
        m.bias.copy_(t.tensor(arr(3, seed=2)))
    x = t.tensor(arr(2, 5, 4), requires_grad=True)
    y = m(x)
    z = m(x.transpose(0, 1))  # not contiguous: matmul, then a separate bias add
    (y.sum() + z.sum()).backward()
    return {"y": y, "name": fn_name(y.grad_fn),
            "next": [fn_name(f) for f, _ in y.grad_fn.next_functions],
            "z_name": fn_name(z.grad_fn), "x.grad": x.grad, "w.grad": m.weight.grad}


@pytest.mark.parametrize("program", prog.params())
def test_transformer_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
