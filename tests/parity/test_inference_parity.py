"""Inference tensors: which tensors are inference tensors, which have a version counter, which
may be written in place where, and enable_grad inside inference_mode.

PyTorch 2.13 refuses an in-place op on an inference tensor outside inference mode only *after*
its kernel wrote (the core refuses before writing, the course's rule), so no program here looks
at the values of a tensor after such a refusal; the texts and flags are compared.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name

pytestmark = pytest.mark.parity

prog = Registry()


@prog
def inference_views_and_detach_are_inference(t):
    with t.inference_mode():
        i = t.tensor(arr(3))
    v, d, data = i[:2], i.detach(), i.data
    return {
        "flags": [i.is_inference(), v.is_inference(), d.is_inference(), data.is_inference(),
                  i.view(3).is_inference(), (i * 2).is_inference(), i.clone().is_inference()],
        "version": catch(lambda: i._version),
        "view_version": catch(lambda: v._version),
        "out_of_place_version": (i * 2)._version,
    }


@prog
def inference_inplace_refused_outside(t):
    with t.inference_mode():
        i = t.tensor(arr(3))
    return {
        "self": catch(lambda: i.add_(1)),
        "view": catch(lambda: i[:2].mul_(2)),
        "setitem": catch(lambda: i.__setitem__(0, 5.0)),
        "requires_grad": catch(lambda: i.requires_grad_()),
        "requires_grad_attr": catch(lambda: setattr(i, "requires_grad", True)),
        "requires_grad_false": catch(lambda: i.requires_grad_(False).requires_grad),
        "view_requires_grad": catch(lambda: i[:1].requires_grad_()),
    }


@prog
def inference_inplace_allowed_inside(t):
    with t.inference_mode():
        i = t.tensor(arr(3))
    with t.inference_mode():
        i.add_(1)
        i[:2].mul_(2)
        version = catch(lambda: i._version)
    return {"i": i, "version": version}


@prog
def inference_detach_outside_has_its_own_counter(t):
    # PyTorch's odd corner: detach() of an inference tensor outside inference mode is still an
    # inference tensor, but gets a version counter of its own and may be written in place
    with t.inference_mode():
        i = t.tensor(arr(3))
    d = i.detach()
    before = d._version
    d.add_(1)
    i_now = i.clone()  # before the refused write below (torch writes, then refuses)
    return {
        "is_inference": d.is_inference(), "versions": [before, d._version], "i": i_now,
        "view_of_it": catch(lambda: d[:2].add_(1)),
        "view_version": catch(lambda: d[:2]._version),
        "data_version": i.data._version,
    }


@prog
def inference_detach_inside_has_none(t):
    with t.inference_mode():
        k = t.tensor(arr(3))
        kd = k.detach()
        kdata = k.data
    n = t.tensor(arr(3))
    with t.inference_mode():
        nd = n.detach()
        nd.add_(1)  # shares n's counter: a normal tensor
        ndata = n.data
    return {
        "kd": [kd.is_inference(), catch(lambda: kd._version), catch(lambda: kd.add_(1))],
        "kdata": [kdata.is_inference(), catch(lambda: kdata._version)],
        "nd": [nd.is_inference(), nd._version, n._version],
        "ndata": [ndata.is_inference(), ndata._version],
    }


@prog
def inference_view_of_normal_tensor(t):
    n = t.tensor(arr(3))
    with t.inference_mode():
        v = n[:2]
        v.add_(1)
        out = n * 2
    v.mul_(2)  # a view of a normal tensor is normal, even if made in inference mode
    return {"v": [v.is_inference(), v._version], "n": n, "out": out.is_inference()}


@prog
def inference_tensor_cannot_be_saved(t):
    with t.inference_mode():
        i = t.tensor(arr(3))
    w = t.tensor(arr(3, seed=2), requires_grad=True)
    return {
        "mul": catch(lambda: w * i),
        "mul_detached": catch(lambda: w * i.detach()),
        "add": fn_name((w + i).grad_fn),  # add saves nothing: allowed
        "sum_of_view": fn_name((w * i[:3].sum()).grad_fn),
    }


@prog
def enable_grad_inside_inference_mode(t):
    a = t.tensor(arr(2), requires_grad=True)
    with t.inference_mode():
        with t.enable_grad():
            flags = [t.is_grad_enabled(), t.is_inference_mode_enabled()]
            b = a * 2
            c = t.ones(2)
            c.requires_grad_()
        after = [t.is_grad_enabled(), t.is_inference_mode_enabled()]
    return {
        "flags": flags, "after": after,
        "b": [b.requires_grad, fn_name(b.grad_fn), b.is_inference()],
        "c": [c.requires_grad, c.is_inference(), c.is_leaf],
        "outside": [t.is_grad_enabled(), t.is_inference_mode_enabled()],
    }


@prog
def inference_mode_false_turns_grad_on(t):
    x = t.tensor(arr(2), requires_grad=True)
    with t.no_grad():
        with t.inference_mode(False):
            inside = [t.is_grad_enabled(), t.is_inference_mode_enabled()]
            y = x * 2
        back = t.is_grad_enabled()
    with t.inference_mode():
        with t.inference_mode(False):
            z = x * 2
            nested = [t.is_grad_enabled(), t.is_inference_mode_enabled(), z.is_inference()]
        w = t.ones(1)
    return {"inside": inside, "y": fn_name(y.grad_fn), "back": back, "nested": nested,
            "z": fn_name(z.grad_fn), "w": w.is_inference()}


@prog
def no_grad_inside_inference_mode(t):
    with t.inference_mode():
        with t.no_grad():
            a = t.ones(2)
            flags = [t.is_grad_enabled(), t.is_inference_mode_enabled()]
        still = t.is_inference_mode_enabled()
    return {"a": a.is_inference(), "flags": flags, "still": still}


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_inference_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
