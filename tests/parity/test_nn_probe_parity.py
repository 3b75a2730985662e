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


# ----------------------------------------------------------------------------- losses
# the nodes whose _saved_ fields these programs compare (the losses' own); the others in a
# loss's graph (sum, view ...) are compared by name here and by their own parity files
_LOSS_NODES = {"NllLossBackward0", "NllLoss2DBackward0", "MulBackward1", "DivBackward1",
               "AddBackward1"}


def graph(grad_fn, depth=10):
    """(name, [children]) below grad_fn, with the loss nodes' non-tensor _saved_ fields."""
    if grad_fn is None:
        return None
    fields = {k: v for k, v in saved(grad_fn).items() if not isinstance(v, tuple)
              or not v or v[0] != "tensor"} if fn_name(grad_fn) in _LOSS_NODES else None
    if depth == 0:
        return (fn_name(grad_fn), fields, "...")
    return (fn_name(grad_fn), fields,
            [graph(f, depth - 1) for f, _ in grad_fn.next_functions])


def _loss_program(name, shape, call, seed=0):
    """``call(t, logits)`` -> loss; observe the loss, its graph, the logits' gradient."""
    def program(t):
        z = t.tensor(arr(*shape, seed=seed), requires_grad=True)
        y = call(t, z)
        return {"loss": y, "graph": graph(y.grad_fn), "grad": backward_of(t, y, z)}
    program.__name__ = name
    prog(program)


_W3 = [0.5, 2.0, 1.25]
_REDS = ("mean", "sum", "none")


def _targets(t, *shape, ignore=None, seed=7, c=3):
    a = arr(*shape, seed=seed, dtype="int64", low=0, high=c)
    if ignore is not None:
        a.reshape(-1)[::3] = ignore
    return t.tensor(a)


for _r in _REDS:
    _loss_program(f"nll_loss_1d_{_r}", (3,), lambda t, z, r=_r: t.nn.functional.nll_loss(
        z, t.tensor(2), reduction=r))
    _loss_program(f"nll_loss_1d_weighted_{_r}", (3,), lambda t, z, r=_r:
                  t.nn.functional.nll_loss(z, t.tensor(1), weight=t.tensor(_W3), reduction=r))
    _loss_program(f"nll_loss_4d_{_r}", (2, 3, 4, 5), lambda t, z, r=_r:
                  t.nn.functional.nll_loss(z, _targets(t, 2, 4, 5), reduction=r))
    _loss_program(f"nll_loss_4d_weighted_ignored_{_r}", (2, 3, 4, 5), lambda t, z, r=_r:
                  t.nn.functional.nll_loss(z, _targets(t, 2, 4, 5, ignore=-100),
                                           weight=t.tensor(_W3), reduction=r))
    _loss_program(f"nll_loss_3d_{_r}", (2, 3, 5), lambda t, z, r=_r:
                  t.nn.functional.nll_loss(z, _targets(t, 2, 5, ignore=1), ignore_index=1,
                                           reduction=r))
    _loss_program(f"nll_loss_5d_weighted_{_r}", (2, 3, 2, 2, 3), lambda t, z, r=_r:
                  t.nn.functional.nll_loss(z, _targets(t, 2, 2, 2, 3),
                                           weight=t.tensor(_W3), reduction=r))
    _loss_program(f"nll_loss_2d_weighted_{_r}", (6, 3), lambda t, z, r=_r:
                  t.nn.functional.nll_loss(z, _targets(t, 6, ignore=-100),
                                           weight=t.tensor(_W3), reduction=r))
    _loss_program(f"cross_entropy_4d_{_r}", (2, 3, 4, 5), lambda t, z, r=_r:
                  t.nn.functional.cross_entropy(z, _targets(t, 2, 4, 5), reduction=r))
    _loss_program(f"cross_entropy_1d_{_r}", (4,), lambda t, z, r=_r:
                  t.nn.functional.cross_entropy(z, t.tensor(3), reduction=r))
    _loss_program(f"cross_entropy_weighted_{_r}", (6, 3), lambda t, z, r=_r:
                  t.nn.functional.cross_entropy(z, _targets(t, 6, ignore=-100),
                                                weight=t.tensor(_W3), reduction=r))
    _loss_program(f"cross_entropy_label_smoothing_{_r}", (6, 3), lambda t, z, r=_r:
                  t.nn.functional.cross_entropy(z, _targets(t, 6, ignore=-100),
                                                reduction=r, label_smoothing=0.2))
    _loss_program(f"cross_entropy_label_smoothing_weighted_{_r}", (6, 3), lambda t, z, r=_r:
                  t.nn.functional.cross_entropy(z, _targets(t, 6, ignore=2), ignore_index=2,
                                                weight=t.tensor(_W3), reduction=r,
                                                label_smoothing=0.3))
    _loss_program(f"cross_entropy_label_smoothing_4d_{_r}", (2, 3, 2, 2), lambda t, z, r=_r:
                  t.nn.functional.cross_entropy(z, _targets(t, 2, 2, 2), reduction=r,
                                                label_smoothing=1.0))
    _loss_program(f"cross_entropy_probabilities_{_r}", (4, 3), lambda t, z, r=_r:
                  t.nn.functional.cross_entropy(
                      z, t.tensor(arr(4, 3, seed=3, low=0.0, high=1.0)), reduction=r))
    _loss_program(f"cross_entropy_probabilities_weighted_smoothed_{_r}", (2, 3, 2),
                  lambda t, z, r=_r: t.nn.functional.cross_entropy(
                      z, t.tensor(arr(2, 3, 2, seed=3, low=0.0, high=1.0)),
                      weight=t.tensor(_W3), reduction=r, label_smoothing=0.1))
    _loss_program(f"cross_entropy_probabilities_1d_{_r}", (3,), lambda t, z, r=_r:
                  t.nn.functional.cross_entropy(z, t.tensor([0.2, 0.5, 0.3]), reduction=r))


