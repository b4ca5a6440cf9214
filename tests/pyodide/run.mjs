// Run a Python script inside real Pyodide under Node, with the spieltisch wheel installed.
//
//   node run.mjs --wheel /abs/spieltisch-X-py3-none-any.whl script.py [args...]
//
// The script runs as __main__ with sys.argv = [script.py, args...] and the script's directory on
// sys.path (its sibling *.py files are copied into Pyodide's file system), like `python script.py`.
// Python's stdout goes to our stdout unchanged, so a script can print JSON for the caller; Pyodide's
// own loading messages go to stderr. The exit code is the script's (SystemExit), 1 on an uncaught
// exception (its traceback on stderr).
//
// Used by tests/test_pyodide.py and benchmarks/run.py, so both measure one and the same setup.

import { loadPyodide } from "pyodide";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

function usage(msg) {
  process.stderr.write(`run.mjs: ${msg}\nusage: node run.mjs --wheel WHEEL script.py [args...]\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
let wheel = null;
while (argv.length && argv[0].startsWith("--")) {
  const flag = argv.shift();
  if (flag === "--wheel") wheel = argv.shift();
  else if (flag === "--") break;
  else usage(`unknown flag ${flag}`);
}
if (!argv.length) usage("no script given");
const script = path.resolve(argv[0]);
const scriptArgs = argv.slice(1);

const toStderr = (msg) => process.stderr.write(msg + "\n");
const t0 = performance.now();
const pyodide = await loadPyodide({ stdout: toStderr, stderr: toStderr });
const tLoaded = performance.now();

// Raw byte-level writers: Python's output reaches the caller exactly as printed.
const decoder = () => new TextDecoder();
const outDec = decoder();
const errDec = decoder();
pyodide.setStdout({ write: (buf) => { process.stdout.write(outDec.decode(buf, { stream: true })); return buf.length; } });
pyodide.setStderr({ write: (buf) => { process.stderr.write(errDec.decode(buf, { stream: true })); return buf.length; } });

if (wheel) {
  // A local pure-Python wheel; Node does not check the lock's hashes.
  await pyodide.loadPackage(path.resolve(wheel), { messageCallback: toStderr, errorCallback: toStderr });
}
const tWheel = performance.now();

// Mirror the script's directory (Python files only) so sibling imports work as in CPython.
const scriptDir = path.dirname(script);
const guestDir = "/home/pyodide/_script";
pyodide.FS.mkdirTree(guestDir);
for (const name of readdirSync(scriptDir)) {
  if (name.endsWith(".py")) {
    pyodide.FS.writeFile(`${guestDir}/${name}`, new Uint8Array(readFileSync(path.join(scriptDir, name))));
  }
}
const guestScript = `${guestDir}/${path.basename(script)}`;

const boot = pyodide.globals.get("dict")();
boot.set("_script", guestScript);
boot.set("_args", pyodide.toPy(scriptArgs));
boot.set("_guest_dir", guestDir);
boot.set("_timing", pyodide.toPy({ load_pyodide_s: (tLoaded - t0) / 1000, load_wheel_s: (tWheel - tLoaded) / 1000 }));
let rc = 0;
try {
  rc = pyodide.runPython(
    `
import json, os, runpy, sys
os.environ["SPIELTISCH_PYODIDE_TIMING"] = json.dumps(dict(_timing))
sys.argv = [_script, *_args]
sys.path.insert(0, _guest_dir)
try:
    runpy.run_path(_script, run_name="__main__")
    _rc = 0
except SystemExit as e:
    if e.code is None:
        _rc = 0
    elif isinstance(e.code, int):
        _rc = e.code
    else:
        print(e.code, file=sys.stderr)
        _rc = 1
finally:
    sys.stdout.flush()
    sys.stderr.flush()
_rc
`,
    { globals: boot },
  );
} catch (err) {
  process.stderr.write(String(err && err.message ? err.message : err) + "\n");
  rc = 1;
}
process.exitCode = rc;
