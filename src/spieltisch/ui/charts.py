"""Charts as Vega-Lite specs built from plain Python data (standard library only).

JupyterLab and JupyterLite render the ``application/vnd.vegalite.v5+json`` output type without any
Python package or internet access, and Panel shows the same dict with ``pn.pane.Vega``; so one spec
works in the offline site, in the notebooks and in Panel apps. ``show`` adds a ``text/plain`` table,
which is what nbval compares and what a terminal shows.
"""

from __future__ import annotations

SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
MIME = "application/vnd.vegalite.v5+json"


def bar(rows: list[dict], x: str, y: str, color: str | None = None, title: str = "",
        x_title: str | None = None, y_title: str | None = None, width: int = 420, height: int = 240,
        error: tuple[str, str] | None = None, sort=None) -> dict:
    """Bars of ``y`` by ``x`` (grouped by ``color``), optionally with error bars ``(lo_field, hi_field)``."""
    # Orders are given as explicit lists (data order unless ``sort`` says otherwise): a null sort is
    # lost when two layers share the axis, and Vega-Lite then sorts the categories alphabetically.
    enc = {
        "x": {"field": x, "type": "nominal", "title": x_title or x,
              "sort": _in_order(rows, x) if sort is None else sort},
        "y": {"field": y, "type": "quantitative", "title": y_title or y},
    }
    if color:
        enc["color"] = {"field": color, "type": "nominal", "title": color,
                        "scale": {"domain": _in_order(rows, color)}}
        enc["xOffset"] = {"field": color}
    layers = [{"mark": {"type": "bar", "tooltip": True}, "encoding": enc}]
    if error:
        err_enc = {"x": enc["x"], "y": {"field": error[0], "type": "quantitative"},
                   "y2": {"field": error[1]}}
        if color:
            err_enc["xOffset"] = {"field": color}
        layers.append({"mark": {"type": "rule", "color": "black"}, "encoding": err_enc})
    return {"$schema": SCHEMA, "title": title, "width": width, "height": height,
            "data": {"values": rows}, "layer": layers}


def _in_order(rows: list[dict], field: str) -> list:
    seen = []
    for r in rows:
        if r.get(field) not in seen:
            seen.append(r.get(field))
    return seen


def histogram(rows: list[dict], field: str, color: str | None = None, title: str = "", step: float = 1,
              x_title: str | None = None, width: int = 420, height: int = 240, normalize: bool = True) -> dict:
    """Distribution of ``field``; ``normalize`` shows shares per group instead of counts."""
    spec = {
        "$schema": SCHEMA, "title": title, "width": width, "height": height,
        "data": {"values": rows},
        "mark": {"type": "bar", "opacity": 0.6, "tooltip": True},
        "encoding": {
            "x": {"field": field, "type": "quantitative", "bin": {"step": step}, "title": x_title or field},
            "y": {"aggregate": "count", "type": "quantitative", "title": "count", "stack": None},
        },
    }
    if color:
        spec["encoding"]["color"] = {"field": color, "type": "nominal"}
    if normalize:
        group = [color] if color else []
        spec["transform"] = [
            {"bin": {"step": step}, "field": field, "as": ["bin_start", "bin_end"]},
            {"aggregate": [{"op": "count", "as": "n"}], "groupby": ["bin_start", "bin_end", *group]},
            {"joinaggregate": [{"op": "sum", "field": "n", "as": "total"}], "groupby": group},
            {"calculate": "datum.n / datum.total", "as": "share"},
        ]
        spec["encoding"]["x"] = {"field": "bin_start", "type": "quantitative", "bin": {"binned": True, "step": step},
                                 "title": x_title or field}
        spec["encoding"]["x2"] = {"field": "bin_end"}
        spec["encoding"]["y"] = {"field": "share", "type": "quantitative", "title": "share", "stack": None}
    return spec


def line(rows: list[dict], x: str, y: str, color: str | None = None, title: str = "",
         x_title: str | None = None, y_title: str | None = None, width: int = 420, height: int = 240) -> dict:
    enc = {"x": {"field": x, "type": "quantitative", "title": x_title or x},
           "y": {"field": y, "type": "quantitative", "title": y_title or y}}
    if color:
        enc["color"] = {"field": color, "type": "nominal"}
    return {"$schema": SCHEMA, "title": title, "width": width, "height": height,
            "data": {"values": rows}, "mark": {"type": "line", "point": True, "tooltip": True}, "encoding": enc}


def text_table(rows: list[dict], columns: list[str] | None = None) -> str:
    if not rows:
        return "(no data)"
    columns = columns or list(rows[0])
    cells = [[_fmt(r.get(c, "")) for c in columns] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(columns)]
    head = "  ".join(c.ljust(w) for c, w in zip(columns, widths))
    body = ["  ".join(v.ljust(w) for v, w in zip(row, widths)) for row in cells]
    return "\n".join([head, *body])


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.4f}"
    return str(v)


class Chart:
    """Displays as a Vega-Lite chart where a front-end can draw it, as a text table elsewhere."""

    def __init__(self, spec: dict, columns: list[str] | None = None):
        self.spec = spec
        self.columns = columns

    def _rows(self):
        return self.spec.get("data", {}).get("values", [])

    def _repr_mimebundle_(self, include=None, exclude=None):
        title = self.spec.get("title") or "chart"
        return {MIME: self.spec, "text/plain": f"{title}\n{text_table(self._rows(), self.columns)}"}


def show(spec: dict, columns: list[str] | None = None) -> Chart:
    return Chart(spec, columns)
