"""The physical-attack rule options (:class:`sim.classic.rules.ClassicRules`, reference.md
section 8) in the classic duel: every option with a meaning there changes the documented
number under its other reading, in the kernel and in the scalar oracle alike; the options that
mean nothing without a map are accepted at their defaults only."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from classic_duel_helpers import HBK, LOCUST, WVR, unarmed
from test_classic_duel_oracle import _compare

from sim import options
from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.damage_state.choose import SampleChooser
from sim.classic.duel import kernel as K
from sim.classic.duel import physical as ph
from sim.classic.duel.model import MODEL
from sim.classic.duel.scenario import INERT_CLASSIC_OPTIONS, build
from sim.classic.rules import ClassicRules
from sim.errors import ConfigError
from sim.oracles import classic_duel as O

HCT = "Hatchetman HCT-3F"
N = 64


def _setup(params: dict[str, Any], n: int = N) -> tuple[Any, list[K._Compiled],
                                                        list[K._State], list[Any]]:
    scn = build({"range": 1, **params})
    comp = [K.compile_side(s, scn.duel_rules) for s in scn.sides]
    xs = [K._State.fresh(s, n, len(next(iter(s.fire.values())).guns)) for s in scn.sides]
    fss = [s.fire[(1, scn.moves[0][0], scn.moves[0][1])] for s in scn.sides]
    return scn, comp, xs, fss


def _choose(scn: Any, comp: list[K._Compiled], xs: list[K._State], fss: list[Any],
            mine: K._Move | None = None, declared: int = ph.NONE) -> K._Physical:
    """Side A's physical attacks (kernel) at range 1; ``mine``: how A moved."""
    n = len(xs[0].S)
    mine = mine or K._Move.still(n)
    return K._choose_physical(scn.a, comp[0], xs[0], scn.b, xs[1], np.ones(n, bool), mine,
                              K._Move.still(n), np.zeros((8, n), bool), fss[0],
                              scn.physical_rules, "physical", np.full(n, declared))


def _oracle(scn: Any, mv: tuple[int, int, bool, int] = (0, 0, False, 0),
            declared: str = "none", prep: Any = None) -> dict[str, Any]:
    """Side A's physical attacks as the oracle computes them: ``{kind: (tn, damage)}``."""
    m, y = O.Mech(scn.a, scn.duel_rules), O.Mech(scn.b, scn.duel_rules)
    if prep is not None:
        prep(m)
    return O._attacks(m, y, mv, (0, 0, False, 0), set(), True, scn, "physical", declared,
                      0.0)[1]


# -- registry, validation, records ------------------------------------------------------------

def test_classic_rules_are_options_of_the_duel_validated_and_recorded() -> None:
    names = options.model_names("classic-duel")
    assert set(options.names(ClassicRules)) <= set(names)
    scn = build({"unit_a": HBK, "unit_b": WVR, "dfa_rounding": "floor-then-times-3",
                 "psr_modifiers": "own"})
    assert scn.classic_rules == ClassicRules(dfa_rounding="floor-then-times-3",
                                             psr_modifiers="own")
    assert scn.a.classic is scn.b.classic is scn.classic_rules
    facts = MODEL.facts(scn)["rule_options"]
    assert facts["dfa_rounding"] == "floor-then-times-3" and facts["tac"] is True
    assert facts["knockdown_value"] == "fall"      # the physical group is recorded too
    assert "dfa_rounding=floor-then-times-3" in MODEL.params(scn)["rule_overrides"]
    meta = options.rule_sets(MODEL, [{"unit_a": HBK, "unit_b": WVR, "punch_min_damage": 0}])
    (cset,) = [s for s in meta["sets"] if s["group"] == "ClassicRules"]
    assert cset["overrides"] == {"punch_min_damage": 0} and cset["preset"] == "default"
    with pytest.raises(ConfigError, match="dfa_rounding.*ceil-product"):
        build({"unit_a": HBK, "unit_b": WVR, "dfa_rounding": "round"})


