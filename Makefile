# Two commands set everything up on a fresh Debian machine (as root, with python3):
#   make book   - virtual environment + locked requirements, then build the site
#   make test   - the same set-up, then every test (unit tests and the book build; ~15 min on 2 cores)
# Also: make preview (the book on 127.0.0.1:8001, rebuilt and reloaded on save), make unit (fast tests, no build, ~25 s), make bench (the author's loop, then Lighthouse on both scripts' pages: that part alone ~30 min),
# make arifmetika (the build and claim tests under other CPU kernels, ~4 min a setting),
# make lock (re-lock requirements), make clean (all of _build/, the kept trainings too).
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := book

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
LIGHTHOUSE := tools/lighthouse/node_modules/.bin/lighthouse
# when this make started: make test's table of where the time went counts the set-up from here
export KITOB_TEST_BOSHI := $(shell date +%s.%N)

.PHONY: book test unit bench arifmetika lock clean setup setup-book system system-book preview

# Debian packages (tools/tizim.sh says which, and why each): system-book what the build needs
# (make book, make preview), system that and what the tests and make bench need (npm, Java,
# poppler-utils, Chromium).  Installed when missing if we are root; otherwise make stops and
# prints the command to run.
system-book:
	@sh tools/tizim.sh kitob

system:
	@sh tools/tizim.sh hammasi

setup-book: system-book $(STAMP)
setup: system $(STAMP) $(LIGHTHOUSE)

# Lighthouse, pinned in tools/lighthouse/package.json and its lock file (npm ci installs
# exactly that): tests/test_mayoq.py and make bench measure the site with it.
$(LIGHTHOUSE): tools/lighthouse/package.json tools/lighthouse/package-lock.json
	cd tools/lighthouse && npm ci --no-audit --no-fund --loglevel=error
	touch $(LIGHTHOUSE)

# The virtual environment, rebuilt whenever the lock file changes.  The project
# root goes on the venv's path (a .pth file) so the chapter can `import chapter_code`.
$(STAMP): requirements.lock
	@command -v $(PYTHON) >/dev/null || { echo "make: $(PYTHON) not found; install it: apt-get install -y python3 python3-venv"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@# torch's CPU build ("+cpu") is not on PyPI but on PyTorch's own index: asked for alone first
	@# where pip is set up to look (a mirror may hold it), then from that index; the lock's
	@# other packages (torch's dependencies among them) come from pip's usual index
	torch="$$(grep '^torch==' requirements.lock)"; \
	$(PY) -m pip install --quiet --no-compile --no-deps "$$torch" 2>/dev/null || \
	  $(PY) -m pip install --quiet --no-compile --no-deps --index-url https://download.pytorch.org/whl/cpu "$$torch"
	$(PY) -m pip install --quiet --no-compile -r requirements.lock
	@# bytecode on every core: pip compiles on one (69 s to install and compile, against 29 + 20 s
	@# this way, stop 65); the one file Python 3.11 cannot parse is left out by name, so any other
	@# that fails stops the set-up
	$(PY) -m compileall -q -j 0 -x '/torch/testing/_internal/py312_intrinsics\.py$$' \
		"$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" > /dev/null
	$(PY) -c 'import sysconfig, pathlib; pathlib.Path(sysconfig.get_paths()["purelib"], "kitob_ildiz.pth").write_text("$(CURDIR)\n")'
	touch $(STAMP)

# The site and the PDF (tools/qurish.py): HTML, then PDF from the same
# cached execution, then published to _build/sayt atomically (only on success).
book: setup-book
	$(PY) tools/qurish.py

# The author's live preview: the book on http://127.0.0.1:$(PORT)/, rebuilt by one warm
# Sphinx application on every save, the open page reloaded (tools/korish.py).
PORT ?= 8001
preview: setup-book
	$(PY) tools/korish.py --port $(PORT)

# One worker a core: 25 s on 2 cores, 33 s in one process (stop 60)
unit: setup
	$(PY) -m pytest tests -m "not build and not ijro" -q -n $(shell nproc)

# The book builds in the background (tests/conftest.py) while the tests that do not need
# it run; the tests that read the build run last.  One worker process a core and one more:
# the tests after the build spend much of their time waiting on a browser, which the others
# fill, but every worker beside the build adds processes that take turns on its cores.  On 2
# cores, from a clean clone: 4 workers 936 s wall, the machine busy about 1 680 CPU-s while pytest
# ran (run x83); 3 workers 845 s and 1 504 CPU-s (run x85).
TEST_ISHCHILAR ?= $(shell echo $$(( $$(nproc) + 1 )))
test: setup
	$(PY) -m pytest tests -q --durations=25 -n $(TEST_ISHCHILAR) --dist loadscope

# The author's loop measured side by side in one run (cold execution, whole and by lesson,
# against 7277799 or BENCH_BAZA=<commit>; cold build; rebuild after each kind of edit);
# BENCH_SEED=<file> adds the seed draft; tools/benchmark.py alone with BENCH_QISM=a stops after
# the cold execution.
# JSON in _build/bench.json.  Then Lighthouse's mobile run, three times per page, on the
# site as a host serves it (gzip): medians and every report in _build/mayoq/; with
# MAYOQ_BAZA=<a built site> each run is followed by one of that site's same page, and a page
# whose median falls below it fails; by default the site of 232727c that tools/benchmark.py
# built into _build/bench-baza-sayt in the same run (its step (f)).
bench: setup
	$(PY) tools/benchmark.py
	$(PY) tools/qurish.py
	MAYOQ_BAZA=$${MAYOQ_BAZA:-$$(test -f _build/bench-baza-sayt/index.html && echo _build/bench-baza-sayt)} \
	  $(PY) tools/mayoq.py 3

# The chapter under other CPU arithmetic (ATEN_CPU_CAPABILITY, MKL_ENABLE_INSTRUCTIONS, ...):
# per setting, a copy of the project with an empty store, its build and the claim tests;
# each setting's outcome sentences are printed and written to _build/arifmetika.json.
arifmetika: setup
	$(PY) tools/arifmetika.py

# Re-resolve requirements.txt into requirements.lock in a scratch environment.
lock:
	rm -rf _build/lock-venv
	$(PYTHON) -m venv _build/lock-venv
	_build/lock-venv/bin/pip install --quiet --upgrade pip
	_build/lock-venv/bin/pip install --quiet -r requirements.txt
	{ echo "# Every package, transitive ones included, at the version the book was built and tested with."; \
	  echo "# Generated from requirements.txt by 'make lock'; do not edit by hand."; \
	  _build/lock-venv/bin/pip freeze --all | grep -v -E '^pip=='; } > requirements.lock

clean:
	rm -rf _build
