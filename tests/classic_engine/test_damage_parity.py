"""The compiled damage code (:mod:`sim.classic.engine.damage`) against the ``hit`` model's
damage code (:mod:`sim.classic.damage_state.apply`): the same location / damage / dice
sequences give exactly the same state rows (issue 21: the damage rules are not written
twice without a check)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from sim.classic.damage_state import apply as AP
from sim.classic.damage_state import state as st
from sim.classic.damage_state.choose import NTH_BIT, SampleChooser
from sim.classic.duel.scenario import build
from sim.classic.engine import dice
from sim.classic.engine.compile import compile_scenario
from sim.units.catalog import get_classic


class TapeChooser(SampleChooser):
    """Replays a tape the way the engine's tape mode reads it (:mod:`sim.classic.engine.
    dice`): a determination is ``DETERMINING[min(2D6 + C15 modifier, 12)]`` with the 2D6
    ``2 + v % 6 + (v // 6) % 6``, a slot the ``v % popcount``-th free one. Rows that roll
    nothing take no value."""

    def __init__(self, tape: np.ndarray) -> None:
        super().__init__(np.random.default_rng(0))
        self.tape = [int(v) for v in tape]
        self.pos = 0

    def _next(self) -> int:
        v = self.tape[self.pos]
        self.pos += 1
        return v

    def pick_table(self, S, w, table, k):  # type: ignore[no-untyped-def]
        j = np.zeros(len(k), np.int64)
        for i, ki in enumerate(np.asarray(k).tolist()):
            if ki == AP.NO_ROLL:
                continue
            v = self._next()
            mod = ki if ki < AP.NO_ROLL else AP.NO_ROLL - ki   # rows past NO_ROLL: -1, -2
            j[i] = AP.DETERMINING[min(2 + v % 6 + (v // 6) % 6 + mod, 12)]
        return S, w, j, np.arange(len(k))

    def pick_bit(self, S, w, masks):  # type: ignore[no-untyped-def]
        m = np.asarray(masks) & 0xFFF
        out = np.full(len(m), 12, np.int64)
        for i, mi in enumerate(m.tolist()):
            if mi:
                out[i] = NTH_BIT[mi, self._next() % int(st.POP[mi])]
        return S, w, out, np.arange(len(m))


CASES = [
    ("Hunchback HBK-4G", {}),
    ("Atlas AS7-D", {"tac_with_structure_damage": "one", "crit_on_destroying_group": False}),
    ("Mad Cat (Timber Wolf) Prime", {"explosion_size": "core", "advanced_criticals": True}),
    ("Catapult CPLT-C1", {"explosion_transfer": "armor", "case2_explosion": "one-point",
                          "filler_slots_hittable": True}),
    ("Loki (Hellbringer) Prime", {"case_slot_hittable": True}),
    # hardened armor (issue 19): half points, and -2 on the TAC of a group it stopped whole
    ("Hunchback HBK-4G hardened", {}),
    ("Hunchback HBK-4G hardened", {"advanced_criticals": True}),
]


@pytest.mark.parametrize("unit,opts", CASES)
def test_compiled_damage_matches_apply_group(unit: str, opts: dict) -> None:
    from sim.classic.engine import damage

    mech: Any = unit
    if unit.endswith(" hardened"):
        mech = replace(get_classic(unit.removesuffix(" hardened")), armor_type="Hardened")
    scn = build({"unit_a": mech, "unit_b": "Locust LCT-1V", "range": 3, "turns": 1, **opts})
    M = compile_scenario(scn).M
    dm = scn.a.dm
    rng = np.random.default_rng(hash(unit) % 2**32)
    for trial in range(40):
        tape = rng.integers(0, 2**63, size=400, dtype=np.uint64)
        S = st.fresh(scn.a.layout, 1)
        row = S[0].copy()
        ch = TapeChooser(tape)
        D = dice.dice_array(tape)
        for g in range(30):
            if S[0, st.CAUSE] != st.C_NONE:
                break
            if g % 9 == 8 and scn.a.layout.bins:     # a heat-style ammunition explosion
                b = int(rng.integers(len(scn.a.layout.bins)))
                S, _ = AP.explode(S, np.ones(1), dm, b, np.ones(1, bool), ch)
                damage.explode(row, M, 0, b, D)
            else:
                loc = int(rng.integers(8))
                rear = int(loc in (1, 2, 3) and rng.random() < 0.3)
                dmg = int(rng.integers(1, 21))
                tac = int(rng.random() < 0.15)
                S, _ = AP.apply_group(S, np.ones(1), dm, np.array([loc]), np.array([bool(rear)]),
                                      np.array([dmg]), np.array([bool(tac)]), ch)
                damage.apply_group(row, M, 0, loc, rear, dmg, tac, D)
            assert np.array_equal(S[0], row), (unit, trial, g, S[0] - row)
            assert ch.pos == int(D[dice.D_POS])       # the same dice consumed
