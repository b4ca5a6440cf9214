"""ipywidgets front-ends (need the ``widgets`` extra). They run in JupyterLite's Pyodide kernel."""


def __getattr__(name):
    if name == "WuerfelJokerApp":
        from .wuerfel_joker import WuerfelJokerApp
        return WuerfelJokerApp
    if name == "TueftelnApp":
        from .tuefteln import TueftelnApp
        return TueftelnApp
    raise AttributeError(name)


__all__ = ["WuerfelJokerApp", "TueftelnApp"]
