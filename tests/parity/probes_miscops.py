"""positive, angle, signbit (issue 10, miscops). SIGN_ANGLE: the three ops on every dtype of
the fixtures, views, autograd, out= (dtype, shape, overlap, autograd), and their bindings.
Each line was run on torch 2.13 first: the expected behaviour is whatever torch does."""
from __future__ import annotations

SIGN_ANGLE = [
    # positive: the tensor itself, bool refused, no out=, no arguments
    "t.positive(x) is x", "(+x) is x", "x.positive() is x", "(+y) is y", "t.positive(y) is y",
    "t.positive(i) is i", "t.positive(b)", "+b", "b.positive()", "t.positive(x, out=x)",
    "t.positive(x, out=None)", "t.positive(1)", "t.positive(None)", "t.positive()",
    "x.positive(foo=1)", "t.positive(input=x) is x", "t.positive(x, x)",
    "x.__pos__(1)", "t.positive(x.t()) is not None", "t.positive(s) is s",
    "t.positive(x.half()).dtype", "t.positive(w).grad_fn", "(+w).requires_grad",
    # angle: values, dtypes, views, autograd
    "t.angle(x)", "x.angle()", "t.angle(i)", "t.angle(b)", "t.angle(d)", "t.angle(s)",
    "t.angle(x.half())", "t.angle(x.bfloat16())", "t.angle(i.to(t.uint8))",
    "t.angle(i.to(t.int8))", "t.angle(i.short())", "t.angle(x.t()).stride()",
    "t.angle(img).shape", "t.angle(x[:, ::2])", "t.angle(x[:0])", "t.angle(v.expand(2, 3))",
    "t.angle(w)", "t.angle(y).grad_fn._saved_self",
    "t.angle(w).sum().backward() or w.grad", "t.angle(w.t()).sum().backward() or w.grad.stride()",
    "t.angle(t.tensor([0.0, -0.0, float('nan'), -float('inf'), float('inf')]))",
    "x.angle(foo=1)", "t.angle(1)", "t.angle(None)", "t.angle()",
    "t.angle(x, x)", "t.angle(input=x)",
    # angle out=
    "t.angle(x, out=t.empty(2, 3))", "t.angle(x, out=t.empty(0))", "t.angle(x, out=t.empty(6))",
    "t.angle(x, out=t.empty(2, 3, dtype=t.long))", "t.angle(i, out=t.empty(2, 3, dtype=t.long))",
    "t.angle(i, out=t.empty(2, 3, dtype=t.float64))", "t.angle(x, out=t.empty(2, 3).half())",
    "t.angle(x, out=x)", "t.angle(x, out=x[:, :2])", "t.angle(x, out=t.empty(1).expand(2, 3))",
    "t.angle(x, out=1)", "t.angle(x, out=None)", "t.angle(w, out=t.empty(2, 3))",
    "t.angle(x, out=w)", "t.angle(x, out=t.empty(3, 2).t())",
    "t.angle(x, out=t.empty(2, 3, dtype=t.bool))", "t.angle(b, out=t.empty(2, 3, dtype=t.bool))",
    # signbit: values, dtypes, views, no gradient
    "t.signbit(x)", "x.signbit()", "t.signbit(i)", "t.signbit(b)", "t.signbit(d)",
    "t.signbit(s)", "t.signbit(x.half())", "t.signbit(x.bfloat16())",
    "t.signbit(i.to(t.uint8))", "t.signbit(i.to(t.int8))", "t.signbit(-i.short())",
    "t.signbit(x.t()).stride()", "t.signbit(x[:, ::2])", "t.signbit(v.expand(2, 3))",
    "t.signbit(t.tensor([0.0, -0.0, float('nan'), -float('nan'), -float('inf')]))",
    "t.signbit(w)", "t.signbit(w).requires_grad", "t.signbit(w).grad_fn",
    "t.signbit(y).sum().backward()", "x.signbit(foo=1)", "t.signbit(1)",
    "t.signbit(None)", "t.signbit()", "t.signbit(x, x)", "t.signbit(input=x)",
    # signbit out=
    "t.signbit(x, out=t.empty(2, 3, dtype=t.bool))", "t.signbit(x, out=t.empty(2, 3))",
    "t.signbit(x, out=x)", "t.signbit(x, out=i)", "t.signbit(x, out=b)",
    "t.signbit(x, out=t.empty(0, dtype=t.bool))", "t.signbit(x, out=t.empty(7, dtype=t.bool))",
    "t.signbit(x, out=t.empty(1, dtype=t.bool).expand(2, 3))",
    "t.signbit(x, out=t.empty(1).expand(2, 3))", "t.signbit(b, out=t.ones(2, 3, dtype=t.bool))",
    "t.signbit(w, out=t.empty(2, 3, dtype=t.bool))", "t.signbit(x, out=1)",
    "t.signbit(x, out=None)", "t.signbit(b, out=b)", "t.signbit(x, out=b.t())",
    "t.signbit(i, out=t.empty(2, 3, dtype=t.bool))",
    # the bool-result ops' out= forms take inputs that require grad
    "t.eq(w, 0, out=t.empty(2, 3, dtype=t.bool))", "t.lt(w, x, out=t.empty(2, 3, dtype=t.bool))",
    "t.logical_and(w, x, out=t.empty(2, 3, dtype=t.bool))",
    "t.logical_not(w, out=t.empty(2, 3, dtype=t.bool))",
    "t.ne(w, 1, out=t.empty(2, 3, dtype=t.float32))", "t.gt(y, 0, out=t.empty(2, 3))",
]
