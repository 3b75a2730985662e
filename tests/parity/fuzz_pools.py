"""Op pools the two fuzzers share: an op joins when the core has it (torch 2.13 has them all).

Names: "sin" is a Tensor method, "t.cat" a module function, "F.gelu" one of nn.functional,
"dtype.int8" a dtype.
The core's availability decides, also in torch-vs-torch sanity mode, so both runs of a program
draw the same ops. Each fuzzer checks that torch has every name in its tables.
"""
from __future__ import annotations

import importlib

CORE = importlib.import_module("inplace_tutorial")


def resolves(mod, path: str) -> bool:
    """Does ``mod`` have what ``path`` names ("dtype.int8": a dtype)?"""
    if path.startswith("dtype."):
        return path[6:] in dtypes([path[6:]], mod)
    if path.startswith("t."):
        return callable(getattr(mod, path[2:], None))
    if path.startswith("F."):
        return callable(getattr(mod.nn.functional, path[2:], None))
    return callable(getattr(mod.Tensor, path, None))


def pool(table: dict, mod=CORE, gaps: dict | None = None) -> list[str]:
    """The entries of ``table`` (name -> (needs, ...)) that ``mod`` can run."""
    gaps = gaps or {}
    return sorted(k for k, (needs, *_) in table.items()
                  if all(resolves(mod, n) for n in needs) and not (k in gaps and gaps[k](mod)))


def dtypes(names: list[str], mod=CORE) -> list[str]:
    """The dtypes among ``names`` that ``mod`` has."""
    return [d for d in names if isinstance(getattr(mod, d, None), type(mod.float32))]
