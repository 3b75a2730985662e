"""Probes of probes.py where the core differs from torch 2.13 (written by
``python -m tests.parity.probes --ledger``; the owner of each class is in
probes.OWNER). A fix removes its probe from here."""

KNOWN_DIFFERENT: dict[str, set[str]] = {
    'creation': {  # dtypes
        't.tensor([1j])',
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
        'F.embedding(t.tensor([0, 5]), m, max_norm=1.0)',
        'F.embedding(i.abs(), m, max_norm=3.0)',
        "i.div_(t.tensor([2, -3, 0]), rounding_mode='floor')",
        "i.div_(t.tensor([2, -3, 0]), rounding_mode='trunc')",
    },
    'sparse gradients (probes3)': {  # none: the core has no sparse tensors
        'F.embedding(t.tensor([0, 0, 2]), m.requires_grad_(), sparse=True).sum().backward()',
        'nn.Embedding(5, 2, sparse=True)(t.tensor([1])).sum().backward()',
    },
}
