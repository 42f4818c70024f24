# kayles: build the compiled core in place, the Kayles-xox executable, tests, benchmarks.
# Everything runs in a project virtualenv (.venv) that the first target creates.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HERE := $(abspath .)
READY := $(VENV)/.ready
EXTRAS := $(VENV)/.extras
LAUNCHER := $(VENV)/.launcher
CORE := build/.core
BUILD_DEPS := "setuptools>=77" "Cython>=3.0"  # the [build-system] requires of pyproject.toml

.PHONY: all venv extras build test test-slow test-pure stress check-c sanitize tsan dist dist-check docs screenshots bench annotate lint clean

all: Kayles-xox $(LAUNCHER)

venv: $(READY)

# .venv/bin/kayles is a sh launcher too, written over the script pip made each time make
# installs the package (the same reason as Kayles-xox's, below): where standard input is a
# directory it runs kayles on /dev/null with KAYLES_STDIN_IS_A_DIRECTORY=1, and a command
# that reads standard input says so in one line.  -I: no current folder on sys.path.
CLI_MAIN = import sys; from kayles.interface.kayles_cli import main; sys.exit(main())
WRITE_CLI = printf '\#!/bin/sh\n\# Written by make over the script pip made (the Makefile says why sh).\nif [ -d /dev/stdin ]; then\n    KAYLES_STDIN_IS_A_DIRECTORY=1 exec %s -I -c %s "$$@" </dev/null\nfi\nexec %s -I -c %s "$$@"\n' \
	"'$(HERE)/$(PY)'" "'$(CLI_MAIN)'" "'$(HERE)/$(PY)'" "'$(CLI_MAIN)'" > $(VENV)/bin/kayles

$(READY): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check $(BUILD_DEPS)
	$(PY) -m pip install -q --disable-pip-version-check --no-build-isolation -e ".[test]"
	$(WRITE_CLI)
	touch $@

$(LAUNCHER): Makefile | $(READY)
	$(WRITE_CLI)
	touch $@

# The optional extras (progress, plot, dask, completion, web) and the docs tools: the tests use
# them for real (tests/test_docs.py runs make docs), so none is installed mid-run.
$(EXTRAS): $(READY)
	$(PY) -m pip install -q --disable-pip-version-check --no-build-isolation -e ".[test,all,docs]"
	$(WRITE_CLI)
	touch $@ $(DOCS)

extras: $(EXTRAS)

build: $(CORE)

