"""What nn ops save for backward, and the versions of module state, against PyTorch.

derivatives.yaml decides what each node saves (``grad_fn._saved_*``); where PyTorch saves a
tensor, changing it in place before backward raises the version error, so each saved tensor
gets a program that modifies it. Module construction runs in-place initialisers, so fresh
parameters and buffers have versions above 0: each layer's versions are compared from
construction on, and after a training-mode forward.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name

prog = Registry()


def saved_names(grad_fn, names):
    """Which of ``names`` the node has as _saved_ attributes (torch hides the others)."""
    return {n: hasattr(grad_fn, f"_saved_{n}") for n in names}


def versions(module):
    out = {n: p._version for n, p in module.named_parameters()}
    out.update({n: b._version for n, b in module.named_buffers()})
    return out


def img(t, seed=0, grad=True):
    return t.tensor(arr(2, 3, 5, 5, seed=seed), requires_grad=grad)


# ----------------------------------------------------------------------------- saved names
@prog
def conv2d_saves_input_and_weight(t):
    x, w = img(t), t.tensor(arr(4, 3, 3, 3, seed=1), requires_grad=True)
    y = t.nn.functional.conv2d(x, w, padding=1)
    fn = y.grad_fn
    return {"name": fn_name(fn), "has": saved_names(fn, ["input", "weight", "self"]),
            "input_is_x": fn._saved_input.data_ptr() == x.data_ptr(),
            "weight": fn._saved_weight}


def _modify_then_backward(name, build):
    """``build(t)`` returns (output, the tensor to modify); modify it in place, backprop."""
    def program(t):
        y, victim = build(t)
        with t.no_grad():
            victim.add_(1)
        return {"backward": catch(lambda: y.sum().backward()), "version": victim._version}
    program.__name__ = name
    prog(program)


_modify_then_backward("conv2d_input_modified", lambda t: (lambda h, w: (
    t.nn.functional.conv2d(h, w), h))(img(t) * 1, t.tensor(arr(4, 3, 3, 3), requires_grad=True)))
_modify_then_backward("conv2d_input_without_grad_modified", lambda t: (lambda h, w: (
    t.nn.functional.conv2d(h, w), h))(img(t, grad=False), t.tensor(arr(4, 3, 3, 3),
                                                                    requires_grad=True)))
_modify_then_backward("conv2d_weight_modified", lambda t: (lambda m: (
    m(img(t)), m.weight))(t.nn.Conv2d(3, 2, 3)))


@prog
def batchnorm_training_saves(t):
    bn = t.nn.BatchNorm2d(3)
    y = bn(img(t))
    fn = y.grad_fn
    return {"name": fn_name(fn),
            "has": saved_names(fn, ["input", "weight", "running_mean", "running_var",
                                    "result1", "result2", "training", "eps"]),
            "result1": fn._saved_result1, "result2": fn._saved_result2,
            "running_mean_is_buffer": fn._saved_running_mean.data_ptr()
            == bn.running_mean.data_ptr(),
            "training": fn._saved_training}


@prog
def batchnorm_eval_saves_empty_results(t):
    bn = t.nn.BatchNorm2d(3)
    bn.eval()
    y = bn(img(t))
    fn = y.grad_fn
    return {"result1": tuple(fn._saved_result1.shape), "result2": tuple(fn._saved_result2.shape),
            "training": fn._saved_training}


_modify_then_backward("batchnorm_running_mean_modified_in_training", lambda t: (lambda bn: (
    bn(img(t)), bn.running_mean))(t.nn.BatchNorm2d(3)))
_modify_then_backward("batchnorm_running_var_modified_no_affine", lambda t: (lambda bn: (
    bn(img(t)), bn.running_var))(t.nn.BatchNorm2d(3, affine=False)))
_modify_then_backward("batchnorm_running_mean_modified_in_eval", lambda t: (lambda bn: (
    bn(img(t)), bn.running_mean))(t.nn.BatchNorm2d(3).eval()))
_modify_then_backward("batchnorm_weight_modified", lambda t: (lambda bn: (
    bn(img(t)), bn.weight))(t.nn.BatchNorm2d(3)))
_modify_then_backward("batchnorm_input_modified", lambda t: (lambda h: (
    t.nn.BatchNorm2d(3)(h), h))(img(t) * 1))


@prog
def max_pool2d_saves_self_and_indices(t):
    x = img(t)
    y, idx = t.nn.functional.max_pool2d(x, 2, return_indices=True)
    fn = y.grad_fn
    return {"name": fn_name(fn), "has": saved_names(fn, ["self", "result1", "indices"]),
            "result1": fn._saved_result1, "indices": idx}


_modify_then_backward("max_pool2d_indices_modified", lambda t: t.nn.functional.max_pool2d(
    img(t) * 1, 2, return_indices=True))
_modify_then_backward("max_pool2d_input_modified", lambda t: (lambda h: (
    t.nn.functional.max_pool2d(h, 2), h))(img(t) * 1))
_modify_then_backward("avg_pool2d_input_modified", lambda t: (lambda h: (
    t.nn.functional.avg_pool2d(h, 2), h))(img(t) * 1))


@prog
def avg_pool2d_saves_self(t):
    x = img(t)
    fn = t.nn.functional.avg_pool2d(x, 2).grad_fn
    return {"name": fn_name(fn), "has": saved_names(fn, ["self"]),
            "self_is_x": fn._saved_self.data_ptr() == x.data_ptr()}


def _nll(t, reduction="mean"):
    lp = t.tensor(arr(4, 5, seed=3), requires_grad=True).log_softmax(1)
    target = t.tensor([1, 2, -100, 4])
    return t.nn.functional.nll_loss(lp, target, reduction=reduction), lp, target


@prog
def nll_loss_saves_self_target_total_weight(t):
    loss, lp, target = _nll(t)
    fn = loss.grad_fn
    return {"name": fn_name(fn),
            "has": saved_names(fn, ["self", "target", "total_weight", "weight"]),
            "total_weight": fn._saved_total_weight, "weight": fn._saved_weight,
            "reduction": fn._saved_reduction, "ignore_index": fn._saved_ignore_index,
            "self_is_input": fn._saved_self.data_ptr() == lp.data_ptr()}


_modify_then_backward("nll_loss_target_modified", lambda t: (lambda r: (r[0], r[2]))(_nll(t)))
_modify_then_backward("nll_loss_self_modified", lambda t: (lambda r: (r[0], r[1]))(_nll(t)))


# ----------------------------------------------------------------------------- versions
def _versions_program(name, make):
    def program(t):
        t.manual_seed(0)
        return {"versions": versions(make(t))}
    program.__name__ = name
    prog(program)


_versions_program("fresh_linear_versions", lambda t: t.nn.Linear(3, 4))
_versions_program("fresh_conv2d_versions", lambda t: t.nn.Conv2d(3, 4, 3))
_versions_program("fresh_batchnorm2d_versions", lambda t: t.nn.BatchNorm2d(3))
_versions_program("fresh_batchnorm1d_no_affine_versions",
                  lambda t: t.nn.BatchNorm1d(3, affine=False))
_versions_program("fresh_layernorm_versions", lambda t: t.nn.LayerNorm(5))
_versions_program("fresh_embedding_versions", lambda t: t.nn.Embedding(10, 4))
_versions_program("fresh_embedding_padding_versions",
                  lambda t: t.nn.Embedding(10, 4, padding_idx=-1))


@prog
def batchnorm_forward_versions_train_and_eval(t):
    bn = t.nn.BatchNorm2d(3)
    seen = [versions(bn)]
    for s in range(2):
        bn(img(t, seed=s))
        seen.append(versions(bn))
    bn.eval()
    bn(img(t, seed=5))
    seen.append(versions(bn))
    return {"versions": seen, "state": dict(bn.state_dict())}


@prog
def batchnorm_momentum_none_versions(t):
    bn = t.nn.BatchNorm1d(3, momentum=None)
    for s in range(3):
        bn(t.tensor(arr(4, 3, seed=s)))
    return {"versions": versions(bn), "state": dict(bn.state_dict())}


# ----------------------------------------------------------------------------- dtype checks
@prog
def linear_on_int64_input(t):
    m = t.nn.Linear(3, 2)
    return {"2d": catch(lambda: m(t.tensor([[1, 2, 3]]))),
            "3d": catch(lambda: m(t.tensor([[[1, 2, 3]]])))}


@prog
def integer_losses(t):
    F = t.nn.functional
    i = t.tensor([[1, 2], [3, 4]])
    return {"mse": catch(lambda: F.mse_loss(i, i)),
            "cross_entropy": catch(lambda: F.cross_entropy(i, t.tensor([1, 0]))),
            "nll": catch(lambda: F.nll_loss(i, t.tensor([1, 0]))),
            "nll_float_target": catch(lambda: F.nll_loss(i.float(), t.tensor([1.0, 0.0]))),
            "batch_norm": catch(lambda: t.nn.BatchNorm1d(2)(i))}


@pytest.mark.parametrize("program", prog.params())
def test_nn_saved_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
