# Basis Lab Practice. `make run` serves the app; `make test` runs lint and the whole test suite.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < requirements.txt | cut -d' ' -f1)
COURSE ?= courses/content/how-text-becomes-numbers

.PHONY: install prereqs run test lint bench load simulate

install: $(STAMP)

$(STAMP): requirements.txt
	@$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "Python 3.11 is required, found " + sys.version'
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

# The programs the suite drives (chromium, nginx, openssl; redis-server when CELERY_BROKER_URL
# names no Redis): installed with apt-get as root, else the command to run is printed.
prereqs: install
	$(PY) -m tests.prereqs

# pytest exits 5 when it collects no test; that is a failure of the suite here, said plainly.
# Without a configured Redis the worker tests start a throwaway redis-server under var/ and stop
# it when the run ends, passed or failed (tests/redis_server.py).
test: prereqs lint
	$(PY) -m pytest $(PYTEST_ARGS); status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests"; fi; exit $$status

bench: install
	$(PY) -m tests.benchmarks

load: install
	$(PY) -m tests.load

# The learner simulator (docs/simulation.md): SIMULATE_ARGS="--learners 30 --days 90 --seed 2".
simulate: install
	$(PY) -m tests.benchmarks.simulate $(SIMULATE_ARGS)