_loss_program("cross_entropy_module_weighted", (6, 3), lambda t, z: t.nn.CrossEntropyLoss(
    weight=t.tensor(_W3), ignore_index=0, label_smoothing=0.1)(z, _targets(t, 6)))
_loss_program("nll_loss_module_weighted", (6, 3), lambda t, z: t.nn.NLLLoss(
    weight=t.tensor(_W3), reduction="sum")(z, _targets(t, 6)))
_loss_program("nll_loss_4d_uneven_strides", (2, 4, 5, 3), lambda t, z:
              t.nn.functional.nll_loss(z.permute(0, 3, 1, 2), _targets(t, 2, 4, 5)))
_loss_program("nll_loss_4d_transposed_targets", (2, 3, 4, 5), lambda t, z:
              t.nn.functional.nll_loss(z, _targets(t, 2, 5, 4).transpose(1, 2),
                                       reduction="none"))


@prog
def cross_entropy_probability_target_gradient(t):
    z = t.tensor(arr(4, 3, seed=1), requires_grad=True)
    p = t.tensor(arr(4, 3, seed=2, low=0.0, high=1.0), requires_grad=True)
    y = t.nn.functional.cross_entropy(z, p, label_smoothing=0.25)
    y.backward()
    return {"loss": y, "graph": graph(y.grad_fn), "z": z.grad, "p": p.grad}


@prog
def nll_loss_saved_fields(t):
    F = t.nn.functional
    z = t.tensor(arr(2, 3, 2, 2), requires_grad=True)
    w = t.tensor(_W3)
    tg = _targets(t, 2, 2, 2)
    y = F.nll_loss(z, tg, weight=w, ignore_index=1, reduction="sum")
    fn = y.grad_fn
    return {"name": fn_name(fn), "saved": saved(fn), "weight_is_w":
            fn._saved_weight.data_ptr() == w.data_ptr(), "target_is_tg":
            fn._saved_target.data_ptr() == tg.data_ptr(), "total": fn._saved_total_weight}


@prog
def nll_loss_weight_modified_before_backward(t):
    F = t.nn.functional
    z = t.tensor(arr(6, 3), requires_grad=True)
    w = t.tensor(_W3)
    y = F.nll_loss(z, _targets(t, 6), weight=w)
    w.mul_(2)
    return {"backward": catch(lambda: y.backward()), "version": w._version}


@prog
def nll_loss_empty_and_ignored(t):
    F = t.nn.functional
    out = {}
    for r in _REDS:
        z = t.zeros(0, 3, 2, 2, requires_grad=True)
        y = F.nll_loss(z, t.zeros(0, 2, 2, dtype=t.int64), reduction=r)
        y.sum().backward()
        out[f"empty_4d_{r}"] = (y, z.grad)
        z = t.tensor(arr(3, 2), requires_grad=True)
        y = F.nll_loss(z, t.tensor(-100), weight=t.tensor([1.0, 2.0]), reduction=r)
        y.backward()
        out[f"ignored_1d_{r}"] = (y, z.grad)
        z = t.tensor(arr(1, 3, 2, 2), requires_grad=True)
        y = F.nll_loss(z, t.full((1, 2, 2), -100), reduction=r)
        y.sum().backward()
        out[f"ignored_4d_{r}"] = (y, z.grad)
    z = t.tensor(arr(2, 3), requires_grad=True)
    y = F.nll_loss(z, t.tensor([0, 2]), weight=t.tensor([0.0, 1.0, 0.0]))
    y.backward()
    out["zero_weights"] = (y, z.grad)
    return out


