# The two commands of the README:
#   make serve      build the wheel and the offline site, serve _site/ on http://127.0.0.1:$(PORT)/
#   make test       every test: engine, CLI, notebooks (nbval), Pyodide under Node, browser, Panel
# Also:
#   make site       build _site/ only (venv, pinned tools, project wheel, JupyterLite, landing page)
#   make test-site  only the browser tests of the site (tests/site, marker `site`)
#   make bench      benchmarks/run.py: speed tables, CPython and Pyodide side by side
#   make check      the quick tier while working: rules, engine, table, class, lessons' numbers
#                   (about 4 minutes of one core; no browser, Pyodide, Panel or notebooks)

PYTHON ?= python3
VENV ?= .venv-site
PY := $(VENV)/bin/python
PORT ?= 8000

TEST_VENV ?= .venv
TPY := $(TEST_VENV)/bin/python

.PHONY: venv site serve test test-site test-venv browser measure bench clean-site check

# Re-created when the pins change; the stamp file records that the install finished.
$(VENV)/.installed: site/requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -r site/requirements.txt
	touch $@

venv: $(VENV)/.installed

site: venv
	$(PY) site/build.py

serve: site
	@echo "Serving the site at http://127.0.0.1:$(PORT)/  (Ctrl-C stops)"
	$(PY) -m http.server --bind 127.0.0.1 $(PORT) -d _site

browser:
	sh site/install-browser.sh

test-site: venv browser
	PYTHONPATH=src $(PY) -m pytest -m site tests/site -v --durations=0

measure: venv
	$(PY) site/measure.py

clean-site:
	rm -rf _site build/site dist/spieltisch-*.whl

# The test environment: the package (editable) with its dev extras. The site itself is still built
# by .venv-site with the pins of site/requirements.txt (the tests call `make venv` for that).
$(TEST_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(TEST_VENV)
	$(TPY) -m pip install -q --upgrade pip
	$(TPY) -m pip install -e ".[dev,widgets,panel,bench]"
	touch $@

test-venv: $(TEST_VENV)/.installed

# SPIELTISCH_NO_SKIP=1 turns every skipped test into a failure: here everything a test needs is
# installed, so a skip would only hide a missing install step.
test: test-venv venv browser
	SPIELTISCH_NO_SKIP=1 TPY=$(TPY) SITEPY=$(PY) sh tests/run.sh

QUICK := tests/games tests/test_core.py tests/test_advice.py tests/test_bad_input.py tests/test_chance.py \
	tests/test_classroom.py tests/test_table.py tests/test_template.py tests/test_lesson.py tests/test_review.py \
	tests/test_hidden_information.py tests/test_live.py tests/test_site_data.py tests/test_view_access.py \
	tests/test_questions.py tests/test_worksheets.py tests/test_lesson_page_build.py tests/test_word_lists.py \
	tests/test_lesson_texts_a.py tests/test_lesson_texts_b.py tests/test_lesson_texts_c.py

check: test-venv
	$(TPY) -m pytest -q -x $(QUICK)

bench: test-venv
	$(TPY) benchmarks/run.py
