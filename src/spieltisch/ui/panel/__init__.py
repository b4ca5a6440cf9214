"""The Panel host, served from Python: ``spieltisch serve GAME`` (needs the ``panel`` extra)."""

from pathlib import Path

APP = Path(__file__).with_name("app.py")
