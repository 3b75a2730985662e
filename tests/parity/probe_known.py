"""Probes of probes.py where the core differs from torch 2.13 (written by
``python -m tests.parity.probes --ledger``; the owner of each class is in
probes.OWNER). A fix removes its probe from here."""

KNOWN_DIFFERENT: dict[str, set[str]] = {
    'creation': {  # dtypes
        't.tensor([1j])',
    },
    'keyword arguments': {  # probes
        'x.permute(dims=None)',
        "x.expand(size='a')",
    },
    'issue 10 ops': {  # probes
        'x.masked_scatter_(b, v[:1])',
        'x.cumsum(1, t.int64).dtype',
        "x.norm('nuc')",
        'x.flip(dims=0)',
        'x.repeat(repeats=[2, 1])',
        'x.unflatten(dim=None, sizes=(3,))',
    },
    "out= of issue 10's ops": {  # blas
        't.cat([x, x], 1, out=x[:, :1])',
        't.sort(x, out=x)',
        't.gather(x, 1, t.tensor([[0]]), out=x)',
        't.stack([x, x], out=x)',
        't.stack([x, x], out=i)',
        't.movedim(x, 0, 1, out=x)',
    },
}
