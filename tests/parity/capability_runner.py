"""Run parity programs on torch and the core in THIS process, under whatever
``ATEN_CPU_CAPABILITY`` it was started with, and print what differs as JSON.

``tests/parity/test_cpu_capability_parity.py`` starts it once per CPU build
(``python -m tests.parity.capability_runner MODULE ...``): both libraries read the variable
when they are imported, so a build can only be changed by starting a new process.
"""
from __future__ import annotations

import importlib
import json
import sys

from .harness import Raised, compare, run


def main(module_names: list[str]) -> dict:
    import torch

    import inplace_tutorial

    torch.set_num_threads(1)  # as tests/parity/conftest.py's torch_mod fixture
    torch.use_deterministic_algorithms(True)
    report = {"torch": torch.backends.cpu.get_cpu_capability(),
              "core": inplace_tutorial.backends.cpu.get_cpu_capability(),
              "programs": {}}
    for name in module_names:
        for prog_name, prog in importlib.import_module(name).prog.programs.items():
            ref = run(torch, prog)
            got = run(inplace_tutorial, prog)
            report["programs"][f"{name}:{prog_name}"] = {
                "torch_raised": isinstance(ref, Raised), "diffs": compare(ref, got)}
    return report


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
