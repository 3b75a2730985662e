"""Methods and functions learners type that PyTorch builds from other ops: new_zeros/new_ones/
new_full/new_empty/new_tensor, broadcast_to, outer/ger, masked_select, repeat_interleave,
tile, tensor_split/hsplit/vsplit/dsplit; side by side with torch 2.13.

Compared: values, dtypes, layouts (views or copies), the graph each one builds (node names
down the chain, with what every node saved), gradients, and the errors word for word.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, leaf, warned

pytestmark = pytest.mark.parity

prog = Registry()


def _nodes(fn, depth=6):
    """The chain of first inputs below fn: each node's name and its ``_saved_*`` values."""
    out = []
    while fn is not None and depth:
        saved = {k: getattr(fn, k) for k in dir(fn)
                 if k.startswith("_saved_") and not k.startswith("_saved__")}
        out.append((type(fn).__name__, saved))
        fn = fn.next_functions[0][0] if fn.next_functions else None
        depth -= 1
    return out


def _made(r):
    if isinstance(r, tuple):
        return tuple(_made(p) for p in r)
    if not hasattr(r, "shape"):
        return r
    return {"value": r, "stride": tuple(r.stride()) if r.numel() else "empty",
            "offset": r.storage_offset(), "view": r._base is not None,
            "nodes": _nodes(r.grad_fn)}


def _calls(calls: dict) -> dict:
    return {name: _made(catch(fn)) for name, fn in calls.items()}


@prog
def new_factories(t):
    """x.new_*: x's dtype unless dtype= says otherwise; a new leaf; PyTorch's binding."""
    x = t.tensor(arr(2, 3))
    i8 = t.zeros(2, dtype=t.int8)
    out = _calls({
        "new_zeros(2, 3)": lambda: x.new_zeros(2, 3),
        "new_zeros((2, 3), int64)": lambda: x.new_zeros((2, 3), dtype=t.int64),
        "new_zeros([2])": lambda: x.new_zeros([2]),
        "new_zeros(size=(2,))": lambda: x.new_zeros(size=(2,)),
        "new_ones(size=[2, 1])": lambda: x.new_ones(size=[2, 1]),
        "new_empty(size=(2,))": lambda: tuple(x.new_empty(size=(2,)).shape),
        "new_full(size=, fill_value=)": lambda: x.new_full(size=(2,), fill_value=1.5),
        "new_zeros(())": lambda: x.new_zeros(()),
        "new_zeros()": lambda: x.new_zeros(),
        "new_zeros requires_grad": lambda: x.new_zeros(2, requires_grad=True).requires_grad,
        "new_zeros int requires_grad": lambda: x.new_zeros(2, dtype=t.int64,
                                                           requires_grad=True),
        "new_zeros(-1)": lambda: x.new_zeros(-1),
        "new_zeros('a')": lambda: x.new_zeros("a"),
        "new_zeros dtype='a'": lambda: x.new_zeros(2, dtype="a"),
        "new_ones(2, 3)": lambda: x.new_ones(2, 3),
        "new_ones int8": lambda: i8.new_ones(3),
        "new_full((2,), 3)": lambda: x.new_full((2,), 3),
        "new_full int64 3.5": lambda: t.zeros(2, dtype=t.int64).new_full((2,), 3.5),
        "new_full int64 True": lambda: t.zeros(2, dtype=t.int64).new_full((2,), True),
        "new_full(2, 3)": lambda: x.new_full(2, 3),
        "new_full((2,))": lambda: x.new_full((2,)),
        "new_full str": lambda: x.new_full((2,), "a"),
        "new_full 0-dim tensor": lambda: x.new_full((2,), t.tensor(3.0)),
        "new_full int8 300": lambda: i8.new_full((2,), 300),
        "new_full float16": lambda: x.new_full((2,), 1.5, dtype=t.float16),
        "new_empty": lambda: tuple(x.new_empty(2, 3).shape),
        "new_empty dtype": lambda: str(x.new_empty((2,), dtype=t.float16).dtype),
        "new_empty('a')": lambda: x.new_empty("a"),
        "new_tensor list": lambda: x.new_tensor([1, 2]),
        "new_tensor int32": lambda: t.zeros(2, dtype=t.int32).new_tensor([1.5, 2]),
        "new_tensor scalar": lambda: x.new_tensor(3),
        "new_tensor dtype": lambda: x.new_tensor([1, 2], dtype=t.int64),
        "new_tensor requires_grad": lambda: x.new_tensor([1.0, 2], requires_grad=True),
        "new_tensor float16": lambda: x.half().new_tensor([1.0, 2]),
        "new_tensor()": lambda: x.new_tensor(),
    })
    r, w = warned(lambda: x.new_tensor(t.tensor([1, 2])))
    out["new_tensor(tensor)"] = (r, w)
    y = leaf(t, arr(3)) * 2
    z = y.new_zeros(3)
    out["fresh leaf"] = (z.is_leaf, z.grad_fn is None, z.untyped_storage().data_ptr()
                         != y.untyped_storage().data_ptr())
    return out


