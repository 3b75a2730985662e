"""nn.Module.to(...), .cpu(), .cuda(), .float()/.double()/.half()/.bfloat16(), .type(dst)
against torch 2.13: torch's Module._apply keeps every Parameter object (``param.data`` is
replaced, so its version counter and ``_version`` stay), converts ``.grad`` the same way,
replaces buffers by their converted tensors (an integer buffer such as BatchNorm's
``num_batches_tracked`` keeps its dtype, except under ``type()``), and an optimizer built
before the conversion steps the same objects. ``to``'s arguments are parsed by torch's
``_parse_to`` (no ``copy=``, floating dtypes only). (inplace_tutorial/nn/module.py)
"""
import warnings

import pytest

from .harness import Registry, arr, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


def _filled(t, m):
    """The module with known parameter values (the two generators differ)."""
    with t.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(t.tensor(arr(*p.shape, seed=i)))
    return m


def _net(t):
    return _filled(t, t.nn.Sequential(t.nn.Linear(3, 4), t.nn.ReLU(), t.nn.Linear(4, 2)))


def _state(m):
    """What each parameter and buffer looks like: dtype, version, grad's dtype and version."""
    out = {}
    for name, p in m.named_parameters():
        g = p.grad
        out[name] = (str(p.dtype), p._version, p.requires_grad, p.is_leaf, p.grad_fn is None,
                     type(p).__name__, None if g is None else (str(g.dtype), g._version))
    for name, b in m.named_buffers():
        out[name] = (str(b.dtype), b._version, b.requires_grad, tuple(b.stride()))
    return out


@prog
def to_float64_keeps_every_parameter_object_and_replaces_its_data(t):
    m = _net(t)
    params = list(m.parameters())
    ptrs = [p.data_ptr() for p in params]
    before = _state(m)
    r = m.to(t.float64)
    after = list(m.parameters())
    return {"returns self": r is m, "before": before, "after": _state(m),
            "same objects": [a is b for a, b in zip(params, after)],
            "ptr moved": [p.data_ptr() != q for p, q in zip(after, ptrs)],
            "values": [p.detach() for p in after],
            "out": m(t.tensor(arr(2, 3)).double())}


@prog
def to_the_same_dtype_or_the_cpu_changes_nothing(t):
    m = _net(t)
    ptrs = [p.data_ptr() for p in m.parameters()]
    out = {}
    for name, call in {"cpu": lambda: m.to("cpu"), "device": lambda: m.to(t.device("cpu")),
                       "float32": lambda: m.to(t.float32), "none": lambda: m.to(),
                       "m.cpu()": lambda: m.cpu(), "m.float()": lambda: m.float(),
                       "tensor": lambda: m.to(t.zeros(2)),
                       "non_blocking": lambda: m.to("cpu", non_blocking=True),
                       "cpu, float32": lambda: m.to("cpu", t.float32, True)}.items():
        r = call()
        out[name] = (r is m, [p.data_ptr() == q for p, q in zip(m.parameters(), ptrs)],
                     _state(m))
    return out


@prog
def to_an_indexed_cpu_copies_each_parameter_and_keeps_its_object(t):
    m = _net(t)
    params = list(m.parameters())
    ptrs = [p.data_ptr() for p in params]
    m.to("cpu:0")
    return {"same objects": [a is b for a, b in zip(params, m.parameters())],
            "ptr moved": [p.data_ptr() != q for p, q in zip(m.parameters(), ptrs)],
            "state": _state(m), "values": [p.detach() for p in m.parameters()]}


@prog
def grads_are_converted_too_and_stay_the_same_objects(t):
    m = _net(t)
    m(t.tensor(arr(5, 3))).sum().backward()
    grads = [p.grad for p in m.parameters()]
    gptrs = [g.data_ptr() for g in grads]
    m.half()
    return {"state": _state(m),
            "same grad objects": [p.grad is g for p, g in zip(m.parameters(), grads)],
            "grad ptr moved": [p.grad.data_ptr() != q for p, q in zip(m.parameters(), gptrs)],
            "grads": [p.grad for p in m.parameters()],
            "params": [p.detach() for p in m.parameters()]}


