"""One Alpha Strike turn for many units at once (rules reference 6.1-6.6).

The turn is split into pure steps over a dict of arrays (``tu``: one entry per unit, or per
enumerated outcome in the exact chain), so that the Monte Carlo kernel and the exact Markov
chain apply the very same rule functions; they differ only in where outcomes come from
(dice draws, or enumeration with probability weights):

1. :func:`decide` -- movement, policy, own attack TN and damage (state at turn start);
2. :func:`incoming_hit` -- one incoming attack that hit: pending damage, HT heat, crit call;
3. :func:`sim.alphastrike.crits.apply_crit` -- a critical-hit result (CASE may call again);
4. :func:`end_phase` -- damage and crits take effect, heat update (ref 6.4), shutdown.

State arrays: ``heat`` (0..4; 4 = shut down this coming turn), ``eng``, ``fc``, ``wh``, ``mp``
(crit counters), ``dmg`` (damage taken so far), ``alive``, ``ever`` (has shut down at least
once). Turn scratch: ``pend`` (pending damage), ``ht`` (HT heat received), ``killed``,
``fired``, ``ov``, ``tmod0`` (attackers' modifier against the unit at turn start).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.alphastrike import tables as T
from sim.alphastrike.attack import physical_tn, weapon_tn
from sim.alphastrike.crits import apply_crit
from sim.alphastrike.heat import end_phase_heat
from sim.alphastrike.scenario import HeatScenario

STATE_KEYS = ("heat", "eng", "fc", "wh", "mp", "dmg", "alive", "ever")


@dataclass(frozen=True)
class Tables:
    """Per-scenario lookup tables over the *profile index*
    ``idx = heat + 5 * mp + 5 * (mp_cap + 1) * fc`` (heat level, MP hits, Fire Control hits):
    the unit's own weapon and physical TNs and the target modifier attackers get against it.
    Built once per scenario from the rule functions of :mod:`sim.alphastrike.attack`."""

    mp_mult: int
    fc_mult: int
    tn_weapon: np.ndarray   # int16 [idx]
    tn_phys: np.ndarray     # int16 [idx]
    tmod: np.ndarray        # int16 [idx]

    @classmethod
    def of(cls, scn: HeatScenario) -> Tables:
        mp_n, fc_n = scn.mp_cap + 1, scn.fc_cap + 1
        heat = np.tile(np.arange(5, dtype=np.uint8), mp_n * fc_n)
        mp = np.tile(np.repeat(np.arange(mp_n, dtype=np.uint8), 5), fc_n)
        fc = np.repeat(np.arange(fc_n, dtype=np.uint8), 5 * mp_n)
        amod = np.array(scn.amod, dtype=np.int16)[heat, mp]
        return cls(
            mp_mult=5, fc_mult=5 * mp_n,
            tn_weapon=weapon_tn(scn.tn_weapon_base, amod, heat, fc).astype(np.int16),
            tn_phys=physical_tn(scn.tn_phys_base, amod, heat,
                                scn.rules.physical_heat).astype(np.int16),
            tmod=np.array(scn.tmod, dtype=np.int16)[heat, mp])

    @property
    def size(self) -> int:
        return self.tmod.size

    def index(self, tu: dict[str, np.ndarray]) -> np.ndarray:
        """The profile index of each unit (uint8 or uint16 arithmetic, ready for ``take``)."""
        if self.size <= 5:   # no MP or Fire Control hit can matter
            return tu["heat"]
        dt: type[np.unsignedinteger[Any]] = np.uint8 if self.size <= 256 else np.uint16
        idx: np.ndarray = tu["heat"].astype(dt)
        if self.mp_mult * (self.fc_mult // self.mp_mult) > 5:
            idx = idx + tu["mp"].astype(dt) * np.asarray(self.mp_mult, dtype=dt)
        if self.size > self.fc_mult:
            idx = idx + tu["fc"].astype(dt) * np.asarray(self.fc_mult, dtype=dt)
        return idx


def initial_state(scn: HeatScenario, n: int) -> dict[str, np.ndarray]:
    """``n`` fresh units: heat = start heat, no damage, no crits, alive."""
    z = np.zeros(n, dtype=np.uint8)
    return {"heat": np.full(n, scn.start_heat, dtype=np.uint8), "eng": z.copy(),
            "fc": z.copy(), "wh": z.copy(), "mp": z.copy(), "dmg": z.copy(),
            "alive": np.ones(n, dtype=bool), "ever": np.zeros(n, dtype=bool)}


@dataclass
class Decision:
    """What the unit does this turn (from its state at the start of the turn)."""

    fired: np.ndarray      # made a weapon attack
    phys: np.ndarray       # made a physical attack instead
    ov: np.ndarray         # OV used (uint8)
    dmg: np.ndarray        # damage on a hit, excluding a 0* point (uint8)
    minimal: np.ndarray | None  # the hit deals 0* (+ OV), 1D6 4+ adds 1 (``roll`` rule)

    @property
    def attacking(self) -> np.ndarray:
        return self.fired | self.phys


def decide(tu: dict[str, np.ndarray], scn: HeatScenario, turn: int) -> Decision:
    """Policy and own attack (ref 6.2, 6.3, 6.7), with masks and arithmetic only.

    A unit that is alive and not shut down asks its policy for an OV request (``-1`` = no
    weapon attack). It can make a weapon attack when its damage level at the band is at
    least 0* (weapon hits step the level down: ... 2 -> 1 -> 0* -> 0); the OV used is the
    request capped by the usable OV (S/M; L with OVL). A unit that makes no weapon attack
    makes a physical attack instead when ``physical`` is set. Damage: the level's points + OV
    (weapon), Size (+1 MEL for Melee) (physical).
    """
    heat, alive, wh = tu["heat"], tu["alive"], tu["wh"]
    active = alive & (heat < T.SHUTDOWN_HEAT)
    state = {k: tu[k] for k in ("eng", "fc", "wh", "mp", "dmg", "alive")}
    req = scn.policy.request(heat, turn, state, scn.ov_cap)
    level0 = np.uint8(scn.level0)
    fired = active & (req >= 0) & (wh < level0)
    if np.ndim(req) == 0:
        ov = fired * np.uint8(min(max(int(req), 0), scn.ov_cap))
    else:
        r = req.astype(np.int16)
        r = r * (r > 0)
        ov = (fired * (r - (r > scn.ov_cap) * (r - scn.ov_cap))).astype(np.uint8)
    level = level0 - wh                      # >= 1 wherever fired (wh < level0)
    points = level - (level >= 1)            # level v+1 -> v points; 0* and 0 -> 0
    minimal = None
    if scn.level0 >= 1:                      # 0*: from the card, or after weapon hits
        is_min = fired & (wh == level0 - np.uint8(1))
        if scn.rules.minimal_damage == "one":
            points = points + is_min
        elif scn.rules.minimal_damage == "roll":
            minimal = is_min
    dmg = fired * (points + ov)
    if scn.physical != "none":
        phys = active & ~fired
        dmg = dmg + phys * np.uint8(scn.phys_dmg)
    else:
        phys = np.zeros_like(fired)
    return Decision(fired, phys, ov.astype(np.uint8, copy=False), dmg.astype(np.uint8, copy=False),
                    minimal)


def start_turn(tu: dict[str, np.ndarray], scn: HeatScenario, tmod: np.ndarray | None,
               dec: Decision) -> None:
    """Reset the turn scratch arrays and fix the attackers' target modifier ``tmod`` (from the
    state at the start of the turn: this turn's damage and crits wait for the End Phase)."""
    n = tu["heat"].shape[0]
    tu["pend"] = np.zeros(n, dtype=scn.pend_dtype)
    tu["ht"] = np.zeros(n, dtype=np.uint8)
    tu["killed"] = np.zeros(n, dtype=bool)
    tu["fired"] = dec.fired
    tu["ov"] = dec.ov
    tu["eng0"] = tu["eng"].copy()
    if tmod is not None:
        tu["tmod0"] = tmod


