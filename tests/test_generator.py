"""generator.py: the default generator is made on the first draw, seeded as before."""
from __future__ import annotations

import subprocess
import sys

import numpy as np

import inplace_tutorial as ipt
from inplace_tutorial import generator


def test_numpy_random_is_imported_on_the_first_draw_not_at_import():
    code = ("import sys, inplace_tutorial as t; assert 'numpy.random' not in sys.modules; "
            "t.randn(2); assert 'numpy.random' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_first_draw_and_manual_seed_use_pcg64_of_the_seed():
    code = ("import numpy as np, inplace_tutorial as t; x = t.rand(4).numpy(); "
            "want = np.random.Generator(np.random.PCG64(0)).random(4, dtype=np.float32); "
            "assert np.array_equal(x, want), (x, want)")
    subprocess.run([sys.executable, "-c", code], check=True)
    ipt.manual_seed(7)
    assert generator.default_generator() is generator.default_generator()
    want = np.random.Generator(np.random.PCG64(7)).random(4, dtype=np.float32)
    assert np.array_equal(ipt.rand(4).numpy(), want)
