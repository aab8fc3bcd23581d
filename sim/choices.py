"""The named choices of a run's settings, importable without numpy or pandas (the command
line builds its parsers from them, and ``btsim --help`` / a finished ``btsim run`` stay
light); :mod:`sim.engine` checks values against them."""

from __future__ import annotations

#: joblib backends :func:`sim.engine.simulate` runs on (``dask``: a Dask cluster)
BACKENDS = ("loky", "threading", "sequential", "dask")
#: ``progress`` modes: ``auto`` draws a bar after ~2 s when stderr is a terminal, ``always``
#: draws it at once (terminal or not), ``never`` draws none.
PROGRESS_MODES = ("auto", "always", "never")
