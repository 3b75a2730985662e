"""nn features beyond the defaults, against PyTorch 2.13: batch norm on an empty batch,
embedding's max_norm (a write into the weight), and the binding's words for arguments of the
wrong type (F.linear, F.conv2d), by position or keyword.

Each program is the PyTorch program it mirrors: values, gradients, graph names, saved
fields, versions and error texts are compared (pooling's ceil_mode/dilation/divisor and
conv2d's dilation/groups have their own files).
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, graph, upstream

prog = Registry()


def img(t, *shape, seed=0, grad=True):
    return t.tensor(arr(*(shape or (2, 3, 5, 5)), seed=seed), requires_grad=grad)


# ----------------------------------------------------------------------------- empty batch
# _batch_norm_impl_index answers an empty input before it looks at the statistics:
# input.clone() * weight[0] + bias[0], no running-stat update, no size checks.
@prog
def batchnorm2d_empty_width_training(t):
    bn = t.nn.BatchNorm2d(2)
    with t.no_grad():
        bn.weight.fill_(2.0)
        bn.bias.fill_(0.5)
    x = img(t, 2, 2, 4, 0)
    y = bn(x)
    obs = {"y": y, "graph": graph(y.grad_fn),
           "mul_saved_other": y.grad_fn.next_functions[0][0]._saved_other}
    y.backward(upstream(t, y))
    return {**obs, "x.grad": x.grad, "w.grad": bn.weight.grad, "b.grad": bn.bias.grad,
            "state": dict(bn.state_dict()),
            "versions": {n: v._version for n, v in bn.state_dict().items()}}


@prog
def batchnorm_empty_eval_and_without_affine(t):
    x = img(t, 0, 3)
    return {"eval": t.nn.BatchNorm1d(3).eval()(x), "eval_fn": graph(
        t.nn.BatchNorm1d(3).eval()(x).grad_fn),
        "no_affine": graph(t.nn.BatchNorm1d(3, affine=False)(x).grad_fn),
        "momentum_none": t.nn.BatchNorm1d(3, momentum=None)(x).shape,
        "3d_empty_length": t.nn.BatchNorm1d(3)(img(t, 4, 3, 0)).shape}


@prog
def batch_norm_empty_skips_statistic_checks(t):
    F = t.nn.functional
    x = t.zeros(0, 3)
    return {"wrong_sizes": catch(lambda: F.batch_norm(x, t.zeros(2), t.ones(5))),
            "eval_without_stats": catch(lambda: F.batch_norm(x, None, None)),
            "mixed_dtypes": catch(lambda: F.batch_norm(x.double(), None, None, t.ones(3),
                                                       training=True).dtype),
            "one_dim": catch(lambda: F.batch_norm(t.zeros(0), None, None, training=True)),
            "eps_zero_training": catch(lambda: F.batch_norm(x, None, None, training=True,
                                                            eps=0.0)),
            "weight_not_tensor": catch(lambda: F.batch_norm(x, None, None, 'a')),
            "running_mean_untouched": catch(lambda: (lambda rm: (F.batch_norm(
                x, rm, t.ones(3), training=True), rm._version, rm)[1:])(t.zeros(3)))}


@prog
def batchnorm_empty_node_saves_weight_row(t):
    bn = t.nn.BatchNorm2d(2)
    y = bn(img(t, 0, 2, 3, 3))
    mul = y.grad_fn.next_functions[0][0]
    return {"add": fn_name(y.grad_fn), "mul": fn_name(mul),
            "select": graph(mul.next_functions[1][0]),
            "backward": catch(lambda: y.sum().backward()), "w.grad": bn.weight.grad}


# ----------------------------------------------------------------------------- max_norm
# F.embedding(..., max_norm=) first rescales, in the weight itself and under no_grad, every row
# it is about to look up whose norm is above max_norm (embedding_renorm_): one version step.
def table(t, grad=False, seed=3):
    return t.tensor(arr(6, 4, seed=seed, low=-3.0, high=3.0), requires_grad=grad)


@prog
def embedding_max_norm_rescales_the_weight_rows_it_reads(t):
    w = table(t, grad=True)
    idx = t.tensor([[0, 2], [5, 2]])
    y = t.nn.functional.embedding(idx, w, max_norm=1.5)
    obs = {"y": y, "weight_after": w.detach().clone(), "version": w._version,
           "grad_fn": fn_name(y.grad_fn), "saved_indices": y.grad_fn._saved_indices}
    y.backward(upstream(t, y))
    return {**obs, "w.grad": w.grad}


@prog
def embedding_max_norm_norm_types(t):
    F = t.nn.functional
    out = {}
    for p in (1.0, 3.0, 0.5, float("inf"), float("-inf"), 0.0):
        w = table(t, seed=4)
        out[str(p)] = (F.embedding(t.tensor([1, 3, 1]), w, max_norm=1.0, norm_type=p), w,
                       w._version)
    return out


@prog
def embedding_max_norm_rows_within_the_norm_stay(t):
    F = t.nn.functional
    w = t.tensor([[0.6, 0.8], [3.0, 4.0], [0.0, 0.0]])
    y = F.embedding(t.tensor([0, 2, 2]), w, max_norm=1.0)  # norms 1 and 0: nothing to scale
    z = F.embedding(t.tensor([1]), w, max_norm=5.0)  # exactly at the norm: kept
    return {"y": y, "z": z, "w": w, "version": w._version,
            "empty": (F.embedding(t.tensor([], dtype=t.long), w, max_norm=1.0).shape,
                      w._version),
            "negative_max_norm": (F.embedding(t.tensor([1]), w, max_norm=-1.0), w)}


@prog
def embedding_max_norm_through_a_view_bumps_the_base(t):
    base = table(t, seed=5)
    y = t.nn.functional.embedding(t.tensor([0, 1]), base.t(), max_norm=1.0)
    return {"y": y, "base": base, "base_version": base._version}


@prog
def embedding_max_norm_dtypes(t):
    F = t.nn.functional
    out = {}
    for name, dt in (("float64", t.float64), ("float16", t.float16)):
        w = table(t, seed=6).to(dt)
        out[name] = (F.embedding(t.tensor([0, 4], dtype=t.int32), w, max_norm=2.0), w)
    return out


@prog
def embedding_max_norm_breaks_a_saved_weight(t):
    """The lesson: a weight another node saved is changed by the lookup itself."""
    w = table(t, grad=True, seed=7)
    loss = (w ** 2).sum()  # PowBackward0 saves w (version 0)
    y = t.nn.functional.embedding(t.tensor([1]), w, max_norm=1.0)
    return {"version": w._version, "backward": catch(lambda: loss.backward()),
            "y": y}


@prog
def nn_embedding_max_norm_module(t):
    t.manual_seed(0)
    e = t.nn.Embedding(5, 3, padding_idx=1, max_norm=0.5, norm_type=1.0)
    with t.no_grad():
        e.weight.copy_(t.tensor(arr(5, 3, seed=8)))
    v0 = e.weight._version
    y1 = e(t.tensor([0, 1, 4]))
    v1 = e.weight._version
    y2 = e(t.tensor([[4, 3]]))
    y2.sum().backward()
    return {"versions": [v0, v1, e.weight._version], "y1": y1, "y2": y2, "weight": e.weight,
            "grad": e.weight.grad, "repr": repr(e),
            "attrs": [e.max_norm, e.norm_type, e.padding_idx]}


@prog
def embedding_max_norm_errors(t):
    F = t.nn.functional
    w = table(t, seed=9)
    calls = {
        "max_norm_str": lambda: F.embedding(t.tensor([0]), w, max_norm="a"),
        "norm_type_none": lambda: F.embedding(t.tensor([0]), w, max_norm=1, norm_type=None),
        "float_indices": lambda: F.embedding(t.tensor([0.0]), w, max_norm=1.0),
        "weight_1d": lambda: F.embedding(t.tensor([0]), w[0], max_norm=1.0),
        "indices_list": lambda: F.embedding([0], w, max_norm=1.0),
        "weight_list_padding": lambda: F.embedding(t.tensor([0]), [[1.0]], padding_idx=0),
        "int_weight": lambda: F.embedding(t.tensor([0]), w.long(), max_norm=1.0),
        "int_weight_no_rows": lambda: F.embedding(t.tensor([], dtype=t.long), w.long(),
                                                  max_norm=1.0).shape,
        "out_of_range": lambda: F.embedding(t.tensor([7]), w, max_norm=1.0),
        "negative_out_of_range": lambda: F.embedding(t.tensor([-9, 0]), w, max_norm=1.0),
        "padding_out_of_range": lambda: F.embedding(t.tensor([0]), w, padding_idx=6,
                                                    max_norm=1.0),
        # -1 names the last row for the renorm (Python-like), then the lookup refuses it:
        # the renorm has already happened
        "negative_index": lambda: F.embedding(t.tensor([-1]), w, max_norm=1.0),
    }
    out = {}
    for name, fn in calls.items():
        out[name] = catch(fn)
        out[name + " version"] = w._version
    out["weight"] = w
    return out


@prog
def embedding_max_norm_bad_row_after_good_ones(t):
    """PyTorch rescales row 0, then raises at row 7, with the version unchanged; the core checks
    every row first and writes nothing (its promise: nothing half-written). So only the error
    and the version are compared here, not the weight's values."""
    w = table(t, seed=10)
    return {"error": catch(lambda: t.nn.functional.embedding(t.tensor([0, 7]), w,
                                                             max_norm=1.0)),
            "version": w._version}


