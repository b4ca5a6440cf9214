"""The games. Each folder here is one game family whose ``__init__`` assembles its games (engine,
bots, advisor, analysis, view) and registers them with ``core.registry.register``.

Every folder is found and imported here, so adding a game is adding its folder
(``docs/adding-a-game.md``); nothing in the core changes.

``SPIELTISCH_GAMES`` (comma-separated folder names, e.g. ``tuefteln``) imports only those families:
a Play page, which shows one game, then starts without importing the others' engines.
"""

import importlib
import os
import pkgutil

FAMILIES = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))


def _wanted() -> tuple:
    only = os.environ.get("SPIELTISCH_GAMES", "").strip()
    if not only:
        return FAMILIES
    names = tuple(n.strip().replace("-", "_") for n in only.split(",") if n.strip())
    unknown = [n for n in names if n not in FAMILIES]
    if unknown:
        raise ImportError(f"SPIELTISCH_GAMES names no game folder {unknown[0]!r}; folders: {', '.join(FAMILIES)}")
    return names


for _name in _wanted():
    importlib.import_module(f"{__name__}.{_name}")
