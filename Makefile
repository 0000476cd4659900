# Basis Lab Practice. `make run` serves the app; `make test` runs lint and the whole test suite.
# Python 3.11 to 3.13 (the suite is run on 3.11 here): without PYTHON, the newest of
# python3.13, python3.12, python3.11 that runs (a pyenv shim for a version not installed does
# not), else python3; `make install` refuses any other version with the command to name one.
PYTHON ?= $(or $(firstword $(foreach v,13 12 11,$(shell python3.$(v) -c 'print("python3.$(v)")' 2>/dev/null))),python3)
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < requirements.txt | cut -d' ' -f1)
COURSE ?= courses/content/how-text-becomes-numbers

.PHONY: install prereqs run test fast lint bench load simulate

install: $(STAMP)

$(STAMP): requirements.txt
	@$(PYTHON) -c 'import sys; v = sys.version_info[:2]; (3, 11) <= v <= (3, 13) or sys.exit(f"Python 3.11 to 3.13 is required, found {sys.version.split()[0]} ($(PYTHON)); name another with make PYTHON=python3.12")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $@

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_course $(COURSE)
	$(VENV)/bin/honcho --procfile Procfile.dev start

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# The programs the suite drives (chromium, nginx, openssl, postgresql-client; redis-server when
# CELERY_BROKER_URL names no Redis; postgresql when no PostgreSQL is configured or answers):
# installed with apt-get as root, else the command to run is printed.
prereqs: install
	$(PY) -m tests.prereqs

# pytest exits 5 when it collects no test; that is a failure of the suite here, said plainly.
# Without a configured Redis the worker tests start a throwaway redis-server under var/ and stop
# it when the run ends, passed or failed (tests/redis_server.py).
# The suite runs in PYTEST_WORKERS processes (pytest-xdist; `auto` is one per core, 0 runs it in
# this process), a test file kept whole on one process (its module fixtures start once).
PYTEST_WORKERS ?= auto
XDIST := -n $(PYTEST_WORKERS) --dist loadfile
test: prereqs lint
	$(PY) -m pytest $(XDIST) $(PYTEST_ARGS); status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests"; fi; exit $$status

# The inner loop: every test that starts no browser, nginx, gunicorn or Celery worker, in
# parallel; no lint, no program checks. `make test` still runs everything.
FAST_MARKERS := not browser and not deploy and not worker
fast: install
	$(PY) -m pytest $(XDIST) -m "$(FAST_MARKERS)" $(PYTEST_ARGS); status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests"; fi; exit $$status

bench: install
	$(PY) -m tests.benchmarks

load: install
	$(PY) -m tests.load

# The learner simulator (docs/simulation.md): SIMULATE_ARGS="--learners 30 --days 90 --seed 2".
simulate: install
	$(PY) -m tests.benchmarks.simulate $(SIMULATE_ARGS)
