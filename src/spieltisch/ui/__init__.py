"""The one shared front-end. ``table`` is its view-model (standard library only) and ``static/`` its
ESM; the hosts are ``notebook`` (anywidget, the ``widgets`` extra) and ``panel`` (the ``panel``
extra); ``session`` drives a game for every front-end and the CLI; ``charts`` makes Vega-Lite
specs. UI code never decides a rule: it asks the engine.
"""
