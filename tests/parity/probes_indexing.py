"""More indexing probes for probes.py, written from PyTorch's argument checks for advanced
indexing (applySlicing, make_info / expandTensors, index_put_'s _index_put_impl_ and its
iterator): masks of the wrong shape, indices out of range or negative, index dtypes, None and
``...`` mixed with index tensors, lists read as tuples, setitem broadcasting, index_put_ with
``accumulate`` and repeated indices, and the out-of-place twins. Fixtures as in probes.py."""

GETITEM = [
    # masks of the wrong shape, or covering more dims than there are
    "x[b.t()]", "x[b[:1]]", "x[b[:, :2]]", "x[:, b[0, :2]]", "x[b, 0]", "m[b]",
    "x[t.ones(2, 3, 1, dtype=t.bool)]", "v[b[0]]", "x[:, b[0]]", "x[b[:, 0]]",
    "x[b.to(t.uint8)]", "x[t.tensor([[True], [False]])]", "s[t.tensor(True)]",
    "s[t.tensor(False)]", "x[t.tensor(True)]", "x[t.tensor(False), 0]",
    # out of range, negative
    "x[[0, 5]]", "x[:, [3]]", "x[[1], [3]]", "x[[-3]]", "x[:, [-4]]", "x[t.tensor([[0], [2]])]",
    "v[[3]]", "s[[0]]", "x[[-1, -2]]", "x[:, [-1, 0]]", "x[-1, [-1]]", "x[[-2], [-3]]",
    "x[0, [2, 3]]", "x[[1, 0], -3]",
    # the dtypes an index may have
    "x[t.tensor([1, 0], dtype=t.int32)]", "x[t.tensor([1, 0], dtype=t.uint8)]",
    "x[t.tensor([1, 1], dtype=t.uint8)]", "x[t.tensor([1], dtype=t.int8)]",
    "x[t.tensor(1, dtype=t.int8)]", "x[t.tensor(1, dtype=t.int16)]",
    "x[t.tensor([0], dtype=t.int16)]", "x[t.tensor([0.5])]", "x[t.tensor([True])]",
    "x[t.tensor([True, False])]", "x[t.tensor(1.0)]", "x[i[0, :1]]", "x[i.abs() % 2]",
    # None and ... around index tensors
    "x[None, [0, 1]]", "x[[0, 1], None]", "x[..., [0, 2]]", "x[[1], ..., [2]]",
    "x[None, ..., None, [0]]", "x[..., None, [1]]", "x[[0, 1], None, [1, 2]]", "x[0, ..., [1, 2]]",
    "x[..., 0, [1]]", "x[None, [0], None, [1]]", "x[[0], None, None]", "x[..., [0], ...]",
    "img[:, [0], :, [1, 2]]", "img[[0, 1], :, [0, 1]]", "img[:, :, [0, 3], [1, 2]]",
    "img[..., [0, 3]]", "img[[1], ..., [0], :]",
    # lists and other sequences: a short list holding a sequence is a tuple
    "x[[[0, 1]]]", "x[[[0, 1], [1, 2]]]", "x[[0, [1]]]", "x[[1.5]]", "x[[True, False, True]]",
    "x[[[True, False, True]]]", "x[[0, None]]", "x[(0, 1),]", "x[[0, slice(None)]]",
    "x[np.array([1, 0])]", "x[np.array([True, False])]", "x[[np.int64(1)]]", "x[[]]",
    "x[[], []]", "x[[0, 1], [0, 1, 2]]", "x[[[0]], [[1, 2]]]", "x[[0, 1], b[0, :2]]",
]

SETITEM = [
    "x.__setitem__([0, 1], v)", "x.__setitem__([0, 1], v[:2])",
    "x.__setitem__(([0, 1], [0, 2]), v[:2])", "x.__setitem__(([0, 1], [0, 2]), v)",
    "x.__setitem__((slice(None), [0, 2]), t.ones(2, 1))", "x.__setitem__(b, v[:1])",
    "x.__setitem__(b, v)", "x.__setitem__(b, t.ones(1, 3))", "x.__setitem__([0], t.ones(1, 1, 3))",
    "x.__setitem__([0], t.ones(2, 1, 3))", "x.__setitem__([0], i[0])", "i.__setitem__([0], 1.5)",
    "i.__setitem__(b, float('nan'))", "i.__setitem__([0], float('nan'))",
    "x.__setitem__([[0, 1]], 2.0)", "b.__setitem__([0], True)", "b.__setitem__([0], 2)",
    "x.__setitem__([5], 1.0)",
    "w.__setitem__([0], 1.0)",
    "y.__setitem__([0], 1.0)", "x.__setitem__(t.tensor([0.0]), 1.0)",
    "x.__setitem__(x[0] > 0, 1.0)", "x.__setitem__((slice(None), b[0]), 9.0)",
    "x.__setitem__(False, 1.0)", "x.__setitem__(True, v)", "x.__setitem__((True, 0), 3.0)",
    "x.__setitem__((slice(1, None), [0, 2]), v[:2])", "x.__setitem__(([0, 1], None), v)",
    "x.__setitem__((None, [0, 1]), v)", "x.__setitem__((..., [1]), t.tensor([[7.0], [8.0]]))",
    "x.__setitem__([0, 0], t.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))",
    "x.__setitem__(b, x[b] * 2)", "x.__setitem__(b, x)", "x.__setitem__([1], x[0])",
    "m.__setitem__(m > 0, t.tensor(1.0, dtype=t.float64))",
    "x.__setitem__(t.tensor([1, 0], dtype=t.int32), v)",
    "x.__setitem__(t.tensor([0, 1], dtype=t.uint8), 4.0)",
    "x.__setitem__(([[0], [1]], [0, 2]), t.tensor([[1.0, 2.0], [3.0, 4.0]]))",
]

