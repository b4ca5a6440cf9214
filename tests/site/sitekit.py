"""Helpers for the static-site browser tests: a local static server and a request log that
proves no request left 127.0.0.1. (Not named `site`: that would shadow the stdlib module.)"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path


# Flags that work on this project's machines (see shared notes). The resolver rule makes every
# host but 127.0.0.1 unresolvable, so a CDN request fails fast instead of hanging; the request
# log below is what proves it was attempted at all.
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    # Module workers refuse .mjs served as text/plain, and WebAssembly streaming wants the wasm type.
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".svg": "image/svg+xml",
    }

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


class StaticServer:
    """http.server on a free 127.0.0.1 port in a daemon thread."""

    def __init__(self, directory: Path):
        handler = functools.partial(QuietHandler, directory=str(directory))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


LOCAL = re.compile(r"^(https?|wss?)://127\.0\.0\.1(:\d+)?/")


class RequestLog:
    """Every request of a browser context, including those of the kernel's web workers."""

    def __init__(self, context):
        self.urls: list[str] = []
        context.on("request", lambda request: self.urls.append(request.url))
        # WebSocket connections are not requests; JupyterLite's are served by its service worker.
        context.on("websocket", lambda ws: self.urls.append(ws.url))

    def outside(self) -> list[str]:
        return [u for u in self.urls if not u.startswith(("data:", "blob:")) and not LOCAL.match(u)]

    def assert_only_local(self) -> None:
        outside = self.outside()
        assert not outside, f"{len(outside)} request(s) left 127.0.0.1: {outside[:10]}"




def downloaded(responses) -> int:
    """Bytes (bodies and headers) that came over the network for these Playwright responses; what a
    page's service worker answered from its copy is not a download."""
    total = 0
    for r in responses:
        if not r.from_service_worker:
            sizes = r.request.sizes()
            total += sizes.get("responseBodySize", 0) + sizes.get("responseHeadersSize", 0)
    return total
