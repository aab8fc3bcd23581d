"""Helpers for the duel tests: custom cards and exact runs."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.alphastrike.duel.model import MODEL
from sim.units.mul import parse_specials
from sim.units.types import ASCard


def card(name: str = "Test", *, armor: int = 4, structure: int = 4, damage: tuple = (0, 0, 0, 0),
         move: int = 10, jump: int = 0, tmm: int = 2, ov: int = 0, specials: str = "",
         minimal: tuple = (False, False, False, False)) -> ASCard:
    """A custom 'Mech card."""
    return ASCard(name=name, type="BM", size=2, move=move, jump=jump, tmm=tmm, armor=armor,
                  structure=structure, damage=damage, minimal=minimal, ov=ov,
                  specials=parse_specials(specials) if specials else {},
                  specials_raw=specials, pv=20)


#: Both sides play the fixed duel of the worked examples (20.6 stance, overheat policy).
SAF = {"tactic_a": "stand-and-fire", "tactic_b": "stand-and-fire"}


def exact(**params: Any) -> dict[str, np.ndarray]:
    """Exact metrics of a duel (fails the test when the chain does not fit); both sides
    ``stand-and-fire`` unless a tactic is given (the worked examples' fixed duel)."""
    ex = MODEL.exact(MODEL.scenario({**SAF, **params}))
    assert ex is not None, params
    return ex
