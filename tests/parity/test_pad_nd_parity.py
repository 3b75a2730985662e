"""torch.constant_pad_nd and conv2d's padding='same' with an odd total padding, against torch 2.13.

PyTorch's convolution_same pads dilation * (kernel - 1) cells in all; when that is odd, the
extra cell goes on the right (bottom): constant_pad_nd adds it first, then the convolution
pads both sides by the left amount. So the graph reads ConvolutionBackward0 <-
ConstantPadNdBackward0, the convolution saves the padded input, and its ``_saved_padding`` is
the left amount. constant_pad_nd itself: positive amounts add a border of ``value``, negative
ones cut (narrow); only cuts give a clone of the narrowed view. Its node saves ``pad``.
The "may require a zero-padded copy" warning comes once per process in PyTorch
(TORCH_WARN_ONCE), so it is checked in fresh processes (test_same_padding_warns_once).
"""

import json
import subprocess
import sys

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, graph, meta, upstream

pytestmark = [pytest.mark.parity,
              pytest.mark.filterwarnings("ignore:Using padding='same'")]

prog = Registry()
SAVED = ["_saved_stride", "_saved_padding", "_saved_dilation", "_saved_groups",
         "_saved_output_padding"]


# --------------------------------------------------------------------------- constant_pad_nd
def _pad_program(name, shape, pad, value=0, dtype=np.float32, transform=None):
    def program(t):
        base = t.tensor(arr(*shape, seed=1, dtype=np.float64).astype(dtype),
                        requires_grad=dtype in (np.float32, np.float64))
        x = base if transform is None else transform(base)
        y = t.constant_pad_nd(x, pad, value)
        obs = {"y": y, "meta": meta(y), "grad_fn": fn_name(y.grad_fn),
               "shares": y.data_ptr() == x.data_ptr()}
        if y.grad_fn is not None:
            obs["saved_pad"] = y.grad_fn._saved_pad
            y.backward(upstream(t, y))
            obs["grad"] = base.grad
        return obs
    program.__name__ = name
    prog(program)


_pad_program("pad_last_dim", (2, 3, 4), (1, 2))
_pad_program("pad_two_dims", (2, 3, 4), (0, 1, 2, 0), 1.5)
_pad_program("pad_every_dim", (2, 3), (1, 1, 2, 1))
_pad_program("pad_mixed_signs", (2, 3, 4), (-1, 2, 0, 1))
_pad_program("cut_only_gives_a_clone", (2, 3, 4), (-1, -2))
_pad_program("cut_to_nothing", (2, 3, 4), (-2, -2, 1, 1))
_pad_program("all_zero_pads_clone", (2, 3, 4), (0, 0, 0, 0))
_pad_program("empty_pad", (2, 3), ())
_pad_program("pad_transposed_input", (3, 4), (1, 0), transform=lambda x: x.t())
_pad_program("cut_transposed_input_keeps_layout", (3, 4, 5), (0, 0, -1, 0),
             transform=lambda x: x.permute(2, 0, 1))
_pad_program("pad_empty_dim", (2, 0, 3), (1, 1, 0, 0))
_pad_program("pad_double", (2, 2), (1, 1), -3.0, dtype=np.float64)
_pad_program("pad_long_value_truncates", (2, 3), (1, 1), 2.5, dtype=np.int64)
_pad_program("pad_bool", (4,), (1, 1), 2, dtype=np.bool_)


@prog
def constant_pad_nd_errors(t):
    x = t.tensor(arr(2, 3, 4, seed=2))
    calls = {
        "odd_length": lambda: t.constant_pad_nd(x, (1,)),
        "too_long": lambda: t.constant_pad_nd(x, (1, 2, 3, 4, 5, 6, 7, 8)),
        "cut_too_much_left": lambda: t.constant_pad_nd(x, (-5, 1)),
        "cut_too_much_right": lambda: t.constant_pad_nd(x, (1, -5)),
        "cut_too_much_both": lambda: t.constant_pad_nd(x, (-3, -2)),
        "pad_int": lambda: t.constant_pad_nd(x, 1),
        "pad_floats": lambda: t.constant_pad_nd(x, (1.0, 2.0)),
        "pad_second_float": lambda: t.constant_pad_nd(x, (1, 2.0)),
        "value_str": lambda: t.constant_pad_nd(x, (1, 1), "a"),
        "input_list": lambda: t.constant_pad_nd([1.0], (1, 1)),
    }
    return {name: catch(fn) for name, fn in calls.items()}