@pytest.mark.parametrize("name", sorted(INERT_CLASSIC_OPTIONS))
def test_options_without_effect_in_the_duel_are_refused_away_from_default(name: str) -> None:
    spec = options.spec(name).decl
    other = next(v for v in ([False, True] if spec.kind == "bool" else
                             list(spec.allowed) if spec.kind == "choice" else spec.allowed)
                 if v != spec.default)
    with pytest.raises(ConfigError) as e:
        build({"unit_a": HBK, "unit_b": WVR, name: other})
    msg = str(e.value)
    assert len(msg.splitlines()) == 1 and repr(name) in msg and "no effect" in msg
    assert getattr(build({"unit_a": HBK, "unit_b": WVR, name: spec.default}).classic_rules,
                   name) == spec.default


def test_cli_refuses_an_option_without_effect_with_one_line() -> None:
    p = subprocess.run([sys.executable, "-m", "sim", "classic-duel", HBK, WVR, "--rule",
                        "dfa_terrain=true", "--trials", "10"], capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "dfa_terrain" in lines[0] and "no effect" in lines[0]


# -- damage and to-hit options ---------------------------------------------------------------

@pytest.mark.parametrize("reading,dmg", [("ceil-product", 17), ("ceil-then-times-3", 18),
                                         ("floor-then-times-3", 15)])
def test_dfa_rounding_55_tons(reading: str, dmg: int) -> None:
    """D18: a 55 t Wolverine's DFA does 17 (ceil(165/10)), 18 (6 x 3) or 15 (5 x 3)."""
    scn, comp, xs, fss = _setup({"unit_a": WVR, "unit_b": HBK, "moved_a": "jump",
                                 "dfa_rounding": reading})
    jumped = K._Move(np.full(N, 5), np.full(N, 3), np.ones(N, bool), np.full(N, 5))
    p = _choose(scn, comp, xs, fss, jumped, ph.DFA)
    assert (p.dmg[ph.DFA] == dmg).all() and (p.tn[ph.DFA] <= 12).all()
    assert _oracle(scn, (5, 3, True, 5), "dfa")["dfa"][1] == dmg


def _hit(side: Any, m: Any, loc: int, act: str) -> None:
    """Oracle: a critical hit on actuator ``act`` of ``loc``."""
    m.hit[loc].add(int(side.act[act][loc]).bit_length() - 1)


@pytest.mark.parametrize("minimum", [1, 0])
def test_punch_min_damage(minimum: int) -> None:
    """D5: a 20 t Locust (no lower arm by design) with its upper arm actuator destroyed
    punches for floor(2 / 4) = 0, raised to 1 by the rules' minimum."""
    scn, comp, xs, fss = _setup({"unit_a": LOCUST, "unit_b": HBK,
                                 "punch_min_damage": minimum})
    assert (_choose(scn, comp, xs, fss).punch_dmg == 1).all()       # one halving: 2 -> 1
    xs[0].S[:, st.HIT0 + lay.LA] |= int(scn.a.act["upper_arm"][lay.LA])
    p = _choose(scn, comp, xs, fss)
    assert (p.punch_dmg[0] == minimum).all() and (p.punch_dmg[1] == 1).all()
    info = _oracle(scn, prep=lambda m: _hit(scn.a, m, lay.LA, "upper_arm"))
    assert [d for _, d in info["punch"]] == [minimum, 1]


@pytest.mark.parametrize("mod", [3, 2])
def test_hand_and_lower_arm_missing_by_design(mod: int) -> None:
    """D4: the Locust's arms have neither lower arm nor hand: a punch at Piloting 5 + 3
    (TW errata) or + 2 (older text). Destroyed ones (not missing by design) cost +2 +1."""
    scn, comp, xs, fss = _setup({"unit_a": LOCUST, "unit_b": HBK,
                                 "hand_and_lower_arm_missing_mod": mod})
    assert (_choose(scn, comp, xs, fss).punch_tn == 5 + mod).all()
    assert [tn for tn, _ in _oracle(scn)["punch"]] == [5 + mod, 5 + mod]
    scn, comp, xs, fss = _setup({"unit_a": HBK, "unit_b": WVR,
                                 "hand_and_lower_arm_missing_mod": mod})
    for a in ("lower_arm", "hand"):
        xs[0].S[:, st.HIT0 + lay.LA] |= int(scn.a.act[a][lay.LA])
    assert (_choose(scn, comp, xs, fss).punch_tn[0] == 5 + 3).all()


def test_per_5_tons_rounding() -> None:
    """D6: floor or ceil of W/5 for kick and hatchet damage; the same for every catalog
    'Mech (multiples of 5 tons), different for 57 t."""
    floor, ceil = ClassicRules(), ClassicRules(per_5_tons_rounding="ceil")
    assert ph.kick_damage(57, np.array([0, 1]), floor).tolist() == [11, 5]
    assert ph.kick_damage(57, np.array([0, 1]), ceil).tolist() == [12, 6]
    assert (ph.hatchet_damage(57, floor), ph.hatchet_damage(57, ceil)) == (11, 12)
    for rules in ("floor", "ceil"):
        scn, comp, xs, fss = _setup({"unit_a": HCT, "unit_b": HBK,
                                     "per_5_tons_rounding": rules})
        p = _choose(scn, comp, xs, fss)
        assert (p.kick_dmg == 9).all() and (p.dmg[ph.HATCHET] == 9).all()


@pytest.mark.parametrize("table", ["standard", "kick"])
def test_aimed_hatchet(table: str) -> None:
    """D11: the hatchet (an aimable club) aimed at the kick table: +4 to hit (TN 4 -> 8, or
    +club_aimed_mod) and every hit lands on a leg; unaimed, on the standard table."""
    n = 400
    scn, comp, xs, fss = _setup({"unit_a": HCT, "unit_b": HBK, "club_table": table}, n)
    p = _choose(scn, comp, xs, fss)
    tn = 4 if table == "standard" else 8
    assert (p.tn[ph.HATCHET] == tn).all() and _oracle(scn)["hatchet"][0] == tn
    if table == "kick":
        scn2, comp2, xs2, fss2 = _setup({"unit_a": HCT, "unit_b": HBK, "club_table": "kick",
                                         "club_aimed_mod": 2})
        assert (_choose(scn2, comp2, xs2, fss2).tn[ph.HATCHET] == 6).all()
    p.kind[:] = ph.HATCHET
    before = xs[1].S.copy()
    rng = np.random.default_rng(3)
    K._resolve_physical(rng, scn.a, comp[0], xs[0], scn.b, xs[1], p, SampleChooser(rng))
    lost = before[:, st.ARMOR0:st.ARMOR0 + st.N_ARMOR] - xs[1].S[:, st.ARMOR0:st.ARMOR0
                                                                   + st.N_ARMOR]
    legs = lost[:, [lay.LL, lay.RL]].sum()
    assert lost.sum() > 0
    assert (legs == lost.sum()) == (table == "kick")
    # the oracle's swing lands where the option says too
    r = random.Random(5)
    y = O.Mech(scn.b, scn.duel_rules)
    m = O.Mech(scn.a, scn.duel_rules)
    for _ in range(24):     # 1 point each: never through a leg's 20 armor points
        O._strike(r, m, y, "hatchet", {"hatchet": (2, 1)}, [0, 0], [[], []], 0)
    hit = [loc for loc in range(8) if y.armor[loc] < int(scn.b.layout.armor[loc])]
    assert hit and (set(hit) <= {lay.LL, lay.RL}) == (table == "kick")


@pytest.mark.parametrize("on", [False, True])
def test_quirks_no_arms_bars_the_punch(on: bool) -> None:
    """D21: with quirks on, the Locust (no_arms) cannot punch; its quirks are noted as not
    simulated, no_arms only while the option is off."""
    scn, comp, xs, fss = _setup({"unit_a": LOCUST, "unit_b": HBK, "quirks": on})
    p = _choose(scn, comp, xs, fss)
    assert (p.punch_tn == 13).all() == on and (p.kick_tn <= 12).all()
    assert all(tn == 13 for tn, _ in _oracle(scn)["punch"]) == on
    note = next(x for x in scn.notes if x.startswith(f"{LOCUST}: design quirks"))
    assert ("no_arms" in note) != on and "weak_legs" in note
    scn, comp, xs, fss = _setup({"unit_a": HBK, "unit_b": LOCUST, "quirks": on})
    assert (_choose(scn, comp, xs, fss).punch_tn < 13).all()   # HBK has no no_arms quirk


# -- piloting rolls and falls ----------------------------------------------------------------

def _psr(params: dict[str, Any], n: int, prep: Any, dmg: int, attacks: list[int],
         seed: int = 1) -> tuple[float, float]:
    """P(side A falls) in one phase with ``dmg`` damage and attack triggers of modifiers
    ``attacks``: (kernel over ``n`` rows, oracle over ``n // 4`` duels)."""
    scn = build({"unit_a": unarmed(HBK), "unit_b": WVR, "range": 1, "tac": False, **params})
    c = K.compile_side(scn.a, scn.duel_rules)
    x = K._State.fresh(scn.a, n, 0)
    prep(x)
    snap = K._snapshot(scn.a, x.S)
    rng = np.random.default_rng(seed)
    one = np.ones(n, np.int64)
    K._psr_phase(rng, scn.a, c, x, snap, np.full(n, dmg), np.ones(n, bool),
                 SampleChooser(rng), [(one, one * m) for m in attacks])
    r = random.Random(seed)
    falls = 0
    for _ in range(n // 4):
        m = O.Mech(scn.a, scn.duel_rules)
        prep(m)
        O._psrs(r, m, O._snap(m), dmg, list(attacks))
        falls += m.fell
    return float(x.fell.mean()), falls / (n // 4)


def _close(got: float, p: float, n: int) -> bool:
    return abs(got - p) <= 4 * np.sqrt(p * (1 - p) / n) + 1e-9


@pytest.mark.parametrize("reading", ["cumulative", "own"])
def test_psr_modifiers_two_triggers(reading: str) -> None:
    """D19: charged (+2) and 20 damage (+1) in one phase, Piloting 5: cumulative, two rolls
    each at 8 (fall 1 - (15/36)^2); own, one at 6 and one at 7 (1 - 26/36 x 21/36)."""
    p = 1 - (15 / 36) ** 2 if reading == "cumulative" else 1 - 26 * 21 / 36 ** 2
    n = 4000
    k, o = _psr({"psr_modifiers": reading}, n, lambda x: None, 20, [2])
    assert _close(k, p, n) and _close(o, p, n // 4), (k, o, p)


@pytest.mark.parametrize("reading", ["auto-fail", "roll"])
def test_immobile_psr_shut_down_and_kicked(reading: str) -> None:
    """D22: a shut-down 'Mech that is kicked (+0) falls for sure under auto-fail, and with
    P(2D6 < 5) = 6/36 when it rolls; its 'best' fail chance says the same."""
    def shut(x: Any) -> None:
        if isinstance(x, K._State):
            x.shut[:] = True
        else:
            x.shut = True

    p = 1.0 if reading == "auto-fail" else 6 / 36
    n = 4000
    k, o = _psr({"immobile_psr": reading}, n, shut, 0, [0])
    assert _close(k, p, n) and _close(o, p, n // 4), (k, o, p)
    scn = build({"unit_a": unarmed(HBK), "unit_b": WVR, "immobile_psr": reading})
    x = K._State.fresh(scn.a, 2, 0)
    x.shut[:] = True
    assert K._psr_fail(scn.a, x, 0, np.zeros(2, np.int64)) == pytest.approx([p, p])
    m = O.Mech(scn.a, scn.duel_rules)
    m.shut = True
    assert O._fail(m, 0) == pytest.approx(p)


@pytest.mark.parametrize("reading", ["tw", "megamek"])
def test_fall_pilot_damage_after_a_failed_roll(reading: str) -> None:
    """D10: a fall after a failed PSR at TN 8 (Piloting 5 + charged 2 + 20 damage 1): the
    MechWarrior's roll is at Piloting + pre-existing = 5 (TW: hurt 6/36) or at the failed
    roll's 8 (MegaMek: hurt 21/36). With TAC off the 5-point fall group only adds a head
    hit (1/36 x 1 point): E[pilot damage] = 1/36 + P(hurt)."""
    n = 6000
    scn = build({"unit_a": unarmed(HBK), "unit_b": WVR, "fall_pilot_damage": reading,
                 "tac": False})
    c = K.compile_side(scn.a, scn.duel_rules)
    x = K._State.fresh(scn.a, n, 0)
    rng = np.random.default_rng(4)
    K._fall(rng, scn.a, c, x, np.ones(n, bool), SampleChooser(rng), np.full(n, 8))
    q = 6 / 36 if reading == "tw" else 21 / 36
    e = 1 / 36 + q
    sd = np.sqrt(q * (1 - q) / n + (1 / 36) / n)
    assert abs(x.S[:, st.PILOT].mean() - e) < 4 * sd
    r = random.Random(4)
    tot = 0
    for _ in range(n // 4):
        m = O.Mech(scn.a, scn.duel_rules)
        O._fall(r, m, 8)
        tot += m.pilot
    assert abs(tot / (n // 4) - e) < 8 * sd


@pytest.mark.parametrize("reading,q", [("tw", 15 / 36), ("megamek", 10 / 36)])
def test_fall_pilot_damage_after_a_missed_dfa(reading: str, q: float) -> None:
    """D10, a missed DFA (a 2-level fall): TW Piloting + pre-existing + 2 = 7 (hurt 15/36);
    MegaMek + 1 = 6 (hurt 10/36). The 18 points fall in 4 groups (1/36 head hit each)."""
    n = 6000
    scn = build({"unit_a": unarmed(WVR), "unit_b": HBK, "fall_pilot_damage": reading,
                 "tac": False})
    x = K._State.fresh(scn.a, n, 0)
    rng = np.random.default_rng(6)
    K._dfa_miss_fall(rng, scn.a, x, np.ones(n, bool), SampleChooser(rng))
    e = 4 / 36 + q
    assert abs(x.S[:, st.PILOT].mean() - e) < 4 * np.sqrt((q * (1 - q) + 4 / 36) / n)


@pytest.mark.parametrize("on", [True, False])
def test_pilot_damage_off_spares_the_mechwarrior_in_falls(on: bool) -> None:
    """ClassicRules ``pilot_damage`` off: a fall never costs the MechWarrior a point, not
    even the automatic one of a shut-down 'Mech (head hits from the fall group still do)."""
    n = 500
    scn = build({"unit_a": unarmed(HBK), "unit_b": WVR, "pilot_damage": on, "tac": False})
    c = K.compile_side(scn.a, scn.duel_rules)
    x = K._State.fresh(scn.a, n, 0)
    x.shut[:] = True
    rng = np.random.default_rng(2)
    K._fall(rng, scn.a, c, x, np.ones(n, bool), SampleChooser(rng), np.full(n, 5))
    head = x.S[:, st.ARMOR0 + lay.HD] < int(scn.a.layout.armor[lay.HD])
    assert (x.S[:, st.PILOT] == head.astype(np.int64) + int(on)).all()
    r = random.Random(2)
    m = O.Mech(scn.a, scn.duel_rules)
    m.shut = True
    O._fall(r, m, 5)
    assert m.pilot == int(m.armor[lay.HD] < int(scn.a.layout.armor[lay.HD])) + on


@pytest.mark.parametrize("on", [True, False])
def test_tac_switch(on: bool) -> None:
    """ClassicRules ``tac``: a 2 on the standard table is a through-armor critical chance
    (1/36 of the rolls) only when on, in the kernel's location roll and the oracle's."""
    n = 36000
    _, _, tac = K.roll_locations(np.random.default_rng(1), np.zeros(n, np.int64), False, on)
    assert abs(tac.mean() - on / 36) < 4 * np.sqrt(1 / 36 / n)
    scn = build({"unit_a": HBK, "unit_b": WVR, "tac": on})
    r = random.Random(1)
    crits = 0
    for _ in range(1500):
        m = O.Mech(scn.a, scn.duel_rules)
        m.group(r, "front", 1)       # one point never gets through the armor
        crits += sum(len(h) for h in m.hit)
    assert (crits > 0) == on


# -- the kernel and the oracle agree with many options away from their defaults --------------

def test_kernel_matches_oracle_with_physical_options_away_from_default() -> None:
    """A jumping Wolverine (DFA rounded down) against a Locust that cannot punch (quirks),
    with PSRs at their own modifiers, shut-down 'Mechs rolling, the MechWarrior's fall roll
    at the failed roll's number, no TAC and no punch minimum."""
    _compare({"unit_a": WVR, "unit_b": LOCUST, "range": 1, "moved_a": "jump",
              "dfa_rounding": "floor-then-times-3", "psr_modifiers": "own",
              "immobile_psr": "roll", "fall_pilot_damage": "megamek", "tac": False,
              "quirks": True, "punch_min_damage": 0, "hand_and_lower_arm_missing_mod": 2},
             1200, 12000)