@prog
def every_shorthand_casts_floating_tensors_only(t):
    out = {}
    for name in ("float", "double", "half", "bfloat16"):
        m = _filled(t, t.nn.BatchNorm2d(3))
        with t.no_grad():  # running stats as a forward would leave them (known values)
            m.running_mean.copy_(t.tensor(arr(3, seed=5)))
            m.running_var.copy_(t.tensor(arr(3, seed=6)).abs())
            m.num_batches_tracked.add_(1)
        r = getattr(m, name)()
        out[name] = (r is m, _state(m), m.running_mean, m.running_var, m.num_batches_tracked)
    return out


@prog
def buffers_are_replaced_parameters_are_not(t):
    m = _filled(t, t.nn.BatchNorm2d(3))
    w, rm, nbt = m.weight, m.running_mean, m.num_batches_tracked
    m.to(t.float64)
    out = {"weight kept": m.weight is w, "running_mean replaced": m.running_mean is not rm,
           "old running_mean": str(rm.dtype), "nbt kept": m.num_batches_tracked is nbt,
           "state": _state(m)}
    m.to(t.float64)
    out["again: running_mean kept"] = m.running_mean.dtype
    return out


@prog
def type_casts_every_tensor_integer_buffers_too(t):
    m = _filled(t, t.nn.BatchNorm2d(2))
    out = {"double": (m.type(t.float64) is m, _state(m)),
           "name": (m.type("torch.FloatTensor") is m, _state(m)),
           "int refused": catch(lambda: m.type(t.int32)), "after": _state(m),
           "bad": catch(lambda: m.type("foo"))}
    relu = t.nn.ReLU()
    out["no tensors"] = relu.type(t.int32) is relu
    return out


@prog
def an_optimizer_built_before_to_steps_the_same_parameters(t):
    m = _net(t)
    opt = t.optim.SGD(m.parameters(), lr=0.5, momentum=0.5)  # exact alphas: no FMA question
    x = t.tensor(arr(4, 3))
    m(x).sum().backward()
    opt.step()
    m.to(t.float64)
    opt.zero_grad()
    m(x.double()).sum().backward()
    opt.step()
    return {"params": [p.detach() for p in m.parameters()], "state": _state(m),
            "same": [p is q for p, q in zip(opt.param_groups[0]["params"], m.parameters())],
            "buf": [opt.state[p]["momentum_buffer"] for p in m.parameters()]}


@prog
def memory_format_converts_four_dimensional_tensors_only(t):
    m = _filled(t, t.nn.Sequential(t.nn.Conv2d(2, 3, 3), t.nn.BatchNorm2d(3)))
    m.to(memory_format=t.channels_last)
    out = {n: (tuple(p.stride()), p.is_contiguous()) for n, p in m.named_parameters()}
    m.to(t.float64, memory_format=t.contiguous_format)
    out["back"] = {n: tuple(p.stride()) for n, p in m.named_parameters()}
    out["state"] = _state(m)
    return out


@prog
def to_refuses_what_torchs_parse_to_refuses(t):
    m = _net(t)
    calls = {
        "cuda": lambda: m.to("cuda"), "int64": lambda: m.to(t.int64),
        "copy": lambda: m.to(copy=True), "copy False": lambda: m.to(t.float32, copy=False),
        "copy before device": lambda: m.to(2, copy=True),
        "three ints": lambda: m.to(1, 2, 3), "int device": lambda: m.to(2),
        "device=3": lambda: m.to(device=3), "dtype str": lambda: m.to(dtype="float"),
        "layout": lambda: m.to(t.strided), "keyword": lambda: m.to(foo=1),
        "non_blocking int": lambda: m.to(non_blocking=1),
        "int tensor": lambda: m.to(t.zeros(2, dtype=t.int64)),
        "bool": lambda: m.to(t.bool), "python int": lambda: m.to(int),
        "meta index": lambda: m.to("cuda:1"), "bad string": lambda: m.to("gpu"),
        "negative": lambda: m.to(-1),
    }
    return {name: catch(call) for name, call in calls.items()} | {"state": _state(m)}


