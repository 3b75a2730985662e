"""``memory_format=`` on torch 2.13 and the core: torch.contiguous_format, preserve_format,
channels_last (NHWC strides for a 4-D NCHW tensor) and channels_last_3d through clone,
contiguous, is_contiguous, the *_like functions and to: strides, aliasing (data_ptr, ``is``),
versions, grad_fn names and gradients, and the refusals (a wrong rank, a wrong type).
"""

import pytest

from .harness import Raised, Registry, arr, catch, compare, fn_name, leaf, run, upstream

pytestmark = pytest.mark.parity

prog = Registry()


def layout(y):
    return (tuple(y.shape), tuple(y.stride()), y.is_contiguous())


@prog
def channels_last_strides(t):
    img = t.tensor(arr(2, 3, 4, 5, seed=1))
    cl = img.contiguous(memory_format=t.channels_last)
    out = {
        "repr": (str(t.channels_last), str(t.contiguous_format), str(t.preserve_format),
                 type(t.channels_last).__name__),
        "clone": layout(img.clone(memory_format=t.channels_last)), "cl": layout(cl),
        "values": cl, "is_cl": (img.is_contiguous(memory_format=t.channels_last),
                                cl.is_contiguous(memory_format=t.channels_last)),
        "back": layout(cl.contiguous()), "keeps": layout(cl.clone()),
        "to_contiguous": layout(cl.clone(memory_format=t.contiguous_format)),
        "same": (cl.contiguous(memory_format=t.channels_last) is cl,
                 img.contiguous(memory_format=t.contiguous_format) is img),
        "nhwc_view": layout(cl.permute(0, 2, 3, 1)),
        "elementwise": layout(cl + 1), "unary": layout(cl.exp()),
        "size_one": [layout(img[:, :1].contiguous(memory_format=t.channels_last)),
                     img[:, :1].contiguous().is_contiguous(memory_format=t.channels_last),
                     layout(img[:1, :, :1, :1].contiguous(memory_format=t.channels_last))],
        "bytes": cl.untyped_storage().nbytes(),
        "3d": layout(img[None].contiguous(memory_format=t.channels_last_3d)),
        "3d_is": img[None].contiguous(memory_format=t.channels_last_3d).is_contiguous(
            memory_format=t.channels_last_3d),
    }
    return out


@prog
def preserve_and_contiguous(t):
    x = t.tensor(arr(3, 4, seed=2))
    xt = x.t()
    perm = t.tensor(arr(2, 3, 4, 5, seed=3)).permute(0, 2, 3, 1)
    return {
        "preserve": layout(xt.clone(memory_format=t.preserve_format)),
        "none": layout(xt.clone(memory_format=None)), "default": layout(xt.clone()),
        "contiguous": layout(xt.clone(memory_format=t.contiguous_format)),
        "cont_same": x.contiguous(memory_format=t.preserve_format) is x,
        "cont_preserve": catch(lambda: xt.contiguous(memory_format=t.preserve_format)),
        "is_preserve": xt.is_contiguous(memory_format=t.preserve_format),
        "strided": layout(x[:, ::2].clone(memory_format=t.preserve_format)),
        "perm": layout(perm.clone()), "perm_cl": perm.is_contiguous(memory_format=t.channels_last),
        "like": [layout(f(perm, memory_format=fmt)) for f in (t.empty_like, t.zeros_like,
                                                             t.ones_like)
                 for fmt in (t.preserve_format, t.contiguous_format, t.channels_last)],
        "full_like": layout(t.full_like(perm, 2.0, memory_format=t.channels_last)),
        "zeros_values": t.zeros_like(perm, memory_format=t.channels_last),
    }


@prog
def to_with_memory_format(t):
    img = t.tensor(arr(2, 3, 4, 5, seed=4))
    cl = img.to(memory_format=t.channels_last)
    x = t.tensor(arr(3, 4, seed=5)).t()
    return {
        "cl": (layout(cl), cl is img, cl),
        "again": cl.to(memory_format=t.channels_last) is cl,
        "back": (layout(cl.to(memory_format=t.contiguous_format)),
                 cl.to(memory_format=t.contiguous_format) is cl),
        "dtype": layout(img.to(t.float64, memory_format=t.channels_last)),
        "copy": layout(img.to(t.int64, copy=True, memory_format=t.channels_last)),
        "none": img.to(memory_format=None) is img,
        "transposed": (x.to(memory_format=t.contiguous_format) is x,
                       layout(x.to(t.float64, memory_format=t.contiguous_format))),
    }


@prog
def memory_format_autograd(t):
    a = leaf(t, arr(2, 3, 4, 5, seed=6))
    y = a * 2
    c = y.contiguous(memory_format=t.channels_last)
    c.backward(upstream(t, c))
    b = leaf(t, arr(2, 3, 4, 5, seed=7))
    z = b.to(memory_format=t.channels_last)
    z2 = b.clone(memory_format=t.contiguous_format)
    (z * z2).sum().backward()
    v = leaf(t, arr(2, 3, 4, 5, seed=8)) * 1
    w = v.clone(memory_format=t.channels_last)
    w.mul_(3)
    w.sum().backward()
    return {
        "fn": fn_name(c.grad_fn), "grad": (layout(a.grad), a.grad), "to_fn": fn_name(z.grad_fn),
        "clone_fn": fn_name(z2.grad_fn), "b_grad": (layout(b.grad), b.grad),
        "inplace": (fn_name(w.grad_fn), w._version, v._version, layout(w)),
    }


@prog
def memory_format_refusals(t):
    x = t.tensor(arr(2, 3, seed=9))
    img = t.tensor(arr(1, 2, 2, 2, seed=10))
    return {
        "rank_clone": catch(lambda: x.clone(memory_format=t.channels_last)),
        "rank_contiguous": catch(lambda: x.contiguous(memory_format=t.channels_last)),
        "rank_like": catch(lambda: t.empty_like(x, memory_format=t.channels_last)),
        "rank_to": catch(lambda: x.to(memory_format=t.channels_last)),
        "rank_3d": catch(lambda: img.contiguous(memory_format=t.channels_last_3d)),
        "is_other_rank": x.is_contiguous(memory_format=t.channels_last),
        "positional": catch(lambda: x.clone(t.contiguous_format)),
        "positional_is": catch(lambda: x.is_contiguous(t.channels_last)),
        "type_clone": catch(lambda: x.clone(memory_format="a")),
        "type_contiguous": catch(lambda: x.contiguous(memory_format=None)),
        "type_is": catch(lambda: x.is_contiguous(memory_format=None)),
        "type_like": catch(lambda: t.empty_like(x, memory_format="a")),
    }


@pytest.mark.parametrize("prog", prog.params())
def test_memory_format_parity(prog, torch_mod, core):
    ref = run(torch_mod, prog)
    assert not isinstance(ref, Raised), ref  # a program that raises as a whole compares nothing
    diffs = compare(ref, run(core, prog))
    assert not diffs, "\n".join(d[:1500] for d in diffs)
