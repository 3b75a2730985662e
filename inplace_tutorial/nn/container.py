"""Sequential: children called in order; indexable, sliceable and sized like a list."""
from __future__ import annotations

import operator
from collections import OrderedDict

from .module import Module


class Sequential(Module):
    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, m in args[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(args):
                self.add_module(str(i), m)

    def forward(self, input):
        for m in self._modules.values():
            input = m(input)
        return input

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, idx):
        items = list(self._modules.items())
        if isinstance(idx, slice):
            return Sequential(OrderedDict(items[idx]))
        idx = operator.index(idx)  # PyTorch's _get_item_by_idx: 'str' can't be an index
        if not -len(items) <= idx < len(items):
            raise IndexError(f"index {idx} is out of range")
        return items[idx][1]

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self