@prog
def a_number_is_taken_for_a_tensor_and_python_types_for_dtypes(t):
    out = {}
    for name, arg in (("2.0", 2.0), ("True", True), ("float", float)):
        m = _net(t)
        out[name] = (catch(lambda m=m, arg=arg: m.to(arg) is m), _state(m))
    return out


@prog
def cuda_is_refused_as_a_cpu_only_torch_refuses_it(t):
    m = _net(t)
    relu = t.nn.ReLU()
    return {"cuda()": catch(lambda: m.cuda()), "cuda(0)": catch(lambda: m.cuda(0)),
            "cuda('cpu')": catch(lambda: m.cuda("cpu")),
            "cuda(device)": catch(lambda: m.cuda(t.device("cuda", 1))),
            "no tensors": relu.cuda() is relu, "state": _state(m)}


@prog
def a_conversion_runs_under_no_grad_and_keeps_requires_grad(t):
    m = _net(t)
    m[0].weight.requires_grad_(False)
    m.double()
    frozen = m[0].weight
    return {"state": _state(m), "frozen": (frozen.requires_grad, frozen.grad_fn is None),
            "out": m(t.tensor(arr(2, 3)).double()).grad_fn is not None}


@prog
def module_to_warns_nothing(t):
    m = _net(t)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m.to(t.float64)
        m.to("cpu", t.float16)
        m.cpu()
    return [str(w.message) for w in caught]


@prog
def a_graph_built_before_the_cast_still_runs_backward(t):
    m = _filled(t, t.nn.Linear(3, 2))
    y = m(t.tensor(arr(4, 3))).sum()
    m.double()
    r = catch(lambda: y.backward())
    same = _filled(t, t.nn.Linear(3, 2))
    z = same(t.tensor(arr(4, 3))).sum()
    same.float()
    z.backward()
    return {"double": (r, m.weight.grad), "float": same.weight.grad}


@prog
def shared_parameters_stay_shared_shared_buffers_split(t):
    a, b = _filled(t, t.nn.Linear(2, 2)), t.nn.Linear(2, 2)
    b.weight = a.weight
    bn1, bn2 = t.nn.BatchNorm1d(2), t.nn.BatchNorm1d(2)
    bn2.running_mean = bn1.running_mean
    s = t.nn.Sequential(a, b, bn1, bn2).double()
    return {"weight": (a.weight is b.weight, str(a.weight.dtype), a.weight._version),
            "running_mean shared": bn1.running_mean is bn2.running_mean,
            "parameters": len(list(s.parameters()))}


@prog
def a_refused_cast_stops_at_the_parameter_that_needs_grad(t):
    m = _filled(t, t.nn.Linear(2, 2))
    m.weight.requires_grad_(False)
    return {"type int32": catch(lambda: m.type(t.int32)), "weight": str(m.weight.dtype),
            "bias": str(m.bias.dtype)}


@prog
def an_assigned_grad_is_converted_in_its_own_object(t):
    m = _filled(t, t.nn.Linear(2, 2))
    m.weight.grad = t.ones(2, 2)
    g = m.weight.grad
    m.double()
    return {"grad": (m.weight.grad is g, g, g._version, g.requires_grad)}


@prog
def memory_format_converts_grads_too(t):
    m = _filled(t, t.nn.Conv2d(2, 2, 2))
    m(t.tensor(arr(1, 2, 3, 3))).sum().backward()
    g = m.weight.grad
    m.to(memory_format=t.channels_last)
    return {"weight": (m.weight.grad is g, tuple(g.stride()), tuple(m.weight.stride())),
            "bias": tuple(m.bias.grad.stride())}


