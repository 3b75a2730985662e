"""The once-a-process warnings (TORCH_WARN_ONCE, inplace_tutorial/warn_once.py) against torch
2.13: which line each one names. PyTorch's C++ names the Python line that called into it; the
core names the first line outside its package, however many of its own calls lie between (a
method's binding, the function parser, record_inplace's checks). The deprecated signatures
share one flag (``t.add(x, 2, x)`` after ``x.add_(2, ...)`` is silent); searchsorted has one
per operand. Every warning is given once,
so the calls run in a fresh process per library. Which calls warn, and how often, is checked
per op (test_adjoint_parity, test_index_reduce_parity, test_cross_diff_take_parity ...).
"""
import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.parity

# each call on its own line of the script, so a warning's line number says which call gave it
_SCRIPT = """
import json, sys, warnings
import numpy as np
if sys.argv[1] == "torch":
    import torch as t
else:
    import inplace_tutorial as t
F = t.nn.functional
x = t.ones(2, 3)
z = t.tensor(np.float32(2.5))
v = t.tensor(np.ones(3, dtype=np.float32))
u8 = t.tensor(np.array([1, 0, 1], dtype=np.uint8))
b = t.tensor(np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)).t()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    v.where(u8, v)
    t.where(u8, v, v)
    t.ones(3, 3).cross(t.ones(3, 3))
    t.meshgrid(v, v)
    x.clone().index_reduce_(0, t.tensor([0]), t.ones(1, 3), "prod")
    t.index_reduce(x, 0, t.tensor([0]), t.ones(1, 3), "prod")
    F.conv2d(t.ones(1, 1, 4, 4), t.ones(1, 1, 2, 2), padding="same")
    z.T
    z.mT
    z.mH
    z.H
    t.adjoint(z)
    z.adjoint()
    v.T
    x.add_(2, t.ones(2, 3))
    t.add(x, 2, x)
    t.searchsorted(b, b)
    t.bucketize(b[0], b[0])
print(json.dumps([[str(w.message).split(" (Triggered internally")[0], w.filename, w.lineno]
                  for w in caught]))
"""


def _warnings(which: str) -> list:
    done = subprocess.run([sys.executable, "-c", _SCRIPT, which], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def test_each_warning_names_the_calling_line(torch_mod):
    expected = _warnings("torch")
    got = _warnings("core")
    assert len(expected) == 14
    assert [m for m, _, _ in got] == [m for m, _, _ in expected]
    for (message, file, line), (_, want_file, want_line) in zip(got, expected):
        assert file == "<string>", message
        if message.startswith("torch.meshgrid"):  # torch.meshgrid is Python in torch: its
            assert want_file.endswith("torch/functional.py")  # warning names torch's own line
            assert line == _SCRIPT.splitlines().index("    t.meshgrid(v, v)") + 1
            continue
        assert (file, line) == (want_file, want_line), message
