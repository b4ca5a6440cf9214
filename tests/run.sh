#!/bin/sh
# Every test, in two streams at once (`make test` calls this). The machines this runs on have two
# cores, and each stream keeps about one busy, so the suite takes about as long as its longer
# stream. Stream 1: the browser tests of the Play pages, the lessons and the site (Chromium,
# Pyodide, JupyterLite); stream 2: everything else (engine, CLI, notebooks, Pyodide under Node,
# Panel, the live class, the class round's and the projector's browser tests). Both stream lists
# are measured to take about the same time: each prints its 15 slowest tests (`--durations`); a
# fresh clone's idle run took 32.7 min for stream 1 and 26.1 min for stream 2 before the
# projector's tests (2.4 min) moved to stream 2. The site is built once before both start (each
# stream's fixture then finds it fresh). Stream 1's report is printed after stream 2's; the exit
# code is 0 only when both pass.
set -u
cd "$(dirname "$0")/.."
PY="${TPY:-.venv/bin/python}"
SITEPY="${SITEPY:-.venv-site/bin/python}"
STREAM1="tests/site/test_accessibility.py tests/site/test_site.py tests/site/test_table_controls.py"
"$SITEPY" site/build.py --if-stale || exit 1
log="$(mktemp)"
# shellcheck disable=SC2086
"$PY" -m pytest -ra --durations=15 -p no:cacheprovider $STREAM1 >"$log" 2>&1 &
first=$!
ignore=""
for f in $STREAM1; do ignore="$ignore --ignore=$f"; done
# shellcheck disable=SC2086
"$PY" -m pytest -ra --durations=15 tests $ignore
second=$?
wait "$first"
one=$?
echo
echo "=== stream 1, run at the same time as the tests above: $STREAM1 ==="
cat "$log"
rm -f "$log"
[ "$one" -eq 0 ] && [ "$second" -eq 0 ]
