// A lesson page's web worker: the site's Pyodide with the kernel's own wheels (the project, ipywidgets,
// comm, anywidget and what they need, from the site's Pyodide lock: the same pinned files the
// JupyterLite kernel preloads), then the lesson's code cells in order, as Jupyter runs them: top-level
// await, the value of a cell's last expression displayed, print() shown, `display` provided.
//
// Widgets without a kernel: before ipywidgets is imported, `comm.create_comm` makes a comm whose
// messages (comm_open, comm_msg, comm_close) come to the page, and the page's messages go to the comm's
// handle_msg. So a widget's state, and every change Python makes to it (a gate opened by a prediction on
// another widget), reaches the page, and the page's clicks reach Python.
//
// No memory snapshot (the Play pages keep one): with IPython imported, Python's memory (~54 MB) is larger
// than the memory Pyodide 314.0.6 starts with, and restoring such a snapshot fails ("offset is out of
// bounds"); a snapshot taken before IPython is imported would save little. The browser's cache (and the
// service worker's copy) still spare a later lesson the downloads.
//
// Messages in: {type: "start", cells} (the URL of the code list), {type: "comm", comm_id, data}.
// Out: {type: "progress", step, done, total}, {type: "output", cell, kind: "display"|"stream", data|text},
// {type: "failed", cell, text} (a cell raised: the last line of its traceback), {type: "comm_open" |
// "comm_msg" | "comm_close", comm_id, data, metadata}, {type: "done", failed}, {type: "error", text}.
import { loadPyodide } from "../lite/static/pyodide/pyodide.mjs";

const PYODIDE = new URL("../lite/static/pyodide/", import.meta.url).href;
// the packages the JupyterLite kernel preloads (site/jupyter-lite.json); the build writes them in
const PACKAGES = {{PACKAGES}};

let pyodide = null;
let deliver = null;
const early = []; // page messages that came before Python was ready

const HOST = `
import builtins, io, json, sys, traceback
import comm
from comm.base_comm import BaseComm
from pyodide.code import eval_code_async
from _lesson_page import post

_cell = None  # the code cell running now: where display() and print() put their output

def _send(message):
    post(json.dumps(message, ensure_ascii=False, default=str))

class PageComm(BaseComm):
    """A comm whose other end is the lesson page (no kernel, no Jupyter protocol beyond the comm's)."""
    def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
        _send({"type": msg_type, "comm_id": self.comm_id, "target_name": self.target_name,
               "data": data or {}, "metadata": metadata or {}})

comm.create_comm = PageComm

def _deliver(text):
    msg = json.loads(text)
    c = comm.get_comm_manager().get_comm(msg["comm_id"])
    if c is not None:
        c.handle_msg({"content": {"comm_id": msg["comm_id"], "data": msg["data"]}, "buffers": [], "metadata": {}})

def _bundle(obj):
    data = None
    if hasattr(obj, "_repr_mimebundle_"):
        data = obj._repr_mimebundle_()
        if isinstance(data, tuple):
            data = data[0]
    data = dict(data or {})
    for mime, method in (("text/html", "_repr_html_"), ("image/svg+xml", "_repr_svg_")):
        if mime not in data and hasattr(obj, method):
            value = getattr(obj, method)()
            if value:
                data[mime] = value
    data.setdefault("text/plain", repr(obj))
    return data

def display(*objs, **kwargs):
    for obj in objs:
        _send({"type": "output", "cell": _cell, "kind": "display", "data": _bundle(obj)})

builtins.display = display

class _Stdout(io.TextIOBase):
    def writable(self):
        return True
    def write(self, text):
        if text:
            _send({"type": "output", "cell": _cell, "kind": "stream", "text": text})
        return len(text)

sys.stdout = _Stdout()
_ns = {"__name__": "__main__", "display": display}

async def _run_cell(index, source):
    global _cell
    _cell = index
    try:
        result = await eval_code_async(source, _ns, filename=f"<cell {index}>")
        if result is not None:
            display(result)
        return ""
    except BaseException as e:
        text = "".join(traceback.format_exception(e))
        print(text, file=sys.stderr)
        return traceback.format_exception_only(e)[-1].strip()
    finally:
        _cell = None
`;

const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

async function start({ cells }) {
  postMessage({ type: "progress", step: "python" });
  const code = fetch(cells).then((r) => {
    if (!r.ok) throw new Error(`${cells}: HTTP ${r.status}`);
    return r.json();
  });
  pyodide = await loadPyodide({ indexURL: PYODIDE });
  postMessage({ type: "progress", step: "packages" });
  await pyodide.loadPackage(PACKAGES, { messageCallback: () => {} });
  pyodide.registerJsModule("_lesson_page", { post: (text) => postMessage(JSON.parse(text)) });
  pyodide.runPython(HOST);
  deliver = pyodide.globals.get("_deliver");
  for (const data of early.splice(0)) deliver(JSON.stringify(data));
  const runCell = pyodide.globals.get("_run_cell");
  const sources = await code;
  let failed = 0;
  for (let i = 0; i < sources.length; i++) {
    postMessage({ type: "progress", step: "lesson", done: i, total: sources.length });
    const error = await runCell(i, sources[i]);
    if (error) {
      failed += 1;
      postMessage({ type: "failed", cell: i, text: error });
    }
    await pause(); // the page's clicks (a prediction locked in) are handled between cells
  }
  postMessage({ type: "done", failed });
}

onmessage = async ({ data }) => {
  try {
    if (data.type === "start") await start(data);
    else if (data.type === "comm") {
      if (deliver === null) early.push(data);
      else deliver(JSON.stringify(data));
    }
  } catch (err) {
    postMessage({ type: "error", text: String(err && err.message ? err.message : err).slice(-600) });
  }
};