KERNEL_SOURCES := $(wildcard ext/*.pyx ext/*.pxd ext/core/*.pxi ext/src/*.c ext/src/*.h)
MODULES := $(patsubst ext/%.pyx,%,$(wildcard ext/*.pyx))  # each ext/<name>.pyx: kayles.kernels.<name>

# A failed compile leaves the pure-Python core in charge: setup.py says so loudly, and the
# stamp is written only when every module was built, so the next make tries again.
$(CORE): $(KERNEL_SOURCES) setup.py $(READY)
	$(PY) setup.py -q build_ext --inplace
	@mkdir -p build
	@if for module in $(MODULES); do ls kayles/kernels/$$module.*so || exit 1; done >/dev/null 2>&1; \
	then touch $@; else echo "kayles: no compiled core: make will try again"; fi

# Kayles-xox is a sh launcher, not a '#!python' script: CPython stops with a 4-line "Fatal
# Python error" before any of our code runs when its standard input is a directory
# ('Kayles-xox - < DIR'), so there the launcher starts it on /dev/null and xox_cli says
# so in one line.  The shell (dash) costs about 0.6 ms of the ~14 ms start; xox_cli.run
# ends the process without the interpreter's tear-down, which cost 2 ms.
XOX_MAIN = import sys; sys.path.insert(0, sys.argv.pop(1)); from kayles.interface.xox_cli import run; run
Kayles-xox: $(CORE) kayles/interface/xox_cli.py
	printf '#!/bin/sh\n# Written by make (the Makefile says why sh): the contract of kayles/interface/xox_cli.py.\nif [ -d /dev/stdin ]; then\n    exec %s -IS -c %s %s "$$@" </dev/null\nfi\nexec %s -IS -c %s %s "$$@"\n' \
		"'$(HERE)/$(PY)'" "'$(XOX_MAIN)(stdin_is_a_directory=True)'" "'$(HERE)'" \
		"'$(HERE)/$(PY)'" "'$(XOX_MAIN)()'" "'$(HERE)'" > $@
	chmod +x $@

# -n auto: one pytest-xdist worker a core (--dist loadgroup: a module whose shared fixture
# is costly runs on one worker); --durations: the slowest tests, in every run.  `test`
# leaves out the tests marked slow (a census pass, re-derivations of the committed data,
# the hostile inputs' 250 processes, the census fault tests); `test-slow` runs those alone;
# CI (.ci/run) runs both.  The README says how long each takes.
PYTEST_XDIST := -n auto --dist loadgroup --durations=20
test: Kayles-xox $(EXTRAS) $(LAUNCHER)
	KAYLES_REQUIRE_NATIVE=1 $(PY) -m pytest -q $(PYTEST_XDIST) -m "not slow"

test-slow: Kayles-xox $(EXTRAS) $(LAUNCHER)
	KAYLES_REQUIRE_NATIVE=1 $(PY) -m pytest -q $(PYTEST_XDIST) -m slow

test-pure: Kayles-xox $(EXTRAS) $(LAUNCHER)
	KAYLES_PURE=1 $(PY) -m pytest -q -n auto

# The suite under load, to catch a check that leans on timing: RUNS runs (default 20) of
# STRESS_TESTS (default: the tests that start threads, processes and servers; STRESS_TESTS=tests
# for all), each beside one busy loop a core; the first failure stops it and shows its log.
RUNS ?= 20
STRESS_TESTS ?= tests/kernels/test_threads.py tests/test_api_threads.py tests/kernels/test_bounded.py tests/interface/test_serve.py tests/interface/test_admission.py tests/interface/test_web.py \
	tests/interface/test_reliability.py tests/analysis/test_long_run.py tests/interface/test_cli_xox.py tests/interface/test_long_run_command.py
stress: Kayles-xox $(EXTRAS) $(LAUNCHER)
	@hogs=""; for core in $$(seq $$(nproc)); do yes >/dev/null & hogs="$$hogs $$!"; done; \
	trap "kill $$hogs" EXIT; \
	for run in $$(seq $(RUNS)); do \
		KAYLES_REQUIRE_NATIVE=1 $(PY) -m pytest -q -p no:cacheprovider $(STRESS_TESTS) \
			> build/stress.log 2>&1 || { tail -40 build/stress.log; exit 1; }; \
		echo "run $$run of $(RUNS) under load: $$(tail -1 build/stress.log)"; \
	done

# The C kernels alone, against their plain loops, warnings as errors, under the sanitizers.
CC ?= cc
SANITIZERS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# Twice: as this CPU builds it, and with every x86 vector path and the threads left out (what
# other CPUs and compilers build: KAYLES_PORTABLE_ONLY, KAYLES_NO_THREADS).
check-c: build/test_kernels build/test_kernels_portable
	build/test_kernels
	build/test_kernels_portable

C_CHECK = $(CC) -O1 -g -std=c11 -pthread -Wall -Wextra -Werror $(SANITIZERS) -Iext/src \
	ext/tests/test_kernels.c $(wildcard ext/src/*.c)

build/test_kernels: ext/tests/test_kernels.c $(wildcard ext/src/*.c ext/src/*.h)
	@mkdir -p build
	$(C_CHECK) -o $@

build/test_kernels_portable: ext/tests/test_kernels.c $(wildcard ext/src/*.c ext/src/*.h)
	@mkdir -p build
	$(C_CHECK) -DKAYLES_PORTABLE_ONLY -DKAYLES_NO_THREADS -o $@

# $(call core_built_in,DIR,FLAGS): the package copied into DIR and its compiled core built
# there once more with FLAGS (the in-place build is untouched), for -o pythonpath=DIR.
define core_built_in
	rm -rf $(1) && mkdir -p $(1)
	cp -r kayles $(1)/kayles && rm -f $(1)/kayles/kernels/*.so
	CFLAGS="-O1 -g $(2)" LDFLAGS="$(2)" $(PY) setup.py -q \
		build_clib --build-clib $(1)/clib --build-temp $(1)/temp \
		build_ext --build-lib $(1) --build-temp $(1)/temp
endef

# The compiled core built once more under the sanitizers, in build/sanitize, and the
# kernel tests run on it: both twins, the C loops checked.
SANITIZED := build/sanitize
KERNEL_TESTS := tests/kernels/test_kernels.py tests/kernels/test_twins.py tests/kernels/test_masks.py tests/analysis/test_misere.py \
	tests/kernels/test_bounded.py tests/analysis/test_quotient.py tests/kernels/test_threads.py tests/kernels/test_kernel_args.py \
	tests/engine/test_codes.py tests/kernels/test_hackenbush_kernel.py tests/kernels/test_boards.py \
	tests/kernels/test_graphs.py tests/kernels/test_chomp.py tests/kernels/test_pruned_table.py
sanitize: $(READY)
	$(call core_built_in,$(SANITIZED),$(SANITIZERS))
	LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
		ASAN_OPTIONS=detect_leaks=0 PYTHONMALLOC=malloc KAYLES_REQUIRE_NATIVE=1 \
		$(PY) -m pytest -q -p no:cacheprovider --capture=sys -o pythonpath=$(SANITIZED) \
		$(KERNEL_TESTS)

# The crews once more under ThreadSanitizer, in build/tsan: the tests that run several
# threads on a core built with -fsanitize=thread (the crews, and the API from 8 threads).  The interpreter is not instrumented;
# its locks are seen through the pthread calls TSan intercepts.  The first report stops
# the run.  One race is meant (ext/tsan.supp says which and why).
TSANITIZED := build/tsan
CREW_TESTS := tests/kernels/test_threads.py tests/test_api_threads.py \
	tests/kernels/test_bounded.py::test_bounded_crews_stop_where_one_thread_stops \
	tests/kernels/test_bounded.py::test_twins_agree_on_bounded_runs
tsan: $(READY)
	$(call core_built_in,$(TSANITIZED),-fsanitize=thread)
	LD_PRELOAD="$$($(CC) -print-file-name=libtsan.so)" \
		TSAN_OPTIONS="halt_on_error=1 suppressions=$(HERE)/ext/tsan.supp" \
		PYTHONMALLOC=malloc KAYLES_REQUIRE_NATIVE=1 \
		$(PY) -m pytest -q -p no:cacheprovider --capture=sys -o pythonpath=$(TSANITIZED) \
		$(CREW_TESTS)

# What users install: the source distribution and a wheel built from it (python -m build),
# each installed into a fresh virtual environment outside the checkout and checked there
# with the compiled core required and the extra kayles[web], whose page it serves and
# fetches (tests/check_installed.py).  pip's wheel cache is not used: a wheel it built from
# an earlier archive at the same path would be checked instead of this one.
DIST := build/dist
dist: $(READY)
	@$(PY) -m build --version >/dev/null 2>&1 || $(PY) -m pip install -q --disable-pip-version-check build
	rm -rf $(DIST)
	$(PY) -m build --outdir $(DIST) .

dist-check: dist
	@set -e; for what in $(DIST)/*.whl $(DIST)/*.tar.gz; do \
		place=$$(mktemp -d); \
		echo "== $$what, installed in $$place"; \
		$(PYTHON) -m venv $$place/venv; \
		$$place/venv/bin/python -m pip install -q --disable-pip-version-check --no-cache-dir \
			"kayles[web] @ file://$(HERE)/$$what"; \
		(cd $$place && KAYLES_REQUIRE_NATIVE=1 $$place/venv/bin/python $(HERE)/tests/check_installed.py); \
		rm -rf $$place; \
	done

# The documentation site (MkDocs, Material, mkdocstrings): --strict fails on a broken link,
# anchor or reference (no --quiet: with it, warnings are not counted and strict cannot fail).
# MKDOCS_CONFIG: another configuration (tests/test_docs.py builds a broken site with it).
DOCS := $(VENV)/.docs
MKDOCS_CONFIG ?= mkdocs.yml
$(DOCS): $(READY)
	$(PY) -m pip install -q --disable-pip-version-check --no-build-isolation -e ".[docs]"
	touch $@

docs: $(DOCS)
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --config-file $(MKDOCS_CONFIG)

# The web page's screenshots in the docs, taken anew by the browser tests (Chromium).
screenshots: $(EXTRAS)
	rm -rf build/screenshots && mkdir -p build/screenshots
	KAYLES_REQUIRE_BROWSER=1 KAYLES_SCREENSHOTS=build/screenshots \
		$(PY) -m pytest -q -p no:cacheprovider tests/interface/test_web_browser.py
	mkdir -p docs/screenshots && cp build/screenshots/*.png docs/screenshots/

bench: Kayles-xox
	$(PY) benchmarks/kernels.py

annotate: $(READY)
	$(PY) -m cython -3 -a ext/_core.pyx -o build/_core.c

lint: $(READY)
	@$(PY) -m ruff --version >/dev/null 2>&1 || $(PY) -m pip install -q --disable-pip-version-check ruff
	$(PY) -m ruff check kayles tests benchmarks

clean:
	rm -rf build kayles/kernels/*.so $(patsubst %,ext/%.c,$(MODULES)) ext/*.html \
		Kayles-xox .pytest_cache \
		.hypothesis *.egg-info
