"""Probes of probes.py where the core differs from torch 2.13 (written by
``python -m tests.parity.probes --ledger``; the owner of each class is in
probes.OWNER). A fix removes its probe from here."""

KNOWN_DIFFERENT: dict[str, set[str]] = {
    'views and sizes': {  # shapes
        'x.as_strided((10**22,), (0,))',
    },
    'creation': {  # dtypes
        't.tensor([1j])',
    },
    'nn functional': {  # nnops
        'F.nll_loss(v, t.tensor(0))',
        'F.nll_loss(img, t.zeros(2, 4, 4, dtype=t.long)).shape',
        'F.cross_entropy(x, t.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]))',
    },
    'keyword arguments': {  # probes
        'x.permute(dims=None)',
        "x.expand(size='a')",
    },
}
