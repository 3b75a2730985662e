"""conv2d with dilation and groups, against PyTorch 2.13 (F.conv2d and nn.Conv2d).

A dilated kernel reads input cells ``dilation`` apart; with ``groups`` the channels split into
blocks and output block g sees input block g only. Each program convolves, backprops a fixed
upstream gradient, and compares the output, the gradients of input, weight and bias, and what
ConvolutionBackward0 saved (stride, padding and dilation as the binding parsed them, groups,
bias_sym_sizes_opt). The checks come in check_shape_forward's order and words.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, upstream

prog = Registry()
SAVED = ["_saved_stride", "_saved_padding", "_saved_dilation", "_saved_groups",
         "_saved_transposed", "_saved_output_padding", "_saved_bias_sym_sizes_opt"]


def _conv_program(name, x_shape, w_shape, *args, bias=True, dtype=np.float32, **kwargs):
    def program(t):
        x = t.tensor(arr(*x_shape, seed=1, dtype=dtype), requires_grad=True)
        w = t.tensor(arr(*w_shape, seed=2, dtype=dtype), requires_grad=True)
        b = t.tensor(arr(w_shape[0], seed=3, dtype=dtype), requires_grad=True) if bias else None
        y = t.nn.functional.conv2d(x, w, b, *args, **kwargs)
        fn = y.grad_fn
        obs = {"y": y, "grad_fn": fn_name(fn), "saved": {n: getattr(fn, n) for n in SAVED},
               "input_is_x": fn._saved_input.data_ptr() == x.data_ptr()}
        y.backward(upstream(t, y))
        return {**obs, "x.grad": x.grad, "w.grad": w.grad, "b.grad": None if b is None
                else b.grad}
    program.__name__ = name
    prog(program)


_conv_program("dilation2", (2, 3, 7, 7), (4, 3, 3, 3), dilation=2)
_conv_program("dilation_rect_padding", (2, 2, 8, 9), (3, 2, 3, 2), 1, (2, 1), (2, 3))
_conv_program("dilation_stride", (2, 2, 9, 9), (3, 2, 3, 3), 2, 1, 2)
_conv_program("dilation_list_given", (1, 2, 7, 7), (3, 2, 2, 2), [1], [1], [3], bias=False)
_conv_program("groups2", (2, 4, 5, 5), (6, 2, 3, 3), groups=2)
_conv_program("groups_depthwise", (2, 3, 6, 6), (3, 1, 3, 3), 1, 1, groups=3)
_conv_program("groups_depthwise_multiplier", (2, 3, 6, 5), (6, 1, 2, 3), 2, (1, 0), groups=3)
_conv_program("groups_and_dilation", (2, 4, 8, 8), (4, 2, 3, 3), 1, 2, 2, 2)
_conv_program("groups_dilation_stride_no_bias", (3, 6, 9, 8), (9, 2, 2, 3), (2, 1), 1, (2, 1),
              3, bias=False)
_conv_program("groups_float64", (2, 4, 5, 5), (4, 1, 3, 3), 1, 1, 2, 4, dtype=np.float64)
_conv_program("padding_same_dilated", (2, 2, 6, 6), (3, 2, 3, 3), padding="same", dilation=2)
_conv_program("padding_same_even_kernel_dilated", (1, 2, 6, 7), (2, 2, 2, 3), padding="same",
              dilation=(2, 1))
_conv_program("padding_valid_groups", (2, 4, 5, 5), (2, 2, 3, 3), padding="valid", groups=2)
_conv_program("defaults_no_bias", (2, 2, 5, 5), (3, 2, 3, 3), bias=False)


@prog
def conv2d_unbatched_dilated_grouped(t):
    x = t.tensor(arr(4, 7, 7, seed=4), requires_grad=True)
    w = t.tensor(arr(4, 2, 3, 3, seed=5), requires_grad=True)
    y = t.nn.functional.conv2d(x, w, None, 1, 1, 2, 2)
    y.backward(upstream(t, y))
    return {"y": y, "x.grad": x.grad, "w.grad": w.grad}


@prog
def conv2d_module_dilation_groups(t):
    t.manual_seed(0)
    m = t.nn.Conv2d(4, 6, 3, stride=1, padding=2, dilation=2, groups=2)
    with t.no_grad():
        m.weight.copy_(t.tensor(arr(6, 2, 3, 3, seed=6)))
        m.bias.copy_(t.tensor(arr(6, seed=7)))
    x = t.tensor(arr(2, 4, 6, 6, seed=8), requires_grad=True)
    y = m(x)
    y.backward(upstream(t, y))
    return {"y": y, "repr": repr(m), "weight_shape": m.weight.shape, "x.grad": x.grad,
            "w.grad": m.weight.grad, "b.grad": m.bias.grad,
            "attrs": [m.dilation, m.groups, m.padding],
            "versions": [m.weight._version, m.bias._version]}


@prog
def conv2d_grouped_saved_input_modified(t):
    h = t.tensor(arr(2, 4, 5, 5, seed=9), requires_grad=True) * 1
    w = t.tensor(arr(4, 2, 3, 3, seed=10), requires_grad=True)
    y = t.nn.functional.conv2d(h, w, groups=2, dilation=2)
    with t.no_grad():
        h.add_(1)
    return {"backward": catch(lambda: y.sum().backward()), "version": h._version}


@prog
def conv2d_dilation_groups_errors(t):
    F = t.nn.functional
    x = t.tensor(arr(2, 4, 5, 5, seed=11))
    w = t.tensor(arr(6, 2, 3, 3, seed=12))
    calls = {
        "groups_channels": lambda: F.conv2d(x, w, groups=3),
        "groups_not_dividing_weight": lambda: F.conv2d(x, w, groups=4),
        "groups_above_weight": lambda: F.conv2d(x, w, groups=8),
        "weight_rows_not_divisible": lambda: F.conv2d(x, w[:5], groups=2),
        "groups_zero": lambda: F.conv2d(x, w, groups=0),
        "groups_negative": lambda: F.conv2d(x, w, groups=-1),
        "dilation_zero": lambda: F.conv2d(x, w, groups=2, dilation=0),
        "dilation_negative": lambda: F.conv2d(x, w, groups=2, dilation=-1),
        "dilation_zero_and_negative": lambda: F.conv2d(x, w, groups=2, dilation=(0, -1)),
        "dilation_zero_bad_bias": lambda: F.conv2d(x, w, t.zeros(5), groups=2, dilation=0),
        "dilation_zero_big_kernel": lambda: F.conv2d(x, t.zeros(6, 2, 9, 9), groups=2,
                                                     dilation=0),
        "dilation_too_large": lambda: F.conv2d(x, w, groups=2, dilation=3),
        "dilation_three_values": lambda: F.conv2d(x, w, groups=2, dilation=(1, 2, 3)),
        "dilation_and_padding_negative": lambda: F.conv2d(x, w, groups=2, dilation=0,
                                                          padding=-1),
        "dilation_and_stride_zero": lambda: F.conv2d(x, w, groups=2, dilation=-1, stride=0),
        "groups_and_bias_dtype": lambda: F.conv2d(x, w, t.ones(6).double(), groups=3),
        "same_strided_dilated": lambda: F.conv2d(x, w, groups=2, dilation=2, padding="same",
                                                 stride=2),
        "module_bad_groups": lambda: t.nn.Conv2d(4, 6, 3, groups=4),
    }
    return {name: catch(fn) for name, fn in calls.items()}


@pytest.mark.parametrize("program", prog.params())
def test_conv_options_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
