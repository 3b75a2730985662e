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
        'F.max_pool2d(img, 2, ceil_mode=True).shape',
        'F.max_pool2d(img, 2, dilation=2).shape',
        'F.avg_pool2d(img, 2, count_include_pad=False).shape',
        'F.avg_pool2d(img, 3, 1, 1, count_include_pad=False)',
        'F.avg_pool2d(img, 2, divisor_override=1)',
        'F.avg_pool2d(img, 2, ceil_mode=True).shape',
        'F.embedding(t.tensor([0]), m, max_norm=1.0)',
    },
    'keyword arguments': {  # probes
        'x.permute(dims=None)',
        "x.expand(size='a')",
    },
    'issue 10 ops': {  # probes
        'x.cumsum(1, t.int64).dtype',
        "x.norm('nuc')",
        'x.flip(dims=0)',
        'x.repeat(repeats=[2, 1])',
        'x.unflatten(dim=None, sizes=(3,))',
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
    "out= of issue 10's ops": {  # blas
        't.stack([x, x], out=x)',
        't.stack([x, x], out=i)',
        't.movedim(x, 0, 1, out=x)',
    },
}
