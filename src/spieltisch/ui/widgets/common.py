"""Pieces every game widget shares: checked settings, language, log and score table, bot pacing."""

from __future__ import annotations

import asyncio
import math
from html import escape

import ipywidgets as W

from ...core.errors import OptionError, short
from ...core.registry import bot_names, get_game_class
from ...core.rng import MAX_SEED

# Never set a layout trait back to None to undo "none"/"hidden": the Pyodide kernel sends Python None
# to the page as undefined (not null), and the layout view then leaves the old CSS value in place.
# An empty string removes the CSS property in both kernels.
SHOWN = ""

BOT_DELAY = 0.6  # seconds between visible bot steps in the browser


LANGS = ("de", "en")
MAX_BOT_DELAY = 60.0  # seconds; longer looks like a hang


# A widget checks every setting before it builds anything: a player count of 10**9 must be refused
# at once, not after a billion seats have been set up. The counts and options are the game class's
# own checks (the same ones the CLI and a Match use), so a widget can never accept more than the game.
def check_game(game_id: str, players, options):
    """The configured ``Game`` for ``players`` and ``options`` (OptionError naming what is wrong)."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise OptionError(f"players must be a whole number, got {short(players)}")
    if options is not None and not isinstance(options, dict):
        raise OptionError(f"options must be a mapping of name to value, got {type(options).__name__}")
    return get_game_class(game_id)(players, options)


def next_seed(seed: int) -> int:
    """The seed of the next "new game": one more, wrapping after 2**64-1 so it stays a seed."""
    return (seed + 1) % (MAX_SEED + 1)


def check_bot(game_id: str, name) -> str:
    known = bot_names(game_id)
    if not isinstance(name, str) or name not in known:
        raise OptionError(f"{game_id} has no bot {short(name)}; bots: {', '.join(known)}")
    return name


def check_lang(lang) -> str:
    if not isinstance(lang, str) or lang not in LANGS:
        raise OptionError(f"lang must be 'de' or 'en', got {short(lang)}")
    return lang


def check_delay(delay) -> float:
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not math.isfinite(delay) \
            or not 0 <= delay <= MAX_BOT_DELAY:
        raise OptionError(f"bot_delay must be a number of seconds from 0 to {MAX_BOT_DELAY:g}, got {short(delay)}")
    return float(delay)


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
