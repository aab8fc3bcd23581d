"""One duel turn as small pure steps over per-unit state dicts of arrays (reference-as-combat
20.8). The Monte Carlo kernel and the exact chain call the same steps; they differ only in
where outcomes come from (dice draws, or enumerated branches with weights).

State of one unit (arrays over trials, or over chain states): ``heat`` (0..4, 4 = shut down
this coming turn), ``eng``, ``fc``, ``wh``, ``mp`` (crit counters, saturating where more hits
change nothing), ``dmg`` (damage taken), ``alive``, ``ever`` (has shut down), ``narced``
(carries a Narc beacon), ``arm`` (ARM still unspent). Turn scratch: ``pend`` (pending
damage), ``ht`` (HT heat received), ``killed``, ``fired``, ``ov``.

Steps: :func:`decide` (policy, damage level; 6.2, A2) -> :func:`attack_tn` (6.1) -> on a hit
:func:`hit_points` (21.3 order, A11) -> :func:`receive` (20.3, 20.4: pending damage, crit
chance, ARM, BAR) -> :func:`crit` (6.6 effects via :func:`sim.alphastrike.crits.apply_crit`,
plus the 20.3 item 5 point, A22) -> :func:`end_phase` (damage and crits take effect, heat
6.4, shutdown).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from sim.alphastrike import tables as T
from sim.alphastrike.crits import apply_crit
from sim.alphastrike.duel.rules import DuelRules
from sim.alphastrike.duel.sides import UnitSpec
from sim.alphastrike.heat import end_phase_heat
from sim.alphastrike.rules import ASRules

STATE_KEYS = ("heat", "eng", "fc", "wh", "mp", "dmg", "alive", "ever", "narced", "arm", "rhs",
              "ecs")
_U8 = ("heat", "eng", "fc", "wh", "mp", "dmg")


def initial_state(u: UnitSpec, n: int) -> dict[str, np.ndarray]:
    """``n`` fresh copies of unit ``u``: heat 0, no damage, no crits, alive."""
    st = {k: np.zeros(n, dtype=np.uint8) for k in _U8}
    st["alive"] = np.ones(n, dtype=bool)
    st["ever"] = np.zeros(n, dtype=bool)
    st["narced"] = np.zeros(n, dtype=bool)
    st["arm"] = np.full(n, u.arm, dtype=bool)
    st["rhs"] = np.full(n, u.rhs, dtype=bool)
    st["ecs"] = np.full(n, u.ecs, dtype=bool)
    return st


def profile(st: dict[str, np.ndarray]) -> np.ndarray:
    """Profile index ``heat + 5 * mp`` into the unit's stance tables."""
    return st["heat"] + np.uint8(5) * st["mp"]


