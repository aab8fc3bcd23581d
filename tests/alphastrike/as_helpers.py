"""Shared helpers for the Alpha Strike heat tests (cards built directly, no catalog)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.alphastrike.markov import curves
from sim.alphastrike.scenario import build_scenario
from sim.units.types import ASCard, Special


def card(name: str = "Test 'Mech", *, specials: str = "", **kw: Any) -> ASCard:
    """An ASCard with Loki-Prime-like defaults (BM, Size 3, 10", TMM 2, A4 S4, 4/4/4, OV 3)."""
    specs = {}
    for tok in filter(None, (t.strip() for t in specials.split(","))):
        code = "".join(ch for ch in tok if ch.isalpha())
        specs[code] = Special(code, tok, ())
    base: dict[str, Any] = dict(type="BM", size=3, move=10, jump=0, tmm=2, armor=4,
                                structure=4, damage=(4, 4, 4, 0),
                                minimal=(False, False, False, False), ov=3, skill=4)
    base.update(kw)
    return ASCard(name=name, specials=specs, specials_raw=specials, **base)


LOKI = card("Loki (Hellbringer) Prime", specials="AMS,CASE,ECM,OMNI,PRB,RCN")


def exact(**params: Any) -> dict[str, np.ndarray]:
    """Exact curves of a scenario."""
    return curves(build_scenario(params))


def scenario(**params: Any) -> Any:
    return build_scenario(params)
