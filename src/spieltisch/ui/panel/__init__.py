"""Panel apps, served from Python: ``spieltisch serve wuerfel-joker`` (needs the ``panel`` extra)."""

from pathlib import Path

APPS = {"wuerfel-joker": Path(__file__).with_name("wuerfel_joker.py")}
