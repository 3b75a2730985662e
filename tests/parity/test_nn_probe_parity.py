"""nn calls the probe table found odd, side by side with PyTorch 2.13: pooling on unbatched
(C, H, W) input, avg_pool2d on int64, losses on 1-D and K-dimensional input, cross_entropy
with probability targets, layers given non-tensors. Each program mirrors the PyTorch
program and observes values, gradients, grad_fn names, ``_saved_*`` fields and error texts.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, upstream

prog = Registry()


def saved(grad_fn):
    """Every ``_saved_*`` field of a node except its tensors, and which tensors it saved."""
    out = {}
    for name in dir(grad_fn):
        if not name.startswith("_saved_"):
            continue
        v = getattr(grad_fn, name)
        out[name] = ("tensor", tuple(v.shape), str(v.dtype)) if hasattr(v, "data_ptr") else v
    return out


def backward_of(t, y, *leaves, seed=99):
    y.backward(upstream(t, y, seed=seed))
    return [leaf.grad for leaf in leaves]


# ----------------------------------------------------------------------------- pooling
def _unbatched(t, seed=0):
    return t.tensor(arr(3, 6, 5, seed=seed), requires_grad=True)


def _pool_program(name, call):
    def program(t):
        x = _unbatched(t)
        y = call(t, x)
        out = {"y": y, "name": fn_name(y.grad_fn), "saved": saved(y.grad_fn),
               "next": [fn_name(f) for f, _ in y.grad_fn.next_functions]}
        out["grad"] = backward_of(t, y, x)
        return out
    program.__name__ = name
    prog(program)


_pool_program("max_pool2d_unbatched", lambda t, x: t.nn.functional.max_pool2d(x, 2))
_pool_program("max_pool2d_unbatched_overlapping",
              lambda t, x: t.nn.functional.max_pool2d(x, 3, stride=1, padding=1))
_pool_program("max_pool2d_unbatched_one_element_lists",
              lambda t, x: t.nn.functional.max_pool2d(x, (2,), (1,), (1,)))
_pool_program("max_pool2d_module_unbatched", lambda t, x: t.nn.MaxPool2d(2)(x))
_pool_program("max_pool2d_module_unbatched_rect",
              lambda t, x: t.nn.MaxPool2d((3, 2), stride=(2, 1), padding=(1, 0))(x))
_pool_program("avg_pool2d_unbatched", lambda t, x: t.nn.functional.avg_pool2d(x, 2))
_pool_program("avg_pool2d_unbatched_padded",
              lambda t, x: t.nn.functional.avg_pool2d(x, 3, stride=2, padding=1))
_pool_program("avg_pool2d_unbatched_one_element_lists",
              lambda t, x: t.nn.functional.avg_pool2d(x, [2], [1], [1]))
_pool_program("avg_pool2d_module_unbatched", lambda t, x: t.nn.AvgPool2d(2, stride=1)(x))
_pool_program("avg_pool2d_batched_default_stride",
              lambda t, x: t.nn.functional.avg_pool2d(x[None], 2))
_pool_program("max_pool2d_batched_default_stride",
              lambda t, x: t.nn.functional.max_pool2d(x[None], 2))


@prog
def max_pool2d_unbatched_indices(t):
    x = _unbatched(t)
    y, idx = t.nn.functional.max_pool2d(x, 2, stride=1, return_indices=True)
    return {"y": y, "indices": idx, "saved_indices_are_returned":
            y.grad_fn._saved_result1.data_ptr() == idx.data_ptr(),
            "saved_self_is_x": y.grad_fn._saved_self.data_ptr() == x.data_ptr()}


@prog
def max_pool2d_unbatched_of_a_view(t):
    base = t.tensor(arr(2, 3, 6, 5, seed=3), requires_grad=True)
    x = base.transpose(2, 3)[1]  # strided, not contiguous
    y = t.nn.functional.max_pool2d(x, 2)
    return {"y": y, "grad": backward_of(t, y, base)}


@prog
def avg_pool2d_unbatched_input_modified(t):
    x = _unbatched(t) * 1
    y = t.nn.functional.avg_pool2d(x, 2)
    with t.no_grad():
        x.mul_(2)
    return {"backward": catch(lambda: y.sum().backward()), "version": x._version}


@prog
def max_pool2d_unbatched_indices_modified(t):
    x = _unbatched(t)
    y, idx = t.nn.functional.max_pool2d(x, 2, return_indices=True)
    idx.zero_()
    return {"backward": catch(lambda: y.sum().backward()), "version": idx._version}


@prog
def pooling_unbatched_in_a_cnn(t):
    conv = t.nn.Conv2d(3, 4, 3, padding=1)
    with t.no_grad():
        conv.weight.copy_(t.tensor(arr(4, 3, 3, 3, seed=5)))
        conv.bias.copy_(t.tensor(arr(4, seed=6)))
    x = _unbatched(t)
    y = t.nn.MaxPool2d(2)(conv(x).relu())
    z = t.nn.functional.avg_pool2d(y, 1)
    grads = backward_of(t, z, x, conv.weight, conv.bias)
    return {"z": z, "names": [fn_name(z.grad_fn), fn_name(y.grad_fn)], "grads": grads}


@prog
def avg_pool2d_int64(t):
    F = t.nn.functional
    x = t.tensor(arr(2, 2, 5, 6, seed=1, dtype="int64", low=-50, high=50))
    return {"k2": F.avg_pool2d(x, 2), "k3_pad": F.avg_pool2d(x, 3, stride=2, padding=1),
            "unbatched": F.avg_pool2d(x[0], 2, stride=1),
            "negative_truncates": F.avg_pool2d(t.tensor([[[-7, 0], [0, 0]]]), 2),
            "module": t.nn.AvgPool2d(2)(x)}


@prog
def pooling_dtypes(t):
    F = t.nn.functional
    x = t.tensor(arr(1, 2, 4, 4, seed=2, dtype="int64", low=-9, high=9))
    out = {}
    for name in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
                 "float64"):
        xd = x.to(getattr(t, name))
        out[name] = {"avg": catch(lambda xd=xd: F.avg_pool2d(xd, 2)),
                     "max": catch(lambda xd=xd: F.max_pool2d(xd, 2)),
                     "max_padded": catch(lambda xd=xd: F.max_pool2d(xd, 2, 1, 1))}
    # the shape checks come before the dtype check
    out["bool_bad_kernel"] = catch(lambda: F.avg_pool2d(x.bool(), 0))
    out["int32_too_small"] = catch(lambda: F.avg_pool2d(x.int(), 5))
    return out


# ----------------------------------------------------------------------------- conv2d
@prog
def conv2d_given_non_tensors(t):
    F = t.nn.functional
    w = t.tensor(arr(3, 2, 3, 3, seed=1))
    conv = t.nn.Conv2d(2, 3, 3)
    return {"module_none": catch(lambda: conv(None)),
            "module_list": catch(lambda: conv([[1.0]])),
            "module_no_bias": catch(lambda: t.nn.Conv2d(2, 3, 3, bias=False)(None)),
            "two": catch(lambda: F.conv2d(None, w)),
            "str": catch(lambda: F.conv2d("a", w)),
            "weight_none": catch(lambda: F.conv2d(t.tensor(arr(1, 2, 5, 5)), None)),
            "four": catch(lambda: F.conv2d(None, w, None, 2)),
            "seven": catch(lambda: F.conv2d(None, w, w[0, 0, 0], 1, 0, 1, 1)),
            "module_weight": catch(lambda: F.conv2d(None, conv.weight, conv.bias))}


@prog
def conv2d_module_fields(t):
    conv = t.nn.Conv2d(2, 3, (3, 1), stride=2, padding=1)
    return {"stride": conv.stride, "padding": conv.padding, "dilation": conv.dilation,
            "groups": conv.groups, "kernel_size": conv.kernel_size}


@pytest.mark.parametrize("program", prog.params())
def test_nn_probe_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