def incoming_hit(tu: dict[str, np.ndarray], scn: HeatScenario, i: int,
                 hit: np.ndarray) -> np.ndarray:
    """Attacker ``i`` hit where ``hit``: record its damage and HT heat (ref 6.6 HT, capped in
    the End Phase); return the rows that roll for a critical hit (damage reached structure
    without destroying the unit outright)."""
    inc = scn.incoming[i]
    if inc.hit_heat:
        tu["ht"] = tu["ht"] + hit * np.uint8(inc.hit_heat)
    if not inc.hit_dmg:
        return np.zeros_like(hit)
    pend = tu["pend"]
    tu["pend"] = pend + hit * pend.dtype.type(inc.hit_dmg)
    after = tu["dmg"] + tu["pend"]
    return hit & (after > scn.armor) & (after < scn.max_damage) & ~tu["killed"]


def crit(tu: dict[str, np.ndarray], scn: HeatScenario, code: np.ndarray,
         need: np.ndarray) -> np.ndarray:
    """Apply crit ``code`` where ``need``; returns the rows that roll again (CASE)."""
    return apply_crit(code, need, tu, scn.ammo_mode, scn.rules.case_damage, scn.armor,
                      scn.max_damage, (scn.fc_cap, scn.wh_cap, scn.mp_cap))


def end_phase(tu: dict[str, np.ndarray], scn: HeatScenario) -> None:
    """End Phase (ref 6.2, 6.4, 6.6): damage and crits take effect; heat update; shutdown."""
    taken = tu["dmg"] + tu["pend"]
    alive = tu["alive"] & ~tu["killed"] & (taken < scn.max_damage)
    if scn.has_heat:
        eng = tu["eng"] if scn.rules.engine_heat_same_turn else tu["eng0"]
        heat = end_phase_heat(tu["heat"], tu["fired"], tu["ov"], eng, tu["ht"],
                              scn.water_depth, scn.rules) * alive
    else:
        heat = np.zeros_like(tu["heat"])
    tu["dmg"] = taken.astype(np.uint8)   # exact for survivors (taken < armor + structure)
    tu["heat"] = heat
    tu["alive"] = alive
    tu["ever"] = tu["ever"] | (heat == T.SHUTDOWN_HEAT)


def canonical_dead(tu: dict[str, np.ndarray]) -> None:
    """Destroyed units forget everything but ``ever`` (so the exact chain merges them)."""
    dead = ~tu["alive"]
    for k in ("heat", "eng", "fc", "wh", "mp", "dmg"):
        tu[k] = np.where(dead, np.uint8(0), tu[k]).astype(np.uint8)
