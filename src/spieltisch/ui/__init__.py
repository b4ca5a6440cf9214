"""Front-ends. ``svg`` and ``charts`` are standard library only (pictures and Vega-Lite specs);
``widgets`` needs ipywidgets (the ``widgets`` extra). UI code never decides a rule: it asks the engine.
"""
