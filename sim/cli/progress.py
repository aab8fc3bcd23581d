"""The ``--progress {auto,always,never}`` flag shared by ``run``, ``attack`` and ``heat``."""

from __future__ import annotations

import argparse


def add_progress(p: argparse.ArgumentParser) -> None:
    """Add ``--progress``: ``auto`` (default) draws a bar after ~2 s when stderr is a
    terminal, ``always`` draws it at once even when stderr is not a terminal, ``never`` none
    (``--quiet`` on ``btsim run`` means ``never``)."""
    from sim.choices import PROGRESS_MODES

    p.add_argument("--progress", choices=PROGRESS_MODES, default="auto",
                   help="progress bar on stderr for Monte Carlo runs: auto (after ~2 s on a "
                   "terminal; default), always (at once, even when not a terminal), never")