@prog
def broadcast_to_and_tile(t):
    x = leaf(t, arr(2, 3))
    out = _calls({
        "broadcast_to((3, 2, 3))": lambda: x.broadcast_to((3, 2, 3)),
        "broadcast_to(4, -1, 3)": lambda: x.broadcast_to(4, -1, 3),
        "torch.broadcast_to": lambda: t.broadcast_to(x, [2, 2, 3]),
        "broadcast_to((3, 3))": lambda: x.broadcast_to((3, 3)),
        "broadcast_to((3,))": lambda: x.broadcast_to((3,)),
        "broadcast_to('a')": lambda: x.broadcast_to("a"),
        "torch.broadcast_to(x, 'a')": lambda: t.broadcast_to(x, "a"),
        "broadcast_to()": lambda: x.broadcast_to(),
        "torch.broadcast_to(x, (2.5,))": lambda: t.broadcast_to(x, (2.5,)),
        "torch.broadcast_to(x, 2, 2, 3)": lambda: t.broadcast_to(x, 2, 2, 3),
        "tile(2)": lambda: x.tile(2),
        "tile((2, 1, 1))": lambda: x.tile((2, 1, 1)),
        "tile(2, 2)": lambda: x.tile(2, 2),
        "tile(())": lambda: x.tile(()),
        "tile(0)": lambda: x.tile(0),
        "tile((-1,))": lambda: x.tile((-1,)),
        "torch.tile(x, (2,))": lambda: t.tile(x, (2,)),
        "torch.tile(x, 2)": lambda: t.tile(x, 2),
        "tile('a')": lambda: x.tile("a"),
        "torch.tile(x, 'a')": lambda: t.tile(x, "a"),
        "tile()": lambda: x.tile(),
        "torch.tile(x)": lambda: t.tile(x),
        "tile([2.5])": lambda: x.tile([2.5]),
    })
    b = x.broadcast_to(3, 2, 3)
    tl = x.tile(2, 1, 2)
    (b * t.tensor(arr(3, 2, 3, seed=1))).sum().backward()
    (tl * t.tensor(arr(2, 2, 6, seed=2))).sum().backward()
    out["x.grad"] = x.grad
    return out


@prog
def outer_and_ger(t):
    a, b = leaf(t, arr(3)), leaf(t, arr(4, seed=1))
    m = leaf(t, arr(3, 4, seed=2))
    out = _calls({
        "outer": lambda: t.outer(a, b),
        "method": lambda: a.outer(b),
        "ger": lambda: t.ger(a, b),
        "ger method": lambda: a.ger(b),
        "strided": lambda: t.outer(m[:, 0], m[0]),
        "int by float": lambda: t.outer(t.tensor([1, 2]), t.tensor([1.5, 2.0])),
        "ints": lambda: t.outer(t.tensor([1, 2]), t.tensor([3, 4, 5])),
        "empty": lambda: t.outer(t.zeros(0), t.zeros(3)),
        "2-D self": lambda: t.outer(m, b),
        "2-D vec2": lambda: t.outer(a, m),
        "ger 2-D": lambda: t.ger(m, b),
        "0-D": lambda: t.outer(t.tensor(1.0), b),
        "method 'a'": lambda: a.outer("a"),
        "torch vec2 'a'": lambda: t.outer(a, "a"),
        "torch input 'a'": lambda: t.outer("a", a),
        "method ()": lambda: a.outer(),
        "ger int vec2": lambda: t.ger(a, 1),
    })
    y = t.outer(a, b)
    (y * t.tensor(arr(3, 4, seed=3))).sum().backward()
    out["grads"] = (a.grad, b.grad)
    return out


