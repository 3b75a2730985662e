"""Probes of the storage-level in-place methods (resize-set): ``resize_`` and ``resize_as_`` on
the fixtures, which only shrink or keep their storages here (a grown storage's new cells are
uninitialised, and torch's deterministic mode fills them: those programs are in
test_resize_set_parity.py, which reads only the cells torch defines; so are negative and
overflowing sizes, after which torch leaves a tensor its storage can't hold, which no
fixture could be read back from). Each line was run on torch 2.13 first."""
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