INDEX_PUT = [
    "x.index_put_((t.tensor([0, 0]),), v, accumulate=True)",
    "x.index_put_((t.tensor([0, 0]), t.tensor([1, 1])), t.tensor([1.0, 2.0]), accumulate=True)",
    "i.index_put_((t.tensor([1, 1]),), i[0], True)",
    "b.index_put_((t.tensor([0, 0]),), b[1], True)",
    "x.index_put_((t.tensor([0, 0]),), t.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))",
    "x.index_put_((b,), t.tensor([1.0, 2.0, 3.0]), True)",
    "x.index_put_((b,), t.tensor(1.0), True)",
    "x.index_put_((b,), t.tensor([5.0]))", "x.index_put_((b,), t.tensor([[5.0]]))",
    "x.index_put_((t.tensor([0]),), v.double(), True)",
    "x.index_put_((t.tensor([0]),), x[1], True)",
    "x.index_put_((t.tensor([0]),), i[0])", "x.index_put_((t.tensor([0]),), x)",
    "x.index_put_((t.tensor([0]),), x.clone())", "x.index_put_((i[0, :1],), v)",
    "i.index_put_((i[0, :1],), i[1])", "x.index_put_((), v)", "x.index_put_([t.tensor([1])], v)",
    "x.index_put_((t.tensor([[0], [1]]), t.tensor([0, 2])), t.tensor(5.0))",
    "x.index_put_((t.tensor([0]),), v, accumulate=None)", "x.index_put_((t.tensor([0]), None), v)",
    "x.index_put_((t.tensor([0]),), [1.0, 2.0, 3.0])", "x.index_put_(t.tensor([0]), v)",
    "x.index_put_((t.tensor([0]),))",
    "x.index_put_(values=v)", "x.index_put_((t.tensor([0]),), v, False, 1)",
    "x.index_put_((t.tensor([0]),), v, indices=(t.tensor([0]),))",
    "x.index_put_((t.tensor([0]),), v, foo=1)", "x.index_put_((t.tensor([0.0]),), v)",
    "x.index_put_((t.tensor([0], dtype=t.int32), t.tensor([2], dtype=t.int32)), s)",
    "x.index_put_((t.tensor([0, 1]), t.tensor([0, 1, 2])), s)",
    "x.index_put_((t.tensor([0]), t.tensor([0]), t.tensor([0])), s)",
    "x.index_put_((b, b), s)", "x.index_put_((b[0],), s)", "x.index_put_((b.to(t.uint8),), s)",
    "i.index_put_((b,), t.tensor(1.5))", "i.index_put_((b,), t.tensor(float('inf')))",
    "x.index_put_((b,), t.tensor(True))", "x.index_put_((t.tensor([0]), b[0]), t.tensor(1.5))",
    "x.index_put((t.tensor([0]),), v).sum()", "x.index_put((t.tensor([0]),), v, 1)",
    "x.index_put((t.tensor([0]),), 1.0)", "x.index_put((t.tensor([2]),), v)",
    "t.index_put(x, (t.tensor([0]),), v, True)", "t.index_put(x, [t.tensor([0])], v, out=x)",
    "t.index_put(None, (t.tensor([0]),), v)", "t.index_put(x, None, v)",
    "t.index_put(x, (0,), v)", "t.index_put(x)", "t.index_put_(x, (t.tensor([1]),), v, 1)",
    "t.index_put(input=x, indices=(t.tensor([1]),), values=v).sum()",
    "y.index_put_((t.tensor([0]),), v).grad_fn.name()", "w.index_put_((t.tensor([0]),), v)",
    "w.index_put((t.tensor([0]),), v).grad_fn._saved_accumulate",
    "w.index_put((t.tensor([0]),), v).grad_fn._saved_indices",
    "w[[1, 0]].grad_fn._saved_indices", "w[b].grad_fn._saved_self_sym_sizes",
    "w[:, [2]].grad_fn._saved_indices", "y.index_put_((t.tensor([0]),), v)._version",
    "x.expand(2, 2, 3).index_put_((t.tensor([0]),), t.tensor(1.0))",
    "x.t().index_put_((t.tensor([1]),), t.tensor([7.0, 8.0]))",
    "x.t().index_put((t.tensor([1]),), t.tensor([7.0, 8.0])).stride()",
    "x[0].index_put_((t.tensor([2, 0]),), t.tensor([7.0, 8.0]))",
]

NONZERO = [
    "x[b.nonzero().unbind(1)]", "x[tuple(b.nonzero().t())]",
    "x.__setitem__(tuple(b.nonzero().t()), -1.0)", "x.__delitem__(0)", "x.nonzero()",
    "b.nonzero(True)", "x.nonzero(as_tuple=1)", "b.nonzero(as_tuple=True)",
    "t.tensor(0.).nonzero()",
    "t.tensor(3.).nonzero()", "t.tensor(3.).nonzero(as_tuple=True)",
    "t.tensor(0.).nonzero(as_tuple=True)", "t.nonzero(b)", "t.nonzero(i, as_tuple=True)",
    "t.nonzero(None)", "t.zeros(0, 3).nonzero().shape", "w.nonzero().requires_grad",
    "x.nonzero(foo=1)", "t.nonzero(x, as_tuple=None)",
    "t.tensor([1.0, float('nan'), 0.0]).nonzero()",
    "x.t().nonzero()", "img.nonzero().shape", "x[x.nonzero(as_tuple=True)]",
]
