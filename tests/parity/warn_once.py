"""Warnings PyTorch gives once a process (TORCH_WARN_ONCE): its flag can't be reset, so each
sequence of calls runs in a fresh process, once on torch and once on the core, and the two
records are compared. A test file writes only its calls: the code that binds ``t`` and
``np`` comes before them, and the loop that runs the sequence after them."""
from __future__ import annotations

import json
import subprocess
import sys

_BEFORE = """
import json, sys, warnings
import numpy as np
if sys.argv[1] == "torch":
    import torch as t
else:
    import inplace_tutorial as t
"""

# Per call of the sequence: its value (or exception) and the UserWarnings it printed, without
# torch's "(Triggered internally at ...)" suffix.
_AFTER = """
seen = []
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for name in sys.argv[2].split(","):
        before = len(caught)
        try:
            value = calls[name]().tolist()
        except Exception as e:
            value = f"{type(e).__name__}: {e}"
        seen.append([name, value, [str(w.message).split(" (Triggered internally")[0]
                                   for w in caught[before:] if w.category is UserWarning]])
print(json.dumps(seen))
"""


def run_sequence(calls: str, which: str, sequence: str) -> list:
    """Run the comma-separated call names of ``sequence`` from the ``calls`` dict that the code
    ``calls`` defines, in a fresh process on ``which`` ('torch' or 'core')."""
    done = subprocess.run([sys.executable, "-c", _BEFORE + calls + _AFTER, which, sequence],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)
