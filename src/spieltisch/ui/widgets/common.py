"""Pieces every game widget shares: language, log and score table, bot pacing."""

from __future__ import annotations

import asyncio
from html import escape

import ipywidgets as W

# Never set a layout trait back to None to undo "none"/"hidden": the Pyodide kernel sends Python None
# to the page as undefined (not null), and the layout view then leaves the old CSS value in place.
# An empty string removes the CSS property in both kernels.
SHOWN = ""

BOT_DELAY = 0.6  # seconds between visible bot steps in the browser


def t(lang: str, de: str, en: str) -> str:
    return de if lang == "de" else en


def language_toggle(value: str = "de") -> W.ToggleButtons:
    return W.ToggleButtons(options=[("Deutsch", "de"), ("English", "en")], value=value,
                           style={"button_width": "80px"}, layout=W.Layout(width="auto"))


def score_table_html(headers: list[str], rows: list[list], highlight_row: int | None = None) -> str:
    th = "".join(f"<th style='padding:2px 8px;border-bottom:1px solid #999'>{escape(str(h))}</th>" for h in headers)
    trs = []
    for i, row in enumerate(rows):
        style = "background:#fff3c4;font-weight:bold" if i == highlight_row else ""
        tds = "".join(f"<td style='padding:2px 8px;text-align:right'>{escape(str(c))}</td>" for c in row)
        trs.append(f"<tr style='{style}'>{tds}</tr>")
    return f"<table style='border-collapse:collapse;font-size:14px'><tr>{th}</tr>{''.join(trs)}</table>"


def log_html(lines: list[str], keep: int = 12) -> str:
    items = "".join(f"<div>{escape(s)}</div>" for s in lines[-keep:])
    return (f"<div style='font-family:monospace;font-size:12px;color:#444;white-space:normal;"
            f"overflow-wrap:anywhere'>{items}</div>")


def schedule(coro_fn) -> bool:
    """Run ``coro_fn()`` on the running event loop (browser kernel); False if there is none."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        try:
            loop = asyncio.get_event_loop()
        except RuntimeError:
            return False
        if not loop.is_running():
            return False
    loop.create_task(coro_fn())
    return True