@prog
def constant_pad_nd_saved_nothing_but_pad(t):
    # the node saves no tensor: changing the input in place before backward is fine
    h = t.tensor(arr(3, 4, seed=3), requires_grad=True) * 1
    y = t.constant_pad_nd(h, (1, 1, 1, 0))
    with t.no_grad():
        h.mul_(2)
    y.backward(upstream(t, y))
    return {"y": y, "next": graph(y.grad_fn)}


# --------------------------------------------------------------------------- padding='same'
def _same_program(name, x_shape, w_shape, bias=True, dtype=np.float32, **kwargs):
    def program(t):
        x = t.tensor(arr(*x_shape, seed=4, dtype=dtype), requires_grad=True)
        w = t.tensor(arr(*w_shape, seed=5, dtype=dtype), requires_grad=True)
        b = t.tensor(arr(w_shape[0], seed=6, dtype=dtype), requires_grad=True) if bias else None
        y = t.nn.functional.conv2d(x, w, b, padding="same", **kwargs)
        fn = y.grad_fn if len(x_shape) == 4 else y.grad_fn.next_functions[0][0]
        obs = {"y": y, "graph": graph(y.grad_fn), "saved": {n: getattr(fn, n) for n in SAVED},
               "saved_input": meta(fn._saved_input)}
        y.backward(upstream(t, y))
        return {**obs, "x.grad": x.grad, "w.grad": w.grad,
                "b.grad": None if b is None else b.grad}
    program.__name__ = name
    prog(program)


_same_program("same_even_kernel", (2, 2, 5, 6), (3, 2, 2, 4))
_same_program("same_even_kernel_one_dim", (1, 2, 5, 6), (3, 2, 3, 2), bias=False)
_same_program("same_even_kernel_square", (2, 3, 4, 4), (2, 3, 2, 2))
_same_program("same_odd_kernel_odd_dilation_symmetric", (1, 2, 6, 6), (2, 2, 3, 3),
              dilation=3)
_same_program("same_even_kernel_odd_dilation", (1, 2, 7, 7), (2, 2, 2, 4), dilation=3)
_same_program("same_even_kernel_mixed_dilation", (1, 2, 7, 8), (2, 2, 2, 2), dilation=(1, 2))
_same_program("same_groups", (2, 4, 5, 5), (4, 2, 2, 3), groups=2)
_same_program("same_unbatched", (2, 5, 6), (3, 2, 4, 2))
_same_program("same_float64", (1, 2, 4, 5), (2, 2, 2, 2), dtype=np.float64)
_same_program("same_one_by_one", (1, 2, 3, 3), (2, 2, 1, 1))


@prog
def same_module_even_kernel(t):
    t.manual_seed(0)
    m = t.nn.Conv2d(2, 3, (2, 4), padding="same")
    with t.no_grad():
        m.weight.copy_(t.tensor(arr(3, 2, 2, 4, seed=7)))
        m.bias.copy_(t.tensor(arr(3, seed=8)))
    x = t.tensor(arr(2, 2, 5, 5, seed=9), requires_grad=True)
    y = m(x)
    y.backward(upstream(t, y))
    return {"y": y, "repr": repr(m), "padding": m.padding, "x.grad": x.grad,
            "w.grad": m.weight.grad, "graph": graph(y.grad_fn)}


@prog
def same_padded_input_is_a_new_tensor(t):
    # the convolution saves the padded copy, not x: x changed in place doesn't break backward,
    # and x's version is untouched by the padding
    h = t.tensor(arr(1, 2, 4, 4, seed=10), requires_grad=True) * 1
    w = t.tensor(arr(2, 2, 2, 2, seed=11), requires_grad=True)
    y = t.nn.functional.conv2d(h, w, padding="same")
    saved_is_h = y.grad_fn._saved_input.data_ptr() == h.data_ptr()
    with t.no_grad():
        h.add_(1)
    y.backward(upstream(t, y))
    return {"saved_is_h": saved_is_h, "w.grad": w.grad, "version": h._version}