@prog
def loss_argument_errors(t):
    F = t.nn.functional
    z, L = t.zeros, t.int64
    out = {}
    cases = {
        "0d": lambda: F.nll_loss(z(()), z((), dtype=L)),
        "4d_target_2d": lambda: F.nll_loss(z(2, 3, 4, 5), z(2, 4, dtype=L)),
        "4d_size_mismatch": lambda: F.nll_loss(z(2, 3, 4, 5), z(2, 4, 6, dtype=L)),
        "4d_mismatch_bad_weight": lambda: F.nll_loss(z(2, 3, 4, 5), z(2, 4, 6, dtype=L),
                                                     weight=z(2)),
        "4d_float_target": lambda: F.nll_loss(z(2, 3, 4, 5), z(2, 4, 6)),
        "4d_uint8_target": lambda: F.nll_loss(z(2, 3, 4, 5), z(2, 4, 5, dtype=t.uint8)),
        "4d_uint8_double_weight": lambda: F.nll_loss(z(2, 3, 4, 5), z(2, 4, 5, dtype=t.uint8),
                                                     weight=z(3, dtype=t.float64)),
        "4d_int_input": lambda: F.nll_loss(z(2, 3, 4, 5, dtype=L), z(2, 4, 5, dtype=L)),
        "4d_out_of_bounds": lambda: F.nll_loss(z(1, 3, 1, 3), t.tensor([[[0, 9, -5]]])),
        "3d_target_size": lambda: F.nll_loss(z(2, 3, 4), z(2, 5, dtype=L)),
        "3d_uint8": lambda: F.nll_loss(z(2, 3, 4), z(2, 4, dtype=t.uint8)),
        "1d_target_size_2": lambda: F.nll_loss(z(3), z(2, dtype=L)),
        "1d_target_size_1": lambda: F.nll_loss(t.tensor([1.0, 2.0, 3.0]), t.tensor([2])),
        "1d_out_of_bounds": lambda: F.nll_loss(z(3), t.tensor(-1)),
        "2d_out_of_bounds_first": lambda: F.nll_loss(z(4, 3), t.tensor([0, 9, -5, -100]),
                                                     reduction="none"),
        "2d_multi_target": lambda: F.nll_loss(z(2, 3), z(2, 2)),
        "weight_size": lambda: F.nll_loss(z(2, 3), z(2, dtype=L), weight=z(2)),
        "weight_2d": lambda: F.nll_loss(z(2, 3), z(2, dtype=L), weight=z(1, 3)),
        "weight_double": lambda: F.nll_loss(z(2, 3), z(2, dtype=L), weight=z(3, dtype=t.float64)),
        "weight_str": lambda: F.nll_loss(z(2, 3), z(2, dtype=L), weight="a"),
        "weight_requires_grad": lambda: F.nll_loss(z(2, 3), z(2, dtype=L),
                                                   weight=t.ones(3, requires_grad=True)),
        "weight_requires_grad_4d": lambda: F.nll_loss(z(2, 3, 2, 2), z(2, 2, 2, dtype=L),
                                                      weight=t.ones(3, requires_grad=True)),
        "int_input_bad_weight": lambda: F.nll_loss(z(2, 3, dtype=L), z(2, dtype=L), weight=z(2)),
        "ignore_index_float": lambda: F.nll_loss(z(2, 3), z(2, dtype=L), ignore_index=1.5),
        "reduction_none_object": lambda: F.nll_loss(z(2, 3), z(2, dtype=L), reduction=None),
        "ce_probabilities_long": lambda: F.cross_entropy(z(2, 3), z(2, 3, dtype=L)),
        "ce_probabilities_ignore_index": lambda: F.cross_entropy(z(2, 3), z(2, 3),
                                                                 ignore_index=0),
        "ce_probabilities_weight": lambda: F.cross_entropy(z(2, 3), z(2, 3), weight=z(2)),
        "ce_smoothing_too_large": lambda: F.cross_entropy(z(2, 3), z(2, dtype=L),
                                                          label_smoothing=1.5),
        "ce_smoothing_probabilities": lambda: F.cross_entropy(z(2, 3), z(2, 3),
                                                              label_smoothing=2.0),
        "ce_smoothing_str": lambda: F.cross_entropy(z(2, 3), z(2, dtype=L),
                                                    label_smoothing="a"),
        "ce_float_target_other_shape": lambda: F.cross_entropy(z(2, 3), z(2)),
        "ce_weight_list": lambda: F.cross_entropy(z(2, 3), z(2, dtype=L), weight=[1.0]),
    }
    for name, call in cases.items():
        out[name] = catch(call)
    return out


@prog
def legacy_reduction_flags(t):
    import warnings
    F = t.nn.functional
    z = t.tensor(arr(4, 3))
    tg = t.tensor([0, 2, 1, 1])
    out = {}
    for sa in (None, True, False):
        for rd in (None, True, False):
            if sa is None and rd is None:
                continue
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                loss = F.nll_loss(z, tg, size_average=sa, reduce=rd)
                ce = t.nn.CrossEntropyLoss(size_average=sa, reduce=rd)
            out[f"{sa}_{rd}"] = (loss, ce.reduction, [str(x.message) for x in w])
    return out


@pytest.mark.parametrize("program", prog.params())
def test_nn_probe_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