@prog
def a_half_or_bfloat16_model_runs_forward(t):
    half = _filled(t, t.nn.Linear(3, 2)).half()
    bf = _filled(t, t.nn.Sequential(t.nn.Linear(3, 2), t.nn.LayerNorm(2))).bfloat16()
    return {"half": half(t.tensor(arr(2, 3)).half()),
            "bfloat16": bf(t.tensor(arr(2, 3)).bfloat16())}


@prog
def integer_parameters_are_cast_by_type_only(t):
    m = t.nn.Module()
    m.p = t.nn.Parameter(t.tensor([1, 2]), requires_grad=False)
    m.q = t.nn.Parameter(t.tensor([1.0, 2.0]))
    out = []
    for call in (lambda: m.to(t.float64), lambda: m.half(), lambda: m.type(t.float32)):
        call()
        out.append((str(m.p.dtype), str(m.q.dtype), type(m.p).__name__))
    return out


@prog
def state_dict_and_old_data_after_the_cast(t):
    m = _filled(t, t.nn.BatchNorm1d(2))
    old = m.weight.data
    m.double()
    return {"state_dict": {k: (str(v.dtype), v) for k, v in m.state_dict().items()},
            "old data": (str(old.dtype), old.data_ptr() == m.weight.data_ptr(), old._version)}


@prog
def apply_visits_parameters_then_buffers_children_first(t):
    m = t.nn.Sequential(t.nn.Linear(2, 3), t.nn.BatchNorm1d(3))
    seen = []
    r = m._apply(lambda x: seen.append((tuple(x.shape), str(x.dtype))) or x)
    own = []
    m._apply(lambda x: own.append(tuple(x.shape)) or x, recurse=False)
    return {"seen": seen, "self": r is m, "not recursing": own}


@prog
def to_empty_gives_new_memory_and_keeps_the_parameters(t):
    m = t.nn.Sequential(t.nn.Linear(2, 2), t.nn.BatchNorm1d(2))
    w, ptr = m[0].weight, m[0].weight.data_ptr()
    m.to_empty(device="cpu")
    out = {"kept": m[0].weight is w, "moved": m[0].weight.data_ptr() != ptr,
           "state": _state(m), "cpu:0": repr(m.to_empty(device="cpu:0")[0].weight.device)}
    for name, call in {"no device": lambda: m.to_empty(), "cuda": lambda: m.to_empty(
            device="cuda"), "float": lambda: m.to_empty(device=1.0),
            "none": lambda: m.to_empty(device=None) is m,
            "not recursing": lambda: m.to_empty(device="cpu", recurse=False) is m}.items():
        out[name] = catch(call)
    return out


@prog
def apply_calls_fn_on_children_first_then_self(t):
    m = t.nn.Sequential(t.nn.Linear(2, 2), t.nn.Sequential(t.nn.ReLU(), t.nn.Linear(2, 1)))
    seen = []

    def init(mod):
        seen.append(type(mod).__name__)
        if type(mod) is t.nn.Linear:
            t.nn.init.constant_(mod.weight, 0.5)

    return {"self": m.apply(init) is m, "seen": seen, "w": m[1][1].weight.detach(),
            "version": m[0].weight._version, "bad": catch(lambda: m.apply(3))}


@prog
def add_module_and_register_module_check_the_name(t):
    m = t.nn.Module()
    m.x = 1
    out = {}
    for name, call in {"int name": lambda: m.add_module(1, t.nn.ReLU()),
                       "attribute": lambda: m.add_module("x", t.nn.ReLU()),
                       "training": lambda: m.register_module("training", t.nn.ReLU()),
                       "dot": lambda: m.add_module("a.b", t.nn.ReLU()),
                       "empty": lambda: m.register_module("", t.nn.ReLU()),
                       "not a module": lambda: m.register_module("a", 3),
                       "both wrong": lambda: m.add_module(1, 3),
                       "none": lambda: m.register_module("n", None),
                       "ok": lambda: m.register_module("r", t.nn.ReLU()),
                       "again": lambda: m.add_module("r", t.nn.Tanh())}.items():
        out[name] = catch(call)
    out["modules"] = repr(m)
    return out


