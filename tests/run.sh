#!/bin/sh
# Every test, in two streams at once (`make test` calls this): the browser tests of the site
# (tests/site: Chromium, Pyodide, JupyterLite) beside everything else. The machines this runs on
# have two cores, and each stream keeps about one busy, so the whole suite takes about as long as
# its longer half. The site stream's report is printed after the other's; the exit code is 0 only
# when both streams pass.
set -u
cd "$(dirname "$0")/.."
PY="${TPY:-.venv/bin/python}"
log="$(mktemp)"
"$PY" -m pytest -ra -p no:cacheprovider tests/site >"$log" 2>&1 &
site=$!
"$PY" -m pytest -ra tests --ignore=tests/site
rest=$?
wait "$site"
browser=$?
echo
echo "=== tests/site (run at the same time as the tests above) ==="
cat "$log"
rm -f "$log"
[ "$rest" -eq 0 ] && [ "$browser" -eq 0 ]
