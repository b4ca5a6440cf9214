"""The live class on Panel's server: ``spieltisch class serve`` (docs/live-class.md).

``store`` (SQLite), ``tables`` (one game drawn per seat), ``registry`` (the rooms: the authority,
one class in parts: ``gate``, ``model``, ``rooms``, ``rounds``, ``seating``, ``views``)
are standard library and the engine only; ``app`` hosts them on Panel's server.
"""
