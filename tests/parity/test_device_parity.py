"""torch.device against torch 2.13, beyond one-line probes (probes_misc.py): a device survives
pickle and copy as an equal, new object; devices key a dict and a set by type and index; a
device is read-only; ``x.to('cpu:0')`` copies with ToCopyBackward0 and a gradient flows back
through it; a device object passes wherever torch takes ``device=``; pinned memory (an
accelerator's) is refused. (inplace_tutorial/device.py, tensor_attributes.py)

Where the core can't follow: torch makes tensors on 'meta' (shapes without memory) and names
other backends' missing kernels; the core has only the CPU and refuses those devices in its
own words (test_other_devices_are_refused_in_the_cores_words).
"""
import copy
import pickle
import warnings

import pytest

from .harness import Registry, arr, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


@prog
def a_device_pickles_and_copies_as_an_equal_new_object(t):
    out = {}
    for name, d in (("cpu", t.device("cpu")), ("cuda:1", t.device("cuda", 1)),
                    ("x.device", t.ones(1).device)):
        back, deep, shallow = pickle.loads(pickle.dumps(d)), copy.deepcopy(d), copy.copy(d)
        out[name] = (repr(back), back == d, back is d, repr(deep), deep == d, shallow == d,
                     type(back).__name__)
    return out


@prog
def devices_key_dicts_and_sets_by_type_and_index(t):
    ds = [t.device("cpu"), t.device("cpu", 0), t.device("cpu:0"), t.ones(1).device,
          t.device("cuda"), t.device("cuda", 0), t.device("meta")]
    table = {d: i for i, d in enumerate(ds)}
    return {"distinct": len(set(ds)), "table": sorted(table.values()),
            "x.device": table[t.zeros(2).device], "cpu:0": table[t.device("cpu", 0)],
            "str key": catch(lambda: table["cpu"]), "in": "cpu" in set(ds),
            "sorted": catch(lambda: sorted(ds[:2]))}


@prog
def a_device_is_read_only(t):
    d = t.device("cuda", 1)

    def assign(name, value):
        setattr(d, name, value)

    return {"type": catch(lambda: assign("type", "cpu")),
            "index": catch(lambda: assign("index", 0)),
            "other": catch(lambda: assign("other", 0)), "after": repr(d)}


@prog
def to_an_indexed_cpu_device_copies_and_flows_gradients_back(t):
    w = t.tensor(arr(2, 3), requires_grad=True)
    y = w * 2
    moved = y.to("cpu:0")
    same = y.to(t.device("cpu"))
    (moved * t.tensor(arr(2, 3, seed=1))).sum().backward()
    return {"moved": (type(moved.grad_fn).__name__, moved.data_ptr() == y.data_ptr(),
                      moved._version, repr(moved.device)),
            "same": same is y, "grad": w.grad,
            "dtype too": moved.to(t.device("cpu", 0), t.float64).dtype}


@prog
def a_device_object_passes_where_torch_takes_device(t):
    x = t.tensor(arr(2, 3))
    cpu, cpu1 = x.device, t.device("cpu", 1)
    return {
        "zeros": t.zeros(2, device=cpu), "ones": t.ones(2, device=cpu1),
        "full": t.full((2,), 3.0, device=cpu), "eye": t.eye(2, device=cpu1),
        "arange": t.arange(3, device=cpu), "linspace": t.linspace(0, 1, 3, device=cpu1),
        "empty": t.empty(2, device=cpu).shape, "tensor": t.tensor([1.0, 2.0], device=cpu1),
        "zeros_like": t.zeros_like(x, device=cpu1), "new_ones": x.new_ones(2, device=cpu1),
        "new_tensor": x.new_tensor([4.0], device=cpu), "to": x.to(cpu) is x,
        "as_tensor": t.as_tensor(x, device=cpu) is x, "randn": t.randn(2, device=cpu).shape,
        "devices": [str(v.device) for v in (t.zeros(1, device=cpu1), x.to(cpu1))],
    }


@prog
def pinned_memory_is_an_accelerators(t):
    """is_pinned() is False; pin_memory() refused; a device argument warns (every call) that it
    is deprecated, after it was read, at the caller's line."""
    x = t.ones(2)
    calls = {"is_pinned": lambda: x.is_pinned(), "cpu": lambda: x.is_pinned("cpu"),
             "cuda": lambda: x.is_pinned(device="cuda"), "bad": lambda: x.is_pinned("foo"),
             "index": lambda: x.is_pinned(1), "device": lambda: x.is_pinned(x.device),
             "pin": lambda: x.pin_memory(), "pin None": lambda: x.pin_memory(None),
             "pin cpu": lambda: x.pin_memory("cpu"), "pin cuda": lambda: x.pin_memory("cuda"),
             "pin index": lambda: x.pin_memory(1), "pin float": lambda: x.pin_memory(1.0)}
    out = {}
    for name, call in calls.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = catch(call)
        out[name] = (r, [(w.category.__name__, str(w.message).split(" (Triggered")[0],
                          w.filename == __file__, w.lineno) for w in caught])
    return out


@pytest.mark.parametrize("program", prog.params())
def test_device_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


@pytest.mark.parametrize("call", [
    lambda t: t.zeros(2, device="meta"), lambda t: t.ones(2).to("meta"),
    lambda t: t.ones(2).new_zeros(2, device=t.device("meta")),
    lambda t: t.tensor([1.0], device="mps"), lambda t: t.empty(2, device="xla"),
    lambda t: t.ones(2).to("vulkan"), lambda t: t.zeros(2, device="hpu")])
def test_other_devices_are_refused_in_the_cores_words(call, torch_mod, core):
    """torch makes a meta tensor, and refuses the other backends with texts that depend on
    the path taken (a missing kernel, "not linked with support", a missing module); the core
    says it has only the CPU and names the device asked for."""
    theirs = catch(lambda: call(torch_mod))
    assert str(getattr(theirs, "device", "")) == "meta" or hasattr(theirs, "msg")
    ours = catch(lambda: call(core))
    assert ours.type == "RuntimeError" and ours.msg.startswith(
        "inplace_tutorial has only the cpu device, not '")
