# inplace-tutorial — two commands matter:
#   make lab    set up .venv with what the course needs and open it in JupyterLab
#   make test   set up .venv with the test tools too and run every test (unit, parity, browser,
#               then the notebooks under nbval)
# Both are tools/setup.py underneath (`python tools/setup.py lab|test` is the route without make,
# e.g. on Windows), which installs the versions CI tested (locks/py3.X.txt), from wheelhouse/
# with no network when that folder exists.
#
# Optional settings, read from the environment or the command line:
#   PYTHON=python3.12  the interpreter to build .venv with (3.10-3.13 are tested)
#   PARITY=1   also install torch==2.13.0 (CPU build) for the parity tests
#   BROWSER=1  also install playwright for the JupyterLab browser test (needs Debian's chromium)
#   PYTEST_ARGS="-x -k views"   extra pytest flags; XDIST / NBVAL_XDIST override the xdist flags

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
SETUP := $(PYTHON) tools/setup.py
# The venv's interpreter (after setup), for the targets below that call it directly.
PY = $(VENV)/bin/python

.PHONY: setup lab test test-unit test-notebooks test-latest test-machines lock wheelhouse \
	bench lint clean distclean

setup:
	@$(SETUP) install --test

lab:
	@$(SETUP) lab

# Every suite runs; the target fails if any fails (pytest's "no tests collected" included).
test:
	@$(SETUP) test

# Single suites, for quick iteration.
test-unit:
	@$(SETUP) test-unit

test-notebooks:
	@$(SETUP) test-notebooks

# The same tests on the newest releases of everything (in .venv-latest), not the lock: tells
# whether the lock can move forward. `make lock` then records those versions.
test-latest:
	@IPT_LATEST=1 VENV=.venv-latest $(SETUP) test

lock:
	@IPT_LATEST=1 VENV=.venv-latest $(SETUP) lock

# The offline kit: wheelhouse/wheels/ for Linux x86_64, macOS arm64 + x86_64 and Windows x86_64,
# Python 3.10-3.13, and dist/inplace-tutorial-kit.zip (the course without instructor/, with the
# wheels). WHEELHOUSE_ARGS=--host: only this machine's platform and Python.
wheelhouse:
	@$(SETUP) wheelhouse $(WHEELHOUSE_ARGS)

# The notebooks as other CPUs would run them: NumPy's BLAS (OpenBLAS) forced to older and newer
# kernels, on one and two threads, then NumPy's own SIMD loops cut back to the baseline every
# x86-64 CPU has. Every compared output must be the same under all of them.
BLAS_CORETYPES ?= Haswell SkylakeX Sandybridge Prescott
BLAS_THREADS ?= 1 2
NPY_SIMD_OFF = $(shell $(PY) -c "from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f; print(' '.join(x for x in d if f.get(x)))")
test-machines: setup
	@status=0; \
	for ct in $(BLAS_CORETYPES); do for th in $(BLAS_THREADS); do \
		echo "== notebooks with OPENBLAS_CORETYPE=$$ct OPENBLAS_NUM_THREADS=$$th"; \
		OPENBLAS_CORETYPE=$$ct OPENBLAS_NUM_THREADS=$$th $(SETUP) test-notebooks || status=1; \
	done; done; \
	echo "== notebooks with NPY_DISABLE_CPU_FEATURES='$(NPY_SIMD_OFF)'"; \
	NPY_DISABLE_CPU_FEATURES="$(NPY_SIMD_OFF)" $(SETUP) test-notebooks || status=1; \
	if [ $$status -eq 0 ]; then echo "make test-machines: all passed"; else echo "make test-machines: FAILED"; fi; \
	exit $$status

bench: setup
	$(PY) benchmarks/run_all.py

lint: setup
	$(VENV)/bin/ruff check .

clean:
	rm -rf artifacts .pytest_cache .hypothesis .ruff_cache build dist *.egg-info
	find . -path ./$(VENV) -prune -o \( -name __pycache__ -o -name .ipynb_checkpoints \) -type d -print0 \
		| xargs -0 rm -rf
	rm -f $(VENV)/.installed-*

# Also removes the virtual environments (torch makes them large to rebuild).
distclean: clean
	rm -rf $(VENV) .venv-latest
