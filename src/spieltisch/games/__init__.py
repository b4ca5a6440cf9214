"""The games. Each folder here is one game family whose ``__init__`` assembles its games (engine,
bots, advisor, analysis, view) and registers them with ``core.registry.register``.

Every folder is found and imported here, so adding a game is adding its folder
(``docs/adding-a-game.md``); nothing in the core changes.
"""

import importlib
import pkgutil

FAMILIES = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))

for _name in FAMILIES:
    importlib.import_module(f"{__name__}.{_name}")
