"""The NaN-bit programs under each of PyTorch's CPU builds (DEFAULT, AVX2, AVX512), and
``backends.cpu.get_cpu_capability()`` read as torch reads it (issue 10).

Which build runs is fixed when torch and the core are imported (cpu_capability.py), from
``ATEN_CPU_CAPABILITY`` or the CPU, so each build gets a process of its own
(capability_runner.py) with the variable set for both libraries. This process runs the
programs under the machine's own build in their files as usual.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inplace_tutorial import cpu_capability

pytestmark = pytest.mark.parity

ROOT = Path(__file__).resolve().parents[2]

# the files whose programs compare float results bit for bit
BIT_PROGRAMS = ["tests.parity.test_nan_sign_parity", "tests.parity.test_fmax_fmin_parity",
                "tests.parity.test_nan_bits_parity", "tests.parity.test_nan_bits16_parity",
                "tests.parity.test_sign_angle_parity", "tests.parity.test_clamp_bits_parity",
                "tests.parity.test_logit_parity", "tests.parity.test_rounding16_parity",
                "tests.parity.test_overlap_walk_parity",  # the loop's order: exact values
                "tests.parity.test_overlap_unary_parity",
                "tests.parity.test_relu_bits_parity", "tests.parity.test_last_bits_parity"]

# every build this CPU can run (a build it can't would stop torch with an illegal instruction)
BUILDS = cpu_capability.runnable_builds()


def _run(env_value: str | None, modules: list[str]) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    env.pop("ATEN_CPU_CAPABILITY", None)
    if env_value is not None:
        env["ATEN_CPU_CAPABILITY"] = env_value
    done = subprocess.run([sys.executable, "-m", "tests.parity.capability_runner", *modules],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("build", [b.lower() for b in BUILDS])
def test_bit_programs_under_each_build(build, torch_mod):
    report = _run(build, BIT_PROGRAMS)
    assert report["torch"] == report["core"] == build.upper()
    assert len(report["programs"]) >= 27
    raised = [name for name, r in report["programs"].items() if r["torch_raised"]]
    assert not raised, f"programs that only compare an error, under {build}: {raised}"
    differ = {name: r["diffs"][:3] for name, r in report["programs"].items() if r["diffs"]}
    assert not differ, f"under ATEN_CPU_CAPABILITY={build}: " + json.dumps(differ, indent=1)


@pytest.mark.parametrize("env_value", ["", "AVX2", "avx3"])
def test_capability_read_as_torch_reads_it(env_value, torch_mod):
    """Unset, empty, upper case (ATEN compares exactly) and unknown values are ignored (torch
    warns) and the CPU decides; a known value wins."""
    report = _run(env_value, [])
    assert report["core"] == report["torch"]


def test_capability_in_this_process(torch_mod, core):
    assert core.backends.cpu.get_cpu_capability() == torch_mod.backends.cpu.get_cpu_capability()
