"""The settings of every hypothesis test here: how many examples, and from which seed.

Locally each run draws new examples, and replays the failures saved in ``.hypothesis/``. With
``CI`` set (``.ci/run`` sets it), every test draws the same examples on every run: they
follow from the test's name (``derandomize``), and no database is read or written, so a CI
leg that fails fails again when run again, and ``CI=1`` repeats it at home (same Python, same
hypothesis). A failure prints how to reproduce it (``print_blob``).

``IPT_HYPOTHESIS_SCALE=20`` draws 20 times as many examples: a search for latent failures
(with ``CI`` unset, new ones each run), too slow for the suite. No deadline and no "too slow"
health check: both depend on the machine's load.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

CI = bool(os.environ.get("CI"))
SCALE = int(os.environ.get("IPT_HYPOTHESIS_SCALE", "1"))


def examples(n: int) -> settings:
    """Settings for a test that draws ``n`` examples (times ``SCALE``)."""
    repeatable = {"derandomize": True, "database": None} if CI else {}
    return settings(max_examples=n * SCALE, deadline=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow], **repeatable)