@prog
def same_errors_name_the_padded_input(t):
    F = t.nn.functional
    x = t.tensor(arr(1, 3, 5, 6, seed=12))
    calls = {
        "channels": lambda: F.conv2d(x, t.zeros(3, 2, 2, 4), padding="same"),
        "channels_unbatched": lambda: F.conv2d(x[0], t.zeros(3, 2, 2, 4), padding="same"),
        "channels_symmetric": lambda: F.conv2d(x, t.zeros(3, 2, 3, 3), padding="same"),
        "bias_size": lambda: F.conv2d(x, t.zeros(3, 3, 2, 4), t.zeros(2), padding="same"),
        "dtype": lambda: F.conv2d(x, t.zeros(3, 3, 2, 4).double(), padding="same"),
        "strided": lambda: F.conv2d(x, t.zeros(3, 3, 2, 4), padding="same", stride=2),
        "groups": lambda: F.conv2d(x, t.zeros(3, 1, 2, 2), padding="same", groups=2),
    }
    return {name: catch(fn) for name, fn in calls.items()}


@pytest.mark.parametrize("program", prog.params())
def test_pad_nd_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


_WARN_SCRIPT = """
import json, sys, warnings
import numpy as np
if sys.argv[1] == "torch":
    import torch as t
else:
    import inplace_tutorial as t
x = t.tensor(np.ones((1, 2, 4, 4), dtype=np.float32))
seen = []
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for w_shape in [(2, 2, 3, 3), (2, 2, 2, 2), (2, 2, 2, 2), (2, 2, 4, 1)]:
        t.nn.functional.conv2d(x, t.zeros(w_shape), padding="same")
        seen.append([str(w.message).split(" (Triggered internally")[0] for w in caught
                     if w.category is UserWarning])
print(json.dumps(seen))
"""


def test_same_padding_warns_once(torch_mod):
    """TORCH_WARN_ONCE: the first odd-total 'same' convolution of a process warns, a
    symmetric one before it doesn't, the later ones don't (a fresh process per library)."""
    def seen(which):
        done = subprocess.run([sys.executable, "-c", _WARN_SCRIPT, which], capture_output=True,
                              text=True, check=True)
        return json.loads(done.stdout)
    expected = seen("torch")
    assert expected[0] == [] and len(expected[1]) == 1  # what the oracle does
    assert seen("core") == expected


@prog
def conv2d_dtype_mismatch_words_follow_the_backend(t):
    # PyTorch's oneDNN path (a batch, groups, a kernel above 3x3, a large image) and its own
    # kernel (a small single image) word a float32 input with a float64 weight differently
    F = t.nn.functional
    x = t.tensor(arr(1, 3, 5, 6, seed=13))
    big = t.tensor(arr(1, 3, 64, 120, seed=14))
    w = t.zeros(3, 3, 2, 4).double()
    calls = {
        "single_image": lambda: F.conv2d(x, w),
        "batch": lambda: F.conv2d(x.expand(2, 3, 5, 6), w),
        "kernel_4x4": lambda: F.conv2d(x, t.zeros(3, 3, 4, 4).double()),
        "kernel_4x3": lambda: F.conv2d(x, t.zeros(3, 3, 4, 3).double()),
        "groups": lambda: F.conv2d(x, t.zeros(3, 1, 2, 2).double(), groups=3),
        "large_image": lambda: F.conv2d(big, w),
        "one_by_one_single": lambda: F.conv2d(x, t.zeros(3, 3, 1, 1).double()),
        "one_by_one_strided_batch": lambda: F.conv2d(x.expand(2, 3, 5, 6),
                                                     t.zeros(3, 3, 1, 1).double(), stride=2),
        "one_by_one_batch": lambda: F.conv2d(x.expand(2, 3, 5, 6),
                                             t.zeros(3, 3, 1, 1).double()),
        "unbatched": lambda: F.conv2d(x[0], w),
        "same_padded": lambda: F.conv2d(x, w, padding="same"),
        "double_input": lambda: F.conv2d(x.double(), t.zeros(3, 3, 4, 4)),
    }
    return {name: catch(fn) for name, fn in calls.items()}
