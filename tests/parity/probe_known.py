"""Probes of probes.py where the core differs from torch 2.13 (written by
``python -m tests.parity.probes --ledger``; the owner of each class is in
probes.OWNER). A fix removes its probe from here."""

KNOWN_DIFFERENT: dict[str, set[str]] = {
    'creation': {  # dtypes
        't.tensor([1j])',
    },
    'nn layers': {  # nnops
        'nn.Conv2d(2, 3, 3, dilation=2)(img).shape',
        'nn.Conv2d(2, 4, 3, groups=2)(img).shape',
    },
    'nn functional': {  # nnops
        'F.embedding(t.tensor([0]), m, max_norm=1.0)',
    },
    'keyword forms (reductions)': {  # keywords
        'x.max(other=x)',
        'x.logsumexp(dim=1)',
        'x.prod(dim=1)',
        'x.prod(1, True, t.float64)',
    },
    'keyword forms (operands)': {  # keywords
        "x.div(x, rounding_mode='floor')",
        "x.div(x, 'floor')",
        "x.div_(other=x, rounding_mode='trunc')",
        'x.addmm_(x, m, beta=0.5, alpha=2)',
    },
    'keyword forms (conversions)': {  # keywords
        'x.clone(memory_format=t.contiguous_format).shape',
        'x.clone(t.contiguous_format)',
        'x.contiguous(memory_format=t.contiguous_format).shape',
    },
    'keyword forms (functions)': {  # keywords
        't.unflatten(x, dim=None, sizes=(3,))',
    },
    'keyword forms (creation)': {  # keywords
        't.zeros(size=(2,)).shape',
        't.ones(size=2)',
        't.ones(2, size=(2,))',
        't.arange(end=3)',
        't.empty(size=(2,)).shape',
        't.tensor([1.0], t.float64)',
        't.zeros_like(input=x).shape',
        't.randn(size=(2,)).shape',
    },
    'half-written by PyTorch': {  # none: the core validates before its first write, as promised
        'x.masked_scatter_(b, v[:1])',
        'x.index_add_(1, t.tensor([0, 7]), x[:, :2])',
        'x.index_fill_(0, t.tensor([1, 2]), 0.0)',
        'x.index_put_((t.tensor([0, 2]),), t.tensor(1.0))',
        'x.index_put_((t.tensor([0, 5]),), t.tensor(1.0))',
        'x.index_put_((t.tensor([0, 3]),), v, True)',
        'x.index_put_((t.tensor([1, -3]),), v, True)',
        'x.__setitem__(([1, 0, 5],), 1.0)',
        'x.__setitem__((slice(None), [2, 0, 3]), 1.0)',
    },
}