def stance(u: UnitSpec, st: dict[str, np.ndarray]
           ) -> tuple[np.ndarray, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Index and tables (tmod, amod, mas) of the unit's stance this turn: its fixed stance,
    or, where a tactic chose a movement mode (``st["mode"]``, an index into
    :data:`~sim.alphastrike.duel.sides.MOVED`), that mode's tables."""
    if "mode" in st:
        idx = profile(st).astype(np.int16) + np.int16(u.n_profiles) * st["mode"].astype(np.int16)
        return idx, u.tmod_m, u.amod_m, u.mas_m
    return profile(st), u.tmod, u.amod, u.mas


@dataclass
class Decision:
    """What a unit does this turn, from its state at the start of the turn."""

    fired: np.ndarray      # makes a weapon attack
    ov: np.ndarray         # OV used (uint8)
    points: np.ndarray     # points of a hit before the 0* roll and the target's modifiers
    minimal: np.ndarray    # the hit is 0* (+ OV): a 1D6 4+ adds 1 (A1 ``roll``)


def usable_ov(u: UnitSpec, band: int | np.ndarray) -> np.ndarray:
    """OV usable at the band (6.2): Short/Medium, Long with OVL, never Extreme."""
    table = np.array([u.ov, u.ov, u.ov if u.ovl else 0, 0], dtype=np.uint8)
    return table[band]


def damage_level(u: UnitSpec, st: dict[str, np.ndarray], band: int | np.ndarray,
                 dr: DuelRules) -> np.ndarray:
    """Damage level after Weapon hits (A2): 0 none, 1 = 0*, v + 1 = v points (int16)."""
    level0 = np.array(u.levels, dtype=np.int16)[band]
    wh = st["wh"].astype(np.int16)
    if dr.weapon_hit_scale == "mekbay":
        lv = level0 - wh
    else:   # minus1: v -> v - 1, min 0 (1 -> 0); a 0* card value -> 0 after a hit
        v = level0 - 1 - wh
        lv = np.where(level0 == 1, 1 - wh, np.where(v >= 1, v + 1, 0))
    return lv * (lv > 0)


def decide(u: UnitSpec, st: dict[str, np.ndarray], band: int | np.ndarray, turn: int,
           dr: DuelRules, asr: ASRules, req: np.ndarray | None = None) -> Decision:
    """Policy and damage of the unit's standard attack (20.6 fire policy, 6.2, A1, A2);
    ``req``: the OV request per row chosen by a tactic (-1 hold fire) instead of the
    unit's overheat policy."""
    heat = st["heat"]
    active = st["alive"] & (heat < T.SHUTDOWN_HEAT)
    if req is None:
        state = {k: st[k] for k in ("eng", "fc", "wh", "mp", "dmg", "alive")}
        req = np.asarray(u.policy.request(heat, turn, state, u.ov)).astype(np.int16)
    else:
        req = np.asarray(req).astype(np.int16)
    lv = damage_level(u, st, band, dr)
    fired = active & (req >= 0) & (lv >= 1)
    cap = usable_ov(u, band).astype(np.int16)
    r = req * (req > 0)
    ov = (fired * np.minimum(r, cap)).astype(np.uint8)
    points = (lv - 1) * (lv >= 2)
    is_min = fired & (lv == 1)
    if asr.minimal_damage == "one":
        points = points + is_min
        is_min = np.zeros_like(is_min)
    elif asr.minimal_damage == "zero":
        is_min = np.zeros_like(is_min)
    pts = (fired * (points + ov)).astype(np.uint8)
    return Decision(fired, ov, pts, is_min)


def fire_if_able(dec: Decision, able: np.ndarray) -> None:
    """20.6 fire policy: a unit attacks only when its TN is at most 12 (a hopeless attack is
    not made, so it makes no weapon attack this turn and cools per 6.4)."""
    dec.fired = dec.fired & able
    dec.ov = dec.ov * dec.fired
    dec.points = dec.points * dec.fired
    dec.minimal = dec.minimal & dec.fired


def attack_tn(a: UnitSpec, sa: dict[str, np.ndarray], t: UnitSpec, stt: dict[str, np.ndarray],
              band: int | np.ndarray, dr: DuelRules) -> np.ndarray:
    """Weapon attack TN of ``a`` on ``t`` (6.1, 20.5): skill + own movement + heat + 2 per Fire
    Control hit + target modifier (stance, -4 immobile/shut down) + terrain + range + STL
    (A6) + SHLD (attacker +1)."""
    rng_mod = _RANGE_MOD[band]
    stl = 0
    if t.stl:
        stl = np.array([0, 1, dr.stealth_long, dr.stealth_long], dtype=np.int16)[band]
    base = np.int16(a.skill + t.terrain_mod + (1 if a.shld else 0)) + rng_mod + stl
    ia, _, amod, _ = stance(a, sa)
    it, tmod, _, mas = stance(t, stt)
    own = _own_table(amod).take(ia)                     # movement + heat, by profile
    tn = (base + own + np.int16(T.FIRE_CONTROL_MOD) * sa["fc"]
          + _table16(tmod).take(it))
    if mas:                                             # MAS/LMAS: still or immobile target
        tn = tn + _table16(mas).take(it)
    return tn


_RANGE_MOD = np.array([T.RANGE_MOD[r] for r in T.RANGES], dtype=np.int16)


@lru_cache(maxsize=1024)
def _table16(values: tuple[int, ...]) -> np.ndarray:
    return np.asarray(values, dtype=np.int16)


@lru_cache(maxsize=1024)
def _own_table(amod: tuple[int, ...]) -> np.ndarray:
    """Own movement modifier + heat to-hit modifier (6.3) by profile ``heat + 5 * mp``."""
    heat = np.arange(len(amod)) % 5
    return (np.asarray(amod, dtype=np.int16) + T.HEAT_TO_HIT[heat].astype(np.int16))


def can_narc(a: UnitSpec, dec: Decision, t: UnitSpec, stt: dict[str, np.ndarray],
             band: int | np.ndarray) -> np.ndarray:
    """Rows where ``a`` makes its Narc attacks this turn (21.2 SNARC, A17: before the
    standard attack): it fires, the band is within reach, the target is not yet narced, and
    the target has no ECM (which would cancel the beacon's bonus)."""
    if a.narcs == 0 or t.ecm:
        return np.zeros_like(dec.fired)
    return dec.fired & (np.asarray(band) <= a.narc_reach) & ~stt["narced"]


def hit_points(a: UnitSpec, dec: Decision, t: UnitSpec, stt: dict[str, np.ndarray],
               extra: np.ndarray | None, dr: DuelRules, band: int | np.ndarray = 0
               ) -> np.ndarray:
    """Points of a hit (21.3, A11): level points + OV (+1 for a 0* roll of 4+, ``extra``),
    +1 Narc (attacker is an IF/LRM/SRM user, target narced), then the target's reductions in
    the 21.3 order: AMS (A9 floor) -> RCA (min 1, A23) -> BRA (A21) -> RFA (A10) -> SHLD (min 0).
    HT adds to damage only against a unit without a heat scale (6.6)."""
    d = dec.points.astype(np.int16)
    if extra is not None:
        d = d + extra
    if a.missile_user and not t.ecm:
        d = d + stt["narced"]
    if t.ams and a.missile_user:                               # AMS (A9 floor)
        d = d - (d >= (2 if dr.ams_floor >= 1 else 1))
    if t.rca and a.missile_user:                               # RCA, min 1 (A23)
        red = np.asarray(a.rca_red, dtype=np.int16)[band]
        d = d - np.minimum(red, np.maximum(d - 1, 0))
    if t.bra and a.bra_trigger:                                # BRA: loss ceil(d/2) (A21)
        d = np.maximum(d // 2, np.minimum(d, dr.bra_floor))
    if t.rfa:                                                  # RFA (A10)
        if a.ene:
            half = d // 2 if dr.rfa_rounding == "down" else (d + 1) // 2
            d = np.where(d >= 1, np.maximum(half, 1), 0)
        else:
            d = d - (d >= 2)
    if t.shld:                                                 # SHLD, min 0
        d = d - (d >= 1)
    return d


def receive(t: UnitSpec, stt: dict[str, np.ndarray], dealt: np.ndarray, hit: np.ndarray,
            dr: DuelRules) -> np.ndarray:
    """Record the points of one attack on ``t`` (20.3: armor then structure, pending until the
    End Phase) and return the rows that roll for a critical hit (20.4): the points reached
    Structure (BAR: any successful attack) and the unit is still alive after them; ARM
    cancels the first such chance (and is spent)."""
    stt["pend"] = stt["pend"] + dealt * hit
    if not dr.crits:
        return np.zeros_like(hit)
    after = stt["dmg"] + stt["pend"]
    alive_after = (after < t.total) & ~stt["killed"] & stt["alive"]
    if t.bar:
        chance = hit & alive_after
    else:
        chance = hit & (dealt > 0) & (after > t.armor) & alive_after
    if t.arm:
        cancel = chance & stt["arm"]
        stt["arm"] = stt["arm"] & ~cancel
        chance = chance & ~cancel
    return chance


def crit(t: UnitSpec, stt: dict[str, np.ndarray], code: np.ndarray, need: np.ndarray,
         dr: DuelRules, asr: ASRules) -> np.ndarray:
    """Apply crit results ``code`` where ``need`` (6.6); returns rows that roll again (the CASE
    point, or the 20.3 item 5 point under A22, landing on Structure)."""
    noeff = None
    if dr.noeffect_point:
        noeff = need & (((code == T.CRIT_WEAPON) & (stt["wh"] >= t.wh_full))
                        | ((code == T.CRIT_MP) & (stt["mp"] >= t.mp_full)))
    again = apply_crit(code, need, stt, t.ammo_mode, asr.case_damage, t.armor, t.total,
                       (t.fc_cap, t.wh_full, t.mp_full))
    if noeff is not None:
        stt["pend"] = stt["pend"] + noeff
        if dr.noeffect_point_crit:
            after = stt["dmg"] + stt["pend"]
            again = again | (noeff & (after > t.armor) & (after < t.total) & ~stt["killed"])
    return again


def start_turn(st: dict[str, np.ndarray], dec: Decision) -> None:
    """Reset the turn scratch arrays of a unit."""
    n = st["heat"].shape[0]
    st["pend"] = np.zeros(n, dtype=np.int16)
    st["ht"] = np.zeros(n, dtype=np.uint8)
    st["killed"] = np.zeros(n, dtype=bool)
    st["fired"] = dec.fired
    st["ov"] = dec.ov
    st["eng0"] = st["eng"]


def end_phase(u: UnitSpec, st: dict[str, np.ndarray], asr: ASRules,
              d6_is_1: np.ndarray | None = None, ee_12: np.ndarray | None = None) -> None:
    """End Phase (20.8): damage and crits take effect, destroyed units out (20.3), BHJ2/3
    armor recovery (A8), heat per 6.4 (A5: an Engine Hit received this turn counts when
    ``engine_heat_same_turn``), then the RHS / ECS flush [REC: before the shutdown check],
    then shutdown at heat 4.

    Random End Phase rolls come from the caller: ``d6_is_1`` (the RHS or ECS 1D6 came up 1;
    one roll serves a unit with both) and ``ee_12`` (an EE engine's 2D6 came up 12).
    * RHS (21.2): at heat >= 1 it flushes 1 heat, then 1D6: on a 1 the RHS is lost and this
      turn's reduction fails.
    * ECS (21.2): at heat 4, 1D6 >= 2: heat -2; a 1: the ECS is lost, no reduction, and the
      unit takes an Engine Hit (a second one destroys it).
    * EE (21.2, 6.6): an Engine Hit adds no heat; in every later turn the unit makes a weapon
      attack, 2D6 in the End Phase: 12 destroys it.
    """
    taken = st["dmg"] + st["pend"]
    alive = st["alive"] & ~st["killed"] & (taken < u.total)
    if u.ee and ee_12 is not None:
        alive = alive & ~(ee_12 & st["fired"] & (st["eng0"] > 0))
    if u.bhj:            # BHJ2/BHJ3: armor back while Armor >= 1 after the damage (A8)
        taken = taken - (taken < u.armor) * np.minimum(taken, u.bhj)
    if u.has_heat:
        eng = st["eng"] if asr.engine_heat_same_turn else st["eng0"]  # A5
        if u.ee:
            eng = np.zeros_like(eng)
        ht = st["ht"] if not u.fr else np.zeros_like(st["ht"])
        heat = (end_phase_heat(st["heat"], st["fired"], st["ov"], eng, ht, u.water_depth,
                               asr) * alive).astype(np.int16)
        if u.ecs and d6_is_1 is not None:
            due = st["ecs"] & alive & (heat == T.SHUTDOWN_HEAT)
            fail = due & d6_is_1
            heat = heat - 2 * (due & ~fail)
            st["ecs"] = st["ecs"] & ~fail
            st["eng"] = st["eng"] + fail
            alive = alive & (st["eng"] < 2)
            heat = heat * alive
        if u.rhs and d6_is_1 is not None:
            due = st["rhs"] & alive & (heat >= 1)
            fail = due & d6_is_1
            heat = heat - (due & ~fail)
            st["rhs"] = st["rhs"] & ~fail
    else:
        heat = np.zeros_like(st["heat"])
    st["dmg"] = np.minimum(taken, u.total).astype(np.uint8)
    st["heat"] = heat.astype(np.uint8)
    st["alive"] = alive
    st["ever"] = st["ever"] | (heat == T.SHUTDOWN_HEAT)
