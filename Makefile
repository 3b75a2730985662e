# inplace-tutorial — two commands matter:
#   make lab    set up .venv and open the course in JupyterLab
#   make test   set up .venv and run every test (unit, parity, browser, then the notebooks under nbval)
#
# Optional extras, read from the environment:
#   PARITY=1   also install torch==2.13.0 (CPU wheel) for the parity tests
#   BROWSER=1  also install playwright for the JupyterLab browser test (needs Debian's chromium)

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python

EXTRAS := test
ifeq ($(PARITY),1)
EXTRAS := $(EXTRAS),parity
endif
ifeq ($(BROWSER),1)
EXTRAS := $(EXTRAS),browser
endif
# One stamp per set of extras: switching PARITY/BROWSER on triggers an install; editing
# pyproject.toml re-runs it.
comma := ,
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))

# Extra pytest flags (e.g. PYTEST_ARGS="-x -k views"); xdist flags can be overridden with XDIST="".
PYTEST_ARGS ?=
XDIST ?= -n auto
NBVAL_XDIST ?= -n auto --dist loadscope
NBVAL_FLAGS := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:randomly

.PHONY: setup lab test test-unit test-notebooks test-machines bench lint clean distclean

setup: $(STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -e ".[$(EXTRAS)]"
	@# Kernel spec inside the venv only (--sys-prefix): nothing is registered globally.
	$(PY) -m ipykernel install --sys-prefix >/dev/null
	touch $@

lab: $(STAMP)
	@if [ "$$(id -u)" = "0" ]; then root_flag=--allow-root; else root_flag=; fi; \
	exec $(BIN)/jupyter lab $$root_flag notebooks/

# Both suites always run; the target fails if either fails. pytest's exit code 5
# ("no tests collected") is a failure too, reported by name.
test: $(STAMP)
	@status=0; \
	echo "== unit, parity and browser tests: pytest tests"; \
	$(PY) -m pytest -q $(XDIST) $(PYTEST_ARGS) tests; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "ERROR: pytest collected no tests in tests/ (exit 5)"; status=1; \
	elif [ $$rc -ne 0 ]; then echo "ERROR: pytest tests/ failed (exit $$rc)"; status=1; fi; \
	echo "== notebooks: pytest --nbval (strict) notebooks/"; \
	$(PY) -m pytest -q $(NBVAL_XDIST) $(NBVAL_FLAGS) $(PYTEST_ARGS) notebooks/; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "ERROR: nbval collected no notebook cells in notebooks/ (exit 5)"; status=1; \
	elif [ $$rc -ne 0 ]; then echo "ERROR: nbval notebooks/ failed (exit $$rc)"; status=1; fi; \
	if [ $$status -eq 0 ]; then echo "make test: all suites passed"; else echo "make test: FAILED"; fi; \
	exit $$status

# Single suites, for quick iteration.
test-unit: $(STAMP)
	$(PY) -m pytest -q $(XDIST) $(PYTEST_ARGS) tests

test-notebooks: $(STAMP)
	$(PY) -m pytest -q $(NBVAL_XDIST) $(NBVAL_FLAGS) $(PYTEST_ARGS) notebooks/

# The notebooks as other CPUs would run them: NumPy's BLAS (OpenBLAS) forced to older and newer
# kernels, on one and two threads, then NumPy's own SIMD loops cut back to the baseline every
# x86-64 CPU has. Every compared output must be the same under all of them.
BLAS_CORETYPES ?= Haswell SkylakeX Sandybridge Prescott
BLAS_THREADS ?= 1 2
NPY_SIMD_OFF = $(shell $(PY) -c "from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f; print(' '.join(x for x in d if f.get(x)))")
test-machines: $(STAMP)
	@status=0; \
	for ct in $(BLAS_CORETYPES); do for th in $(BLAS_THREADS); do \
		echo "== notebooks with OPENBLAS_CORETYPE=$$ct OPENBLAS_NUM_THREADS=$$th"; \
		OPENBLAS_CORETYPE=$$ct OPENBLAS_NUM_THREADS=$$th \
			$(PY) -m pytest -q $(NBVAL_XDIST) $(NBVAL_FLAGS) $(PYTEST_ARGS) notebooks/ || status=1; \
	done; done; \
	echo "== notebooks with NPY_DISABLE_CPU_FEATURES='$(NPY_SIMD_OFF)'"; \
	NPY_DISABLE_CPU_FEATURES="$(NPY_SIMD_OFF)" \
		$(PY) -m pytest -q $(NBVAL_XDIST) $(NBVAL_FLAGS) $(PYTEST_ARGS) notebooks/ || status=1; \
	if [ $$status -eq 0 ]; then echo "make test-machines: all passed"; else echo "make test-machines: FAILED"; fi; \
	exit $$status

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf artifacts .pytest_cache .hypothesis .ruff_cache build dist *.egg-info
	find . -path ./$(VENV) -prune -o \( -name __pycache__ -o -name .ipynb_checkpoints \) -type d -print0 \
		| xargs -0 rm -rf
	rm -f $(VENV)/.installed-*

# Also removes the virtual environment (torch makes it large to rebuild).
distclean: clean
	rm -rf $(VENV)
