"""F.pad with every mode ('constant', 'reflect', 'replicate', 'circular'), against torch 2.13.

Reflect and replicate are kernels with nodes of their own (ReflectionPad1DBackward0 ...
ReplicationPad3DBackward0, saving self and padding); circular is PyTorch's _pad_circular,
slice copies into a new tensor, so its result's grad_fn is CopySlices. Negative amounts cut;
reflect refuses a pad as large as the dim; each kernel checks its input's rank and zero sizes
in its own words, and F.pad says which (mode, rank, pad length) combinations exist.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, meta, upstream

pytestmark = pytest.mark.parity

prog = Registry()

CASES = [((2, 5), (1, 2)), ((2, 5), (4, 4)), ((2, 5), (-1, 2)), ((1, 2, 5), (2, 0)),
         ((2, 4, 5), (1, 2, 3, 1)), ((1, 2, 4, 5), (1, 2, 2, 1)),
         ((1, 2, 3, 4, 5), (1, 1, 2, 1, 1, 0)), ((2, 3, 4, 5), (1, 1, 2, 1, 1, 2)),
         ((2, 3, 4, 5), (-1, 1, 0, -2, 1, 0)), ((1, 2, 5), (4, 3)), ((0, 2, 5), (1, 1))]


def _mode_program(mode):
    def program(t):
        F = t.nn.functional
        obs = {}
        for k, (shape, pad) in enumerate(CASES):
            if mode == "circular" and max(pad) > min(shape[-len(pad) // 2:]):
                continue
            base = t.tensor(arr(*shape, seed=k, dtype=np.float64), requires_grad=True)
            y = F.pad(base, pad, mode=mode)
            o = {"y": y, "meta": meta(y), "grad_fn": fn_name(y.grad_fn)}
            if mode in ("reflect", "replicate"):
                o["saved_padding"] = y.grad_fn._saved_padding
                o["saved_self_is_input"] = y.grad_fn._saved_self.data_ptr() == base.data_ptr()
            elif mode == "constant":
                o["saved_pad"] = y.grad_fn._saved_pad
            y.backward(upstream(t, y))
            o["grad"] = base.grad
            o["grad_meta"] = meta(base.grad)
            obs[f"{shape}_{pad}"] = o
        return obs
    program.__name__ = f"pad_{mode}_values_and_gradients"
    prog(program)


for _mode in ("reflect", "replicate", "circular", "constant"):
    _mode_program(_mode)


@prog
def pad_layouts(t):
    F = t.nn.functional
    x = t.tensor(arr(2, 3, 4, 5, seed=3), requires_grad=True)
    obs = {}
    for mode in ("reflect", "replicate", "circular", "constant"):
        for name, v in {"channels_last": x.to(memory_format=t.channels_last),
                        "transposed": x.transpose(2, 3), "sliced": x[:, :, ::2],
                        "expanded": x[:1].expand(3, 3, 4, 5)}.items():
            x.grad = None
            y = F.pad(v, (1, 2, 1, 0), mode=mode)
            y.backward(upstream(t, y))
            obs[f"{mode}_{name}"] = {"y": y, "meta": meta(y), "grad": x.grad}
        y = F.pad(x[0].transpose(1, 2), (1, 1), mode=mode)
        obs[f"{mode}_1d_transposed"] = {"y": y, "meta": meta(y)}
    return obs


@prog
def pad_dtypes(t):
    F = t.nn.functional
    x = t.tensor(arr(2, 3, 5, seed=4, low=-9, high=9))
    obs = {}
    for mode in ("reflect", "replicate", "circular", "constant"):
        for dtype in ("float32", "float16", "bfloat16", "int64", "int8", "uint8", "bool"):
            obs[f"{mode}_{dtype}"] = catch(lambda mode=mode, dtype=dtype: F.pad(
                x.to(getattr(t, dtype)), (2, 1), mode=mode))
    return obs


@prog
def pad_saved_self_version(t):
    F = t.nn.functional
    obs = {}
    for mode in ("reflect", "replicate", "circular"):
        x = t.tensor(arr(2, 5, seed=5), requires_grad=True)
        h = x * 1
        y = F.pad(h, (1, 2), mode=mode)
        h.add_(1)
        obs[mode] = catch(lambda y=y: y.sum().backward())
        obs[mode + "_grad"] = x.grad
    return obs


@prog
def pad_circular_graph(t):
    F = t.nn.functional
    x = t.tensor(arr(1, 2, 3, 4, seed=6), requires_grad=True)
    y = F.pad(x, (1, 2, 2, 1), mode="circular")
    names, node = [], y.grad_fn
    while node is not None and len(names) < 12:
        names.append(fn_name(node))
        nxt = [f for f, _ in node.next_functions if f is not None]
        node = nxt[0] if nxt else None
    return {"chain": names, "version": y._version}


@prog
def pad_errors(t):
    F = t.nn.functional
    x, x1 = t.tensor(arr(2, 5, seed=7)), t.tensor(arr(5, seed=8))
    x3, x4 = t.tensor(arr(2, 3, 5, seed=9)), t.tensor(arr(1, 3, 4, 5, seed=10))
    x5 = t.zeros(1, 2, 3, 4, 5)
    calls = {
        "reflect_too_large": lambda: F.pad(x, (5, 0), mode="reflect"),
        "reflect_too_large_right": lambda: F.pad(x, (1, 5), mode="reflect"),
        "reflect_2d_h": lambda: F.pad(x3, (1, 1, 3, 0), mode="reflect"),
        "reflect_2d_w": lambda: F.pad(x3, (5, 1, 0, 0), mode="reflect"),
        "reflect_3d_d": lambda: F.pad(x4, (1, 1, 1, 1, 3, 0), mode="reflect"),
        "reflect_3d_h": lambda: F.pad(x4, (1, 1, 4, 1, 0, 0), mode="reflect"),
        "reflect_value": lambda: F.pad(x, (1, 2), mode="reflect", value=1),
        "reflect_value_zero": lambda: F.pad(x, (1, 2), mode="reflect", value=0),
        "replicate_value": lambda: F.pad(x, (1, 2), "replicate", 2.5),
        "rank_1": lambda: F.pad(x1, (1, 2), mode="reflect"),
        "rank_2_pad_4": lambda: F.pad(x, (1, 2, 1, 1), mode="replicate"),
        "rank_5_pad_2": lambda: F.pad(x5, (1, 1), mode="circular"),
        "odd": lambda: F.pad(x, (1,), mode="reflect"),
        "odd_constant": lambda: F.pad(x, (1, 2, 3)),
        "too_long": lambda: F.pad(x, (1, 2, 3, 4, 5, 6), mode="reflect"),
        "unknown_mode": lambda: F.pad(x, (1, 2), mode="foo"),
        "mode_case": lambda: F.pad(x, (1, 2), mode="Reflect"),
        "mode_none": lambda: F.pad(x, (1, 2), mode=None),
        "circular_wraps": lambda: F.pad(x, (6, 0), mode="circular"),
        "circular_whole": lambda: F.pad(x, (5, 0), mode="circular"),
        "circular_negative": lambda: F.pad(x, (-3, -3), mode="circular"),
        "circular_cut": lambda: F.pad(x, (-2, 1), mode="circular"),
        "replicate_cut": lambda: F.pad(x, (-1, -1), mode="replicate"),
        "replicate_too_small": lambda: F.pad(x, (-3, -3), mode="replicate"),
        "replicate_to_nothing": lambda: F.pad(x, (-2, -3), mode="replicate"),
        "reflect_too_small": lambda: F.pad(x, (-3, -3), mode="reflect"),
        "reflect_2d_too_small": lambda: F.pad(x3, (-3, -3, -2, -2), mode="reflect"),
        "replicate_2d_too_small": lambda: F.pad(x3, (-3, -3, -2, -2), mode="replicate"),
        "replicate_3d_negative": lambda: F.pad(x5, (-3, -3, 0, 0, 0, 0), mode="replicate"),
        "zero_width": lambda: F.pad(t.zeros(2, 0), (1, 1), mode="reflect"),
        "zero_channels": lambda: F.pad(t.zeros(0, 3), (1, 1), mode="replicate"),
        "zero_batch": lambda: F.pad(t.zeros(0, 2, 3), (1, 1), mode="reflect"),
        "zero_height_2d": lambda: F.pad(t.zeros(2, 2, 0, 3), (1, 1, 1, 1), mode="reflect"),
        "zero_width_circular": lambda: F.pad(t.zeros(2, 0), (1, 1), mode="circular"),
        "pad_int": lambda: F.pad(x, 1, "reflect"),
        "pad_floats": lambda: F.pad(x, (1.0, 2.0), "reflect"),
        "pad_list": lambda: F.pad(x, [1, 2], "reflect"),
        "constant_none": lambda: F.pad(x, (1, 2), "constant", None),
        "constant_value": lambda: F.pad(x, (1, 2), "constant", 2),
        "keywords": lambda: F.pad(input=x, pad=(1, 2), mode="circular"),
    }
    # (F.pad([1.0], ...) is left out: under use_deterministic_algorithms(True), as the suite
    # runs torch, torch's F.pad reads input.is_cuda first and raises AttributeError)
    return {name: catch(fn) for name, fn in calls.items()}


@prog
def pad_modules(t):
    nn = t.nn
    x1, x2, x3 = t.tensor(arr(2, 3, 5, seed=11)), t.tensor(arr(1, 2, 4, 5, seed=12)), \
        t.tensor(arr(1, 2, 3, 4, 5, seed=13))
    layers = {
        "ReflectionPad1d": (nn.ReflectionPad1d(2), x1), "ReflectionPad2d": (
            nn.ReflectionPad2d((1, 2, 3, 0)), x2), "ReflectionPad3d": (nn.ReflectionPad3d(1), x3),
        "ReplicationPad1d": (nn.ReplicationPad1d((0, 3)), x1),
        "ReplicationPad2d": (nn.ReplicationPad2d(2), x2),
        "ReplicationPad3d": (nn.ReplicationPad3d((1, 0, 0, 1, 2, 0)), x3),
        "CircularPad1d": (nn.CircularPad1d(2), x1), "CircularPad2d": (nn.CircularPad2d(1), x2),
        "CircularPad3d": (nn.CircularPad3d((1, 0, 0, 1, 2, 0)), x3),
        "ConstantPad1d": (nn.ConstantPad1d(2, 3.5), x1),
        "ConstantPad2d": (nn.ConstantPad2d((1, 0, 2, 1), -1), x2),
        "ConstantPad3d": (nn.ConstantPad3d(1, 0.0), x3),
        "ZeroPad1d": (nn.ZeroPad1d((1, 2)), x1), "ZeroPad2d": (nn.ZeroPad2d(1), x2),
        "ZeroPad3d": (nn.ZeroPad3d(1), x3),
    }
    obs = {}
    for name, (layer, x) in layers.items():
        y = layer(x)
        obs[name] = {"repr": repr(layer), "padding": layer.padding, "y": y, "meta": meta(y),
                     "params": len(list(layer.parameters())),
                     "wrong_rank": catch(lambda layer=layer: layer(t.ones(5)))}
    obs["zero_value"] = nn.ZeroPad2d(1).value
    obs["sequential"] = repr(nn.Sequential(nn.ReflectionPad2d(1), nn.ZeroPad2d((1, 2, 0, 0))))
    return obs


@pytest.mark.parametrize("program", prog.params())
def test_padding_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_programs_count():
    assert len(prog.programs) == 10
