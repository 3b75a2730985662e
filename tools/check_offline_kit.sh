#!/usr/bin/env bash
# The participant kit installed with no network, as in a classroom without Wi-Fi (CI runs it).
# Needs root for `unshare -n` (a network namespace with no interfaces). Builds the kit for this
# machine's platform and Python only (tools/setup.py wheelhouse --host) from a clone of the
# committed course, unpacks it, then inside the namespace creates a fresh venv from the wheels,
# imports the package, does one in-place op, asks for a solution (the kit has none) and runs
# notebook 01 under nbval.
set -euo pipefail
# The kit is what participants get: the course and its tests, without torch or the browser test,
# whatever the calling CI job switched on for its own suites.
unset PARITY BROWSER IPT_REQUIRE_PARITY IPT_REQUIRE_BROWSER
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
PY=${PYTHON:-python3}

git clone -q "$src" "$work/src"
(cd "$work/src" && "$PY" tools/setup.py wheelhouse --host)
mkdir "$work/kit"
(cd "$work/kit" && "$PY" -m zipfile -e "$work/src/dist/inplace-tutorial-kit.zip" .)
cd "$work/kit/inplace-tutorial"
test ! -e instructor || { echo "check_offline_kit: the kit contains instructor/" >&2; exit 1; }

# No network, and none of this machine's pip settings (local indexes, find-links, cache):
# only the kit's wheelhouse can satisfy pip.
# The namespace gets its loopback interface up (a laptop without Wi-Fi has one too): Jupyter's
# kernel talks to nbval over 127.0.0.1.
offline() {
    unshare -n sh -c 'ip link set lo up && exec "$@"' offline-kit \
        env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL \
        PIP_CONFIG_FILE=/dev/null PIP_NO_CACHE_DIR=1 "$@"
}
offline "$PY" -c "import socket; s = socket.socket(); s.settimeout(2)
try:
    s.connect(('1.1.1.1', 80))
except OSError:
    pass
else:
    raise SystemExit('check_offline_kit: the namespace has network')"
offline "$PY" tools/setup.py install --test
offline .venv/bin/python - <<'PY'
import inplace_tutorial as ipt
from inplace_tutorial.exercises import solution

x = ipt.zeros(3)
ptr = x.data_ptr()
x.add_(1)
assert x.data_ptr() == ptr and x._version == 1, "add_ is not in place"
solution("10.3")  # no solutions in the kit: must explain, not fail
print("check_offline_kit: package imported, in-place op ok")
PY
offline .venv/bin/python -m pytest -q -p no:randomly --nbval --nbval-current-env \
    --nbval-sanitize-with tests/nbval_sanitize.cfg notebooks/01_*.ipynb
echo "check_offline_kit: offline install from the kit passed"