# ----------------------------------------------------------------------------- binding words
@prog
def linear_bias_wrong_type(t):
    F = t.nn.functional
    x, m = img(t, 2, 3, grad=False), img(t, 4, 3, seed=1, grad=False)
    return {"keyword": catch(lambda: F.linear(x, m, bias=1.0)),
            "positional": catch(lambda: F.linear(x, m, 1.0)),
            "weight_keyword": catch(lambda: F.linear(x, weight=[1.0])),
            "input_keyword": catch(lambda: F.linear(input=1, weight=m)),
            "module": catch(lambda: t.nn.Linear(3, 2)([1.0, 2.0, 3.0]))}


@prog
def conv2d_argument_of_wrong_type(t):
    F = t.nn.functional
    x, w = img(t, 2, 2, 4, 4, grad=False), img(t, 3, 2, 3, 3, seed=1, grad=False)
    return {"stride_str": catch(lambda: F.conv2d(x, w, stride='a')),
            "stride_positional": catch(lambda: F.conv2d(x, w, None, 'a')),
            "padding_float": catch(lambda: F.conv2d(x, w, padding=1.5)),
            "groups_float_all_positional": catch(lambda: F.conv2d(x, w, None, 1, 0, 1, 1.5)),
            "groups_bool": catch(lambda: F.conv2d(x, w, groups=True)),
            "dilation_str": catch(lambda: F.conv2d(x, w, dilation='a')),
            "bias_float": catch(lambda: F.conv2d(x, w, bias=1.0)),
            "bias_positional_float": catch(lambda: F.conv2d(x, w, 1.0)),
            "none_keywords": catch(lambda: F.conv2d(x, w, bias=None, stride=None)),
            "mixed": catch(lambda: F.conv2d(x, w, None, 1, 'a', groups=1.0)),
            "input_str_trailing_none": catch(lambda: F.conv2d('a', w, None)),
            "input_str": catch(lambda: F.conv2d('a', w)),
            "stride_second_element": catch(lambda: F.conv2d(x, w, stride=(1, 'a'))),
            "stride_first_element": catch(lambda: F.conv2d(x, w, stride=('a', 1))),
            "stride_float_padding_str": catch(lambda: F.conv2d(x, w, stride=1.0,
                                                               padding='same')),
            "stride_int_tensor": catch(lambda: F.conv2d(x, w, stride=t.tensor(1)).shape)}


@prog
def avg_pool2d_argument_keyword_or_position(t):
    F = t.nn.functional
    x = img(t, 2, 2, 4, 4, grad=False)
    return {"kernel_keyword": catch(lambda: F.avg_pool2d(x, kernel_size='a')),
            "stride_keyword": catch(lambda: F.avg_pool2d(x, 2, stride='a')),
            "stride_positional": catch(lambda: F.avg_pool2d(x, 2, 'a')),
            "module": catch(lambda: t.nn.AvgPool2d('a')(x))}


@pytest.mark.parametrize("program", prog.params())
def test_nn_features_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
