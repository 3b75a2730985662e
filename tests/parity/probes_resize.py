"""Probes of the storage-level in-place methods (resize-set): ``resize_``, ``resize_as_``,
``set_``, ``share_memory_``, and the per-element callbacks ``apply_``, ``map_``, ``map2_``, on
the fixtures, whose storages only shrink or keep their size here. A grown storage's new
cells are uninitialised (torch's deterministic mode fills them), and after a negative or
overflowing size torch leaves a tensor its storage can't hold, which no fixture could be read
back from: those programs are in test_resize_set_parity.py and test_set_storage_parity.py,
which read only what torch defines. Each line was run on torch 2.13 first."""
from __future__ import annotations

RESIZE = [
    "x.resize_(3, 2)", "x.resize_(6)", "x.resize_(2, 2)", "x.resize_(0)", "x.resize_(2, 3)",
    "x.resize_(())", "x.resize_([1, 6])", "x.resize_(size=(3,))", "x.resize_(2.0)",
    "x.resize_()", "x.resize_('a')", "x.resize_((2,), 3)", "x.resize_(3, foo=1)",
    "x.resize_(3, memory_format=t.preserve_format)",
    "x.resize_(3, memory_format=t.channels_last)", "x.resize_(3, memory_format=None)",
    "x.resize_(3, memory_format=1)", "x.resize_(1, 1, 2, 3, memory_format=t.channels_last)",
    "x.resize_(1, 2, 3, memory_format=t.contiguous_format).stride()",
    "x.t().resize_(3, 2).stride()", "x.t().resize_(6).stride()", "x[0].resize_(4)",
    "x[1].resize_(3, 1)", "x[:, 1].resize_(2)", "x.resize_(3) is x", "w.resize_(3)",
    "w.resize_(2, 3)", "y.resize_(6)", "w.detach().resize_(3)", "y.detach().resize_(2, 2)",
    "i.resize_(1, 3)", "b.resize_(5)", "s.resize_(1)", "s.resize_(())",
    "img.resize_(2, 2, 4, 4, memory_format=t.channels_last).stride()",
    "img.resize_(1, 2, 4, 4, memory_format=t.channels_last).stride()",
    "img.resize_(1, 2, 2, 2, 2, memory_format=t.channels_last_3d).stride()",
    "d.resize_(2, 2, memory_format=t.channels_last)",
]

RESIZE_AS = [
    "x.resize_as_(v)", "x.resize_as_(d)", "m.resize_as_(x)", "x.resize_as_(x)",
    "x.resize_as_(i[0])", "x.resize_as_(w[0])", "x.resize_as_(w).requires_grad",
    "x.resize_as_(s)", "x.resize_as_(None)", "x.resize_as_(3)", "x.resize_as_()",
    "x.resize_as_(v, v)", "x.resize_as_(the_template=v)", "x.resize_as_(v, foo=1)",
    "x.resize_as_(v, memory_format=t.preserve_format)",
    "x.resize_as_(d, memory_format=t.channels_last)", "x.resize_as_(v, memory_format='a')",
    "x.resize_as_(x.t(), memory_format=t.preserve_format).stride()",
    "x.resize_as_(x.t()).stride()", "w.resize_as_(x)", "w.resize_as_(w)", "y.resize_as_(v)",
    "img.resize_as_(img, memory_format=t.channels_last).stride()",
    "img.resize_as_(img.to(memory_format=t.channels_last), "
    "memory_format=t.preserve_format).stride()",
    "img.resize_as_(img[:1], memory_format=t.channels_last).stride()",
]

SET = [
    "x.set_()", "x.set_(v)", "x.set_(m)", "x.set_(d)", "x.set_(i)", "x.set_(x)", "v.set_(x)",
    "x.set_(v) is x", "x.set_(m.t())", "x.set_(m[1:, ::2])", "x.set_(x.untyped_storage())",
    "x.set_(v.untyped_storage())", "x.set_(i.untyped_storage())", "d.set_(v.untyped_storage())",
    "b.set_(x.untyped_storage())", "x.set_(v.untyped_storage(), 1, (2,))",
    "x.set_(m, 1, (2, 2), (3, 1))", "x.set_(m, 0, (4,), (2,))", "x.set_(m, 0, (2, 2), [])",
    "x.set_(m.untyped_storage(), 0, (), ())", "x.set_(m, t.tensor(2), [3])",
    "i.set_(m, 0, (2,))", "x.set_(v, -1, (2,))", "x.set_(v, 0, (2,), (1, 1))", "x.set_(1)",
    "x.set_(None)", "x.set_(v, 0)", "x.set_(v, 0.5, (2,))", "x.set_(v, 0, 2)",
    "x.set_(source=v)", "x.set_(source=v, storage_offset=1, size=(2,))", "x.set_(src=v)",
    "x.set_(v, 0, (1,), (1,), 1)", "w.set_(v)", "w.set_()", "w.set_(i)", "w[0].set_(v)",
    "w.detach().set_(v)", "y.set_(v)", "y.set_(v).grad_fn.name()", "y.set_().grad_fn.name()",
    "x.set_(w).grad_fn.name()", "x.set_(w).requires_grad", "x.set_(w, 0, (2,)).requires_grad",
    "y.set_(x).sum().backward()", "x.set_(w).sum().backward()", "x[0].set_(v)",
    "x[0].set_(v)._is_view()", "x.detach().set_(m)", "x.data.set_(m)",
]

SHARE = [
    "x.share_memory_()", "x.share_memory_().is_shared()", "x.is_shared()", "x[0].is_shared()",
    "w.share_memory_().is_shared()", "y.share_memory_().requires_grad", "x.share_memory_(1)",
    "x.is_shared(1)", "x.share_memory_().add_(1)", "x.share_memory_().resize_(2)",
    "x.untyped_storage().share_memory_().is_shared()", "x.untyped_storage().is_shared()",
    "x[:, 1].share_memory_()._version",
]

CALLBACKS = [
    "x.apply_(lambda v: v * 2)", "x.apply_(abs)", "x.t().apply_(lambda v: v + 1)",
    "d.apply_(lambda v: v / 3)", "i.apply_(lambda v: v * 1.5)", "b.apply_(lambda v: not v)",
    "img.apply_(float)", "s.apply_(lambda v: v * v)", "x.apply_(lambda v: 'a')",
    "x.apply_(lambda v: 1 / 0)", "x.apply_(3)", "x.apply_()", "x.apply_(abs, abs)",
    "x.apply_(f=abs)", "w.apply_(abs)", "y.apply_(abs)", "w.detach().apply_(abs)",
    "i.apply_(lambda v: 2**63)", "i.to(t.int8).apply_(lambda v: v * 100)",
    "x.map_(v, lambda a, c: a * c)", "x.map_(x.t().t(), max)", "x.map_(i, max)",
    "x.map_(m, max)", "v.map_(x, max)", "x.map_(w, min)", "y.map_(x, min)", "x.map_(v)",
    "x.map_(3, max)", "x.map_(v, None)", "i.map_(i, pow)", "x[0].map_(x[1], min)",
    "x.map2_(v, x, lambda a, c, e: a + c + e)", "x.map2_(v, i, min)", "x.map2_(i, v, min)",
    "x.map2_(v, w, min)", "x.map2_(v, v)", "x.map2_(v[:2], v, min)",
]