@prog
def get_submodule_get_parameter_get_buffer_follow_dotted_paths(t):
    m = t.nn.Sequential(t.nn.Linear(2, 2), t.nn.Sequential(t.nn.BatchNorm1d(2), t.nn.ReLU()))
    m.extra = 3
    calls = {
        "self": lambda: m.get_submodule("") is m, "inner": lambda: repr(m.get_submodule("1.0")),
        "missing": lambda: m.get_submodule("1.5"), "not a module": lambda: m.get_submodule(
            "extra"), "through a parameter": lambda: m.get_submodule("0.weight.x"),
        "weight": lambda: m.get_parameter("0.weight") is m[0].weight,
        "param missing": lambda: m.get_parameter("0.nope"),
        "param is a buffer": lambda: m.get_parameter("1.0.running_mean"),
        "param of a missing module": lambda: m.get_parameter("7.weight"),
        "param no path": lambda: m.get_parameter("extra"),
        "buffer": lambda: m.get_buffer("1.0.running_mean") is m[1][0].running_mean,
        "nbt": lambda: m.get_buffer("1.0.num_batches_tracked").dtype,
        "buffer is a parameter": lambda: m.get_buffer("1.0.weight"),
        "buffer missing": lambda: m.get_buffer("1.0.nope"),
        "not a string": lambda: m.get_submodule(0),
    }
    return {name: catch(call) for name, call in calls.items()}


_LAYERS = {
    "Linear": lambda t, **kw: t.nn.Linear(3, 2, **kw),
    "Linear no bias": lambda t, **kw: t.nn.Linear(3, 2, False, **kw),
    "Conv2d": lambda t, **kw: t.nn.Conv2d(2, 3, 2, **kw),
    "BatchNorm1d": lambda t, **kw: t.nn.BatchNorm1d(3, **kw),
    "BatchNorm2d": lambda t, **kw: t.nn.BatchNorm2d(3, **kw),
    "BatchNorm2d no stats": lambda t, **kw: t.nn.BatchNorm2d(3, track_running_stats=False, **kw),
    "LayerNorm": lambda t, **kw: t.nn.LayerNorm(3, **kw),
    "Embedding": lambda t, **kw: t.nn.Embedding(4, 3, **kw),
    "PReLU": lambda t, **kw: t.nn.PReLU(**kw),
}


@prog
def layers_take_device_and_dtype_as_their_factories_do(t):
    out = {}
    for name, make in _LAYERS.items():
        for kw in ({"device": "cpu"}, {"device": t.device("cpu", 0)}, {"dtype": t.float64},
                   {"device": "cpu", "dtype": t.float16}, {"dtype": t.bfloat16}):
            key = f"{name} {sorted(kw)} {kw.get('dtype')}"
            m = catch(lambda make=make, kw=kw: make(t, **kw))
            out[key] = m if not isinstance(m, t.nn.Module) else (
                _state(m), {n: repr(p.device) for n, p in m.named_parameters()})
    return out


@prog
def layers_refuse_a_device_as_their_factories_do(t):
    out = {}
    for name, make in _LAYERS.items():
        for dev in ("cuda", "cuda:1", 1, 1.0, "gpu", -1):
            out[f"{name} {dev!r}"] = catch(lambda make=make, dev=dev: make(t, device=dev))
        out[f"{name} int64"] = catch(lambda make=make: make(t, dtype=t.int64))
    return out


@prog
def batchnorm_without_bias(t):
    m = t.nn.BatchNorm2d(3, bias=False)
    x = t.tensor(arr(2, 3, 2, 2), requires_grad=True)
    y = m(x)
    y.sum().backward()
    return {"repr": repr(m), "state": _state(m), "y": y, "grad": x.grad,
            "affine off": repr(t.nn.BatchNorm1d(2, affine=False)),
            "positional bias": catch(lambda: t.nn.BatchNorm2d(3, 1e-5, 0.1, True, True,
                                                             None, None, False))}


@pytest.mark.parametrize("program", prog.params())
def test_module_to_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
