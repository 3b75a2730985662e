"""Pooling beyond the defaults, against PyTorch 2.13: max_pool2d with dilation and ceil_mode,
avg_pool2d with ceil_mode, count_include_pad=False and divisor_override.

Each program pools, backprops a fixed upstream gradient and reports the values, the indices,
the input's gradient, the node and what it saved. With ceil_mode the last window may hang over
the padded edge: PyTorch's max starts a window at -inf with the index of its first cell inside
the input, and its mean divides by the window clipped to the padded input (or to the input,
without count_include_pad). The argument checks come in PyTorch's order and words.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, ints, upstream

prog = Registry()
NAN, INF = float("nan"), float("inf")
MAX_SAVED = ["_saved_kernel_size", "_saved_stride", "_saved_padding", "_saved_dilation",
             "_saved_ceil_mode"]
AVG_SAVED = ["_saved_kernel_size", "_saved_stride", "_saved_padding", "_saved_ceil_mode",
             "_saved_count_include_pad", "_saved_divisor_override"]


def _max_program(name, make, *args, grad=True, **kwargs):
    def program(t):
        x = make(t)
        if grad:
            x.requires_grad_(True)
        y, idx = t.nn.functional.max_pool2d(x, *args, return_indices=True, **kwargs)
        obs = {"y": y, "indices": idx, "grad_fn": fn_name(y.grad_fn)}
        if grad:
            fn = y.grad_fn
            obs["saved"] = {n: getattr(fn, n) for n in MAX_SAVED}
            obs["result1_is_indices"] = fn._saved_result1.data_ptr() == idx.data_ptr()
            y.backward(upstream(t, y).to(y.dtype))
            obs["x.grad"] = x.grad
        return obs
    program.__name__ = name
    prog(program)


def _avg_program(name, make, *args, grad=True, **kwargs):
    def program(t):
        x = make(t)
        if grad:
            x.requires_grad_(True)
        y = t.nn.functional.avg_pool2d(x, *args, **kwargs)
        obs = {"y": y, "grad_fn": fn_name(y.grad_fn)}
        if grad:
            obs["saved"] = {n: getattr(y.grad_fn, n) for n in AVG_SAVED}
            y.backward(upstream(t, y).to(y.dtype))
            obs["x.grad"] = x.grad
        return obs
    program.__name__ = name
    prog(program)


def _img(*shape, seed=0, dtype=np.float32):
    return lambda t: t.tensor(arr(*shape, seed=seed, dtype=dtype))


# ----------------------------------------------------------------------------- max, ceil_mode
_max_program("max_ceil_k2", _img(2, 3, 5, 5), 2, ceil_mode=True)
_max_program("max_ceil_k3_s2_p1", _img(2, 2, 6, 7, seed=1), 3, 2, 1, ceil_mode=True)
_max_program("max_ceil_k2_s3", _img(1, 2, 8, 7, seed=2), 2, 3, ceil_mode=True)
_max_program("max_ceil_rect", _img(2, 2, 7, 9, seed=3), (3, 2), (2, 3), (1, 0), ceil_mode=True)
_max_program("max_ceil_no_extra_window", _img(1, 2, 6, 6, seed=4), 2, ceil_mode=True)
_max_program("max_ceil_3d_input", _img(3, 5, 6, seed=5), 2, ceil_mode=True)
_max_program("max_ceil_ties", lambda t: t.tensor(ints(2, 2, 5, 5, seed=6, low=0, high=2)), 3, 2,
             1, ceil_mode=True)
# ----------------------------------------------------------------------------- max, dilation
_max_program("max_dilation2", _img(2, 3, 7, 7, seed=7), 2, dilation=2)
_max_program("max_dilation2_k3_p2_s1", _img(1, 2, 6, 6, seed=8), 3, 1, 1, dilation=2)
_max_program("max_dilation_rect", _img(2, 2, 8, 9, seed=9), (3, 2), 1, (1, 1), dilation=(2, 3))
_max_program("max_dilation_ceil_pad", _img(2, 2, 9, 8, seed=10), 3, 2, 1, dilation=2,
             ceil_mode=True)
_max_program("max_dilation_list_args", _img(1, 2, 7, 7, seed=11), [2], None, [1], [2], True)
_max_program("max_dilation_overlap_ties", lambda t: t.tensor(
    ints(2, 2, 7, 7, seed=12, low=-1, high=1)), 3, 1, 1, dilation=2)
# a window whose cells inside the input are all -inf (or NaN) keeps its first inside cell
_max_program("max_all_neg_inf_padded_windows", lambda t: t.full((1, 2, 5, 5), -INF), 3, 2, 1,
             dilation=2, ceil_mode=True)
_max_program("max_neg_inf_and_nan", lambda t: t.tensor(np.where(
    ints(2, 2, 7, 6, seed=13, low=0, high=4) == 0, NAN, -INF).astype(np.float32)), 3, 2, 1,
    dilation=(1, 2), ceil_mode=True)
_max_program("max_dilation_float64", _img(2, 2, 7, 7, seed=14, dtype=np.float64), 2, 1,
             dilation=3)
_max_program("max_dilation_int64", lambda t: t.tensor(ints(2, 2, 7, 7, seed=15, low=-9, high=9)
                                                      .astype(np.int64)), 2, 2, 1, dilation=2,
             ceil_mode=True, grad=False)
_max_program("max_dilation_transposed_input", lambda t: t.tensor(arr(2, 3, 8, 6, seed=16))
             .transpose(2, 3), 2, 2, 1, dilation=2, ceil_mode=True)


# ----------------------------------------------------------------------------- avg
_avg_program("avg_ceil_k2", _img(2, 3, 5, 5), 2, ceil_mode=True)
_avg_program("avg_ceil_k3_s2_p1", _img(2, 2, 6, 7, seed=1), 3, 2, 1, ceil_mode=True)
_avg_program("avg_ceil_k3_s2_p1_no_pad_count", _img(2, 2, 6, 7, seed=1), 3, 2, 1,
             ceil_mode=True, count_include_pad=False)
_avg_program("avg_no_pad_count_k3_s1_p1", _img(2, 2, 4, 4, seed=2), 3, 1, 1,
             count_include_pad=False)
_avg_program("avg_no_pad_count_without_padding", _img(2, 2, 6, 6, seed=3), 2,
             count_include_pad=False)
_avg_program("avg_divisor_override", _img(2, 2, 4, 4, seed=4), 2, divisor_override=1)
_avg_program("avg_divisor_override_ceil_pad", _img(2, 2, 5, 6, seed=5), 3, 2, 1,
             ceil_mode=True, count_include_pad=False, divisor_override=3)
_avg_program("avg_divisor_override_negative", _img(1, 2, 5, 5, seed=6), 5, 3, 2,
             ceil_mode=True, divisor_override=-2)
_avg_program("avg_ceil_rect", _img(2, 2, 7, 9, seed=7), (3, 2), (2, 3), (1, 0), True, False)
_avg_program("avg_ceil_3d_input", _img(3, 5, 6, seed=8), 2, ceil_mode=True,
             count_include_pad=False)
_avg_program("avg_ceil_float64", _img(2, 2, 5, 7, seed=9, dtype=np.float64), 3, 2, 1, True)
_avg_program("avg_int64_no_pad_count", lambda t: t.tensor(
    ints(2, 2, 5, 5, seed=10, low=-20, high=20).astype(np.int64)), 3, 2, 1, True, False,
    grad=False)
_avg_program("avg_int64_divisor", lambda t: t.tensor(
    ints(2, 2, 4, 4, seed=11, low=-20, high=20).astype(np.int64)), 2, divisor_override=3,
    grad=False)
_avg_program("avg_transposed_input", lambda t: t.tensor(arr(2, 3, 8, 6, seed=12))
             .transpose(2, 3), 3, 2, 1, True, False)


# ----------------------------------------------------------------------------- modules
@prog
def pool_modules_with_options(t):
    x = t.tensor(arr(2, 2, 7, 7, seed=20), requires_grad=True)
    mp = t.nn.MaxPool2d(3, 2, 1, dilation=2, ceil_mode=True)
    ap = t.nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False, divisor_override=2)
    mpi = t.nn.MaxPool2d(2, ceil_mode=True, return_indices=True)
    y = mp(x) + ap(x)
    y.sum().backward()
    return {"max": mp(x), "avg": ap(x), "sum": y, "x.grad": x.grad, "reprs": [repr(mp), repr(ap)],
            "attrs": [mp.dilation, mp.ceil_mode, ap.ceil_mode, ap.count_include_pad,
                      ap.divisor_override], "with_indices": mpi(x)}


# ----------------------------------------------------------------------------- saved tensors
@prog
def max_pool_dilated_indices_modified_before_backward(t):
    x = t.tensor(arr(1, 2, 7, 7, seed=21), requires_grad=True)
    y, idx = t.nn.functional.max_pool2d(x * 1, 3, 2, 1, 2, True, True)
    idx.add_(1)
    return {"backward": catch(lambda: y.sum().backward()), "version": idx._version}


@prog
def avg_pool_ceil_input_modified_before_backward(t):
    h = t.tensor(arr(1, 2, 5, 5, seed=22), requires_grad=True) * 1
    y = t.nn.functional.avg_pool2d(h, 2, ceil_mode=True, divisor_override=3)
    with t.no_grad():
        h.mul_(2)
    return {"backward": catch(lambda: y.sum().backward()), "version": h._version}


# ----------------------------------------------------------------------------- errors
@prog
def max_pool_option_errors(t):
    F = t.nn.functional
    x = t.tensor(arr(1, 2, 5, 5, seed=23))
    return {name: catch(fn) for name, fn in {
        "dilation_zero": lambda: F.max_pool2d(x, 2, dilation=0),
        "dilation_negative": lambda: F.max_pool2d(x, 2, dilation=-1),
        "dilation_three": lambda: F.max_pool2d(x, 2, dilation=(1, 2, 3)),
        "dilation_empty": lambda: F.max_pool2d(x, 2, dilation=[]),
        "dilation_str": lambda: F.max_pool2d(x, 2, dilation='a'),
        "dilation_float": lambda: F.max_pool2d(x, 2, dilation=1.5),
        "ceil_mode_int": lambda: F.max_pool2d(x, 2, ceil_mode=1),
        "ceil_mode_none": lambda: F.max_pool2d(x, 2, ceil_mode=None),
        "pad_over_half_kernel": lambda: F.max_pool2d(x, 3, 1, 2, dilation=2),
        "pad_over_half_rect": lambda: F.max_pool2d(x, (3, 1), 1, (2, 0), (2, 1)),
        "pad_over_effective": lambda: F.max_pool2d(x, 1, 1, 1, dilation=3),
        "too_small_dilated": lambda: F.max_pool2d(x[:, :, :2, :2], 3, padding=1, dilation=2),
        "too_small_ceil": lambda: F.max_pool2d(x[:, :, :1, :1], 2, ceil_mode=True),
        "empty_plane_dilated": lambda: F.max_pool2d(x[:, :, :0], 2, dilation=2),
        "stride_zero_dilated": lambda: F.max_pool2d(x, 2, 0, dilation=2),
        "module_dilation_zero": lambda: t.nn.MaxPool2d(2, dilation=0)(x),
        "ceil_shapes": lambda: [F.max_pool2d(x[:, :, :n, :n], 2, 2, 1, ceil_mode=True).shape
                                for n in range(1, 8)],
    }.items()}


@prog
def avg_pool_option_errors(t):
    F = t.nn.functional
    x = t.tensor(arr(1, 2, 5, 5, seed=24))
    return {name: catch(fn) for name, fn in {
        "divisor_zero": lambda: F.avg_pool2d(x, 2, divisor_override=0),
        "divisor_zero_positional": lambda: F.avg_pool2d(x, 2, 0, 0, False, True, 0),
        "divisor_float": lambda: F.avg_pool2d(x, 2, divisor_override=1.5),
        "divisor_bool": lambda: F.avg_pool2d(x, 2, divisor_override=True),
        "divisor_str_positional": lambda: F.avg_pool2d(x, 2, 2, 0, False, True, 'a'),
        "ceil_mode_int": lambda: F.avg_pool2d(x, 2, ceil_mode=1),
        "ceil_mode_positional": lambda: F.avg_pool2d(x, 2, 2, 0, 1),
        "count_include_pad_none": lambda: F.avg_pool2d(x, 2, count_include_pad=None),
        "count_include_pad_positional": lambda: F.avg_pool2d(x, 2, 2, 0, False, 'a'),
        "divisor_zero_and_bad_pad": lambda: F.avg_pool2d(x, 2, padding=5, divisor_override=0),
        "too_small_ceil": lambda: F.avg_pool2d(x[:, :, :1, :1], 2, ceil_mode=True),
        "module_divisor_zero": lambda: t.nn.AvgPool2d(2, divisor_override=0)(x),
        "ceil_shapes": lambda: [F.avg_pool2d(x[:, :, :n, :n], 3, 2, 1, ceil_mode=True).shape
                                for n in range(1, 8)],
    }.items()}


@pytest.mark.parametrize("program", prog.params())
def test_pool_options_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