@prog
def masked_select_forward_backward(t):
    x = leaf(t, arr(2, 3))
    mask = t.tensor([[False, True, True], [True, False, True]])
    out = _calls({
        "2-D": lambda: x.masked_select(mask),
        "torch.": lambda: t.masked_select(x, mask),
        "row mask broadcast": lambda: x.masked_select(t.tensor([True, False, True])),
        "mask bigger": lambda: x[0].masked_select(t.ones(2, 3, dtype=t.bool)),
        "none picked": lambda: x.masked_select(t.zeros(2, 3, dtype=t.bool)),
        "transposed": lambda: x.t().masked_select(mask.t()),
        "int64 self": lambda: t.arange(6).reshape(2, 3).masked_select(mask),
        "0-dim mask": lambda: x.masked_select(t.tensor(True)),
        "int mask": lambda: x.masked_select(t.tensor([1, 0, 1])),
        "uint8 mask": lambda: x.masked_select(t.ones(2, 3, dtype=t.uint8)),
        "bad broadcast": lambda: x.masked_select(t.tensor([True, False])),
        "mask 'a'": lambda: x.masked_select("a"),
        "torch mask 'a'": lambda: t.masked_select(x, "a"),
        "torch input 'a'": lambda: t.masked_select("a", mask),
        "no mask": lambda: x.masked_select(),
    })
    y = x.masked_select(mask)
    (y * t.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    out["x.grad"] = x.grad
    x.grad = None
    z = x[0].masked_select(t.tensor([[True, False, True], [True, True, False]]))
    (z * t.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    out["x.grad, self broadcast to the mask"] = x.grad
    m2 = mask.clone()
    w = (x * 2).masked_select(m2)
    m2.logical_not_()
    out["mask changed before backward"] = catch(lambda: w.sum().backward())
    return out


@prog
def repeat_interleave_forms(t):
    x = leaf(t, arr(2, 3))
    r12 = t.tensor([1, 2])
    out = _calls({
        "2": lambda: x.repeat_interleave(2),
        "2 dim=0": lambda: x.repeat_interleave(2, dim=0),
        "2 dim=1": lambda: x.repeat_interleave(2, 1),
        "2 dim=-2": lambda: x.repeat_interleave(2, dim=-2),
        "0 dim=1": lambda: x.repeat_interleave(0, dim=1),
        "output_size": lambda: x.repeat_interleave(2, dim=0, output_size=4),
        "output_size wrong": lambda: x.repeat_interleave(2, dim=0, output_size=5),
        "-1": lambda: x.repeat_interleave(-1),
        "dim 2": lambda: x.repeat_interleave(2, dim=2),
        "0-dim self": lambda: t.tensor(5.0).repeat_interleave(3),
        "0-dim self dim=0": lambda: t.tensor(5.0).repeat_interleave(2, dim=0),
        "tensor dim=0": lambda: x.repeat_interleave(r12, dim=0),
        "tensor [1, 2, 0] dim=1": lambda: x.repeat_interleave(t.tensor([1, 2, 0]), dim=1),
        "tensor [2] dim=1": lambda: x.repeat_interleave(t.tensor([2]), dim=1),
        "tensor 0-dim dim=1": lambda: x.repeat_interleave(t.tensor(2), dim=1),
        "tensor flattened": lambda: x.repeat_interleave(t.tensor([1, 2, 0, 1, 1, 1])),
        "tensor int32": lambda: x.repeat_interleave(t.tensor([1, 2], dtype=t.int32), dim=0),
        "tensor negative": lambda: x.repeat_interleave(t.tensor([1, -1]), dim=0),
        "tensor wrong length": lambda: x.repeat_interleave(t.tensor([1, 2, 3]), dim=0),
        "tensor wrong length dim=-2": lambda: x.repeat_interleave(t.tensor([1, 2, 3]), dim=-2),
        "tensor float": lambda: x.repeat_interleave(t.tensor([1.0, 2.0]), dim=0),
        "tensor 2-D": lambda: x.repeat_interleave(t.tensor([[1, 2]]), dim=0),
        "tensor output_size wrong": lambda: x.repeat_interleave(r12, dim=-2, output_size=5),
        "tensor 0-dim self": lambda: t.tensor(1.0).repeat_interleave(t.tensor([2]), dim=0),
        "torch.(x, 2)": lambda: t.repeat_interleave(x, 2),
        "torch.(x, r, dim=0)": lambda: t.repeat_interleave(x, r12, dim=0),
        "torch.(repeats)": lambda: t.repeat_interleave(t.tensor([1, 2, 3])),
        "torch.(int32 repeats)": lambda: t.repeat_interleave(t.tensor([1, 2], dtype=t.int32)),
        "torch.(empty repeats)": lambda: t.repeat_interleave(t.tensor([], dtype=t.int64)),
        "torch.(float repeats)": lambda: t.repeat_interleave(t.tensor([1.0, 2.0])),
        "torch.(uint8 repeats)": lambda: t.repeat_interleave(t.tensor([1, 2], dtype=t.uint8)),
        "torch.(2-D repeats)": lambda: t.repeat_interleave(t.tensor([[1, 2]])),
        "torch.(0-dim repeats)": lambda: t.repeat_interleave(t.tensor(2)),
        "torch.([-1, 2])": lambda: t.repeat_interleave(t.tensor([1, -2])),
        "torch.([-3, 1])": lambda: t.repeat_interleave(t.tensor([-3, 1])),
        "torch.(r, output_size=2)": lambda: t.repeat_interleave(r12, output_size=2),
        "torch.(r, output_size=3)": lambda: t.repeat_interleave(r12, output_size=3),
        "'a'": lambda: x.repeat_interleave("a"),
        "2.5": lambda: x.repeat_interleave(2.5),
        "()": lambda: x.repeat_interleave(),
        "output_size='a'": lambda: x.repeat_interleave(2, output_size="a"),
        "torch.(x, 'a')": lambda: t.repeat_interleave(x, "a"),
        "torch.('a')": lambda: t.repeat_interleave("a"),
        "torch.(x, 2, 'a')": lambda: t.repeat_interleave(x, 2, "a"),
        "torch.()": lambda: t.repeat_interleave(),
    })
    a = x.repeat_interleave(2, dim=1)
    b = x.repeat_interleave(t.tensor([2, 1]), dim=0)
    c = x.repeat_interleave(3)
    (a * t.tensor(arr(2, 6, seed=1))).sum().backward()
    (b * t.tensor(arr(3, 3, seed=2))).sum().backward()
    (c * t.tensor(arr(18, seed=3))).sum().backward()
    out["x.grad"] = x.grad
    return out


@prog
def tensor_split_and_friends(t):
    x = leaf(t, arr(3, 4))
    z3 = t.zeros(2, 2, 4)
    out = _calls({
        "3 sections dim=-1": lambda: x.tensor_split(3, dim=-1),
        "2 sections": lambda: x.tensor_split(2),
        "5 sections": lambda: x.tensor_split(5),
        "indices": lambda: x.tensor_split([1, 3], dim=1),
        "indices tuple": lambda: x.tensor_split((1,)),
        "indices odd": lambda: x.tensor_split([-1, 5, 2]),
        "indices empty": lambda: x.tensor_split([]),
        "tensor 0-dim": lambda: x.tensor_split(t.tensor(2), 1),
        "tensor 1-D": lambda: x.tensor_split(t.tensor([1, 3]), 1),
        "sections=": lambda: x.tensor_split(sections=2),
        "indices=": lambda: x.tensor_split(indices=[1]),
        "torch.": lambda: t.tensor_split(x, [1], dim=1),
        "torch. sections": lambda: t.tensor_split(x, 2, 1),
        "0 sections": lambda: x.tensor_split(0),
        "-1 sections": lambda: x.tensor_split(-1),
        "0-dim self": lambda: t.tensor(1.0).tensor_split(2),
        "tensor float": lambda: x.tensor_split(t.tensor([1.0]), 1),
        "tensor 2-D": lambda: x.tensor_split(t.tensor([[1]]), 1),
        "tensor 0-dim float": lambda: x.tensor_split(t.tensor(1.5), 1),
        "dim 2": lambda: x.tensor_split(2, dim=2),
        "'a'": lambda: x.tensor_split("a"),
        "torch. 'a'": lambda: t.tensor_split(x, "a"),
        "2, 'a'": lambda: x.tensor_split(2, "a"),
        "[1.5]": lambda: x.tensor_split([1.5]),
        "()": lambda: x.tensor_split(),
        "hsplit 2": lambda: x.hsplit(2),
        "hsplit 1-D": lambda: x[0].hsplit(2),
        "hsplit list": lambda: x.hsplit([1, 2]),
        "torch.hsplit": lambda: t.hsplit(x, 2),
        "hsplit 1-D 3": lambda: x[0].hsplit(3),
        "hsplit 3": lambda: x.hsplit(3),
        "hsplit 0-dim": lambda: t.tensor(1.0).hsplit(1),
        "hsplit 0": lambda: x.hsplit(0),
        "hsplit 'a'": lambda: x.hsplit("a"),
        "torch.hsplit 'a'": lambda: t.hsplit(x, "a"),
        "hsplit 2.0": lambda: x.hsplit(2.0),
        "hsplit ()": lambda: x.hsplit(),
        "vsplit 3": lambda: x.vsplit(3),
        "vsplit list": lambda: x.vsplit([1]),
        "vsplit 1-D": lambda: x[0].vsplit(2),
        "vsplit 2": lambda: x.vsplit(2),
        "torch.vsplit()": lambda: t.vsplit(x),
        "dsplit 2": lambda: z3.dsplit(2),
        "dsplit list": lambda: t.dsplit(z3, [1, 3]),
        "dsplit 2-D": lambda: x.dsplit(2),
        "dsplit 3": lambda: t.zeros(2, 2, 3).dsplit(3 - 1),
    })
    parts = x.tensor_split(3, dim=1)
    sum((p * (k + 1)).sum() for k, p in enumerate(parts)).backward()
    out["x.grad"] = x.grad
    y = x * 1
    first, second = y.tensor_split(2)
    first.mul_(2)  # each piece is an ordinary view: in place is allowed
    out["in place on a piece"] = (first._version, y._version, type(y.grad_fn).__name__,
                                  type(first.grad_fn).__name__, second._base is y)
    return out


@pytest.mark.parametrize("program", prog.params())
def test_shape_functions_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 6
