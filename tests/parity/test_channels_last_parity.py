"""torch.empty(memory_format=), zero-sized channels-last strides, and the strides of bmm's and
baddbmm's gradients, against torch 2.13 (issue 10, miscops).

``torch.empty`` is the one factory that takes ``memory_format=`` (zeros, new_empty and
empty_strided refuse it); channels-last strides multiply the sizes as they are, so a
zero-sized dim zeroes the strides outside it. bmm's backward gives each operand's gradient in
the layout PyTorch's bmm writes (observed through hooks, before AccumulateGrad re-lays it).
"""

import numpy as np
import pytest

from .harness import Registry, catch, check_parity, meta

pytestmark = pytest.mark.parity

prog = Registry()


@prog
def empty_memory_format(t):
    calls = {
        "channels_last": lambda: t.empty(2, 3, 4, 5, memory_format=t.channels_last),
        "size_tuple": lambda: t.empty((2, 3, 4, 5), memory_format=t.channels_last),
        "size_keyword": lambda: t.empty(size=(2, 3, 4, 5), memory_format=t.channels_last),
        "channels_last_3d": lambda: t.empty(1, 2, 3, 4, 5, memory_format=t.channels_last_3d),
        "contiguous": lambda: t.empty(2, 3, 4, 5, memory_format=t.contiguous_format),
        "none": lambda: t.empty(2, 3, 4, 5, memory_format=None),
        "preserve": lambda: t.empty(2, 3, 4, 5, memory_format=t.preserve_format),
        "rank_3": lambda: t.empty(2, 3, 4, memory_format=t.channels_last),
        "rank_4_3d": lambda: t.empty(2, 3, 4, 5, memory_format=t.channels_last_3d),
        "not_a_format": lambda: t.empty(2, 3, 4, 5, memory_format=1),
        "zero_batch": lambda: t.empty(0, 3, 4, 5, memory_format=t.channels_last),
        "zero_channels": lambda: t.empty(2, 0, 4, 5, memory_format=t.channels_last),
        "zero_height": lambda: t.empty(0, 3, 0, 5, memory_format=t.channels_last),
        "zero_3d": lambda: t.empty(1, 2, 0, 4, 5, memory_format=t.channels_last_3d),
        "double_requires_grad": lambda: t.empty(2, 3, 4, 5, memory_format=t.channels_last,
                                                dtype=t.float64, requires_grad=True),
        "new_empty": lambda: t.ones(2).new_empty((2, 3, 4, 5), memory_format=t.channels_last),
        "zeros": lambda: t.zeros(2, 3, 4, 5, memory_format=t.channels_last),
        "empty_strided": lambda: t.empty_strided((2, 3), (1, 2), memory_format=t.channels_last),
    }
    obs = {}
    for name, fn in calls.items():
        r = catch(fn)
        obs[name] = meta(r) if hasattr(r, "stride") else r
        if hasattr(r, "stride"):
            obs[name + "_cl"] = r.is_contiguous(memory_format=t.channels_last)
            obs[name + "_rg"] = r.requires_grad
    return obs


@prog
def zero_sized_channels_last_strides(t):
    obs = {}
    for shape in ((0, 3, 0, 5), (2, 0, 4, 5), (2, 3, 0, 5), (1, 0, 1, 1)):
        x = t.zeros(*shape)
        obs[str(shape)] = {
            "empty_like": meta(t.empty_like(x, memory_format=t.channels_last)),
            "contiguous": meta(x.contiguous(memory_format=t.channels_last)),
            "clone": meta(x.clone(memory_format=t.channels_last)),
            "to": meta(x.to(memory_format=t.channels_last)),
        }
    return obs


def _grad_strides(t, fn):
    out = {}
    a0 = t.tensor(np.arange(24.0).reshape(2, 4, 3), requires_grad=True)
    b0 = t.tensor(np.arange(40.0).reshape(2, 5, 4), requires_grad=True)
    a = t.tensor(np.arange(24.0).reshape(2, 3, 4), requires_grad=True) * 1
    b = t.tensor(np.arange(40.0).reshape(2, 4, 5), requires_grad=True) * 1
    c = t.tensor(np.arange(30.0).reshape(2, 3, 5), requires_grad=True) * 1
    pairs = {"plain": (a, b), "both_transposed": (a0.transpose(1, 2), b0.transpose(1, 2)),
             "a_transposed": (a0.transpose(1, 2), b), "b_transposed": (a, b0.transpose(1, 2)),
             "a_expanded": (a[:1].expand(2, 3, 4), b)}
    grads = {"g": lambda: t.ones(2, 3, 5, dtype=t.float64),
             "g_transposed": lambda: t.ones(2, 5, 3, dtype=t.float64).transpose(1, 2),
             "g_expanded": lambda: t.ones(1, 1, 1, dtype=t.float64).expand(2, 3, 5)}
    for name, (u, v) in pairs.items():
        seen = {}
        hooks = [z.register_hook(lambda g, k=k, seen=seen: seen.__setitem__(k, g.stride()))
                 for k, z in (("a", u), ("b", v), ("c", c))]
        y = fn(c, u, v)
        for gname, g in grads.items():
            seen.clear()
            y.backward(g(), retain_graph=True)
            out[f"{name}_{gname}"] = dict(seen)
        for h in hooks:
            h.remove()
    return out


@prog
def bmm_gradient_layouts(t):
    return _grad_strides(t, lambda c, u, v: u.bmm(v))


@prog
def baddbmm_gradient_layouts(t):
    return {"plain": _grad_strides(t, lambda c, u, v: t.baddbmm(c, u, v)),
            "scaled": _grad_strides(t, lambda c, u, v: t.baddbmm(c, u, v, beta=0.5, alpha=2.0)),
            "inplace": _grad_strides(t, lambda c, u, v: (c * 1).baddbmm_(u, v)),
            "matmul": _grad_strides(t, lambda c, u, v: u @ v)}


@pytest.mark.parametrize("program", prog.params())
def test_channels_last_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
