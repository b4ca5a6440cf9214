# Offline static site (JupyterLite + self-hosted Pyodide). See site/README.md.
#   make site       build _site/ (venv, pinned tools, project wheel, JupyterLite, landing page)
#   make serve      build, then serve _site/ on http://127.0.0.1:$(PORT)/
#   make test-site  browser tests in Debian's Chromium (tests/site, marker `site`)

PYTHON ?= python3
VENV ?= .venv-site
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: venv site serve test-site browser measure clean-site

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
	PYTHONPATH=src $(PY) -m pytest -m site tests/site -v

measure: venv
	$(PY) site/measure.py

clean-site:
	rm -rf _site build/site dist/spieltisch-*.whl
