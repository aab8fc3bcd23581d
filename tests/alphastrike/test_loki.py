"""The seed's worked example (rules reference 6.5, test vector 7.16): Loki Prime overheats by
2 -> heat 2 with its effects next turn -> OV 2 again -> shutdown -> one turn immobile ->
heat 0 and restart."""

from __future__ import annotations

import numpy as np
import pytest
from as_helpers import LOKI, card, exact, scenario

from sim.alphastrike.turn import Tables, decide, end_phase, initial_state, start_turn


def _turn(tu, scn, tab, turn):
    dec = decide(tu, scn, turn)
    idx = tab.index(tu)
    start_turn(tu, scn, tab.tmod[idx], dec)
    info = {"fired": bool(dec.fired[0]), "ov": int(dec.ov[0]), "dmg": int(dec.dmg[0]),
            "tn": int(tab.tn_weapon[idx][0]), "tmod": int(tab.tmod[idx][0]),
            "attacking": bool(dec.attacking[0])}
    end_phase(tu, scn)
    info["heat_after"] = int(tu["heat"][0])
    return info


def test_loki_step_by_step() -> None:
    scn = scenario(unit=LOKI, policy="fixed:2", turns=4)
    assert scn.ov_cap == 3                     # it could have used 3
    tab = Tables.of(scn)
    tu = initial_state(scn, 1)
    t1 = _turn(tu, scn, tab, 1)
    # Turn N: skill 4 + medium 2 + target TMM 2 = 8; OV 2 adds 2 damage; heat 0 -> 2
    assert t1 == {"fired": True, "ov": 2, "dmg": 6, "tn": 8, "tmod": 2, "attacking": True,
                  "heat_after": 2}
    t2 = _turn(tu, scn, tab, 2)
    # Turn N+1 at heat 2: weapon TN +2, TMM -1 (2 -> 1); OV 2 again: 2 + 2 = 4 -> shut down
    assert t2["tn"] == 10 and t2["tmod"] == 1 and t2["ov"] == 2 and t2["heat_after"] == 4
    assert tu["ever"][0]
    t3 = _turn(tu, scn, tab, 3)
    # Turn N+2: shut down: no move, no attack, immobile (-4); End Phase: heat 0, restart
    assert not t3["attacking"] and t3["tmod"] == -4 and t3["heat_after"] == 0
    t4 = _turn(tu, scn, tab, 4)
    assert t4["fired"] and t4["tn"] == 8 and t4["heat_after"] == 2


def test_loki_exact_curves() -> None:
    ex = exact(unit=LOKI, policy="fixed:2", turns=4)
    np.testing.assert_allclose(ex["p_heat_2"], [1, 0, 0, 1])
    np.testing.assert_allclose(ex["p_heat_4"], [0, 1, 0, 0])
    np.testing.assert_allclose(ex["p_shutdown"], [0, 1, 0, 0])
    np.testing.assert_allclose(ex["p_heat_0"], [0, 0, 1, 0])
    np.testing.assert_allclose(ex["p_shutdown_by"], [0, 1, 1, 1])
    # damage: 15/36 x 6, then 6/36 x 6 at heat 2 (TN 10), nothing while shut down
    np.testing.assert_allclose(ex["expected_damage"], [15 / 36 * 6, 6 / 36 * 6, 0, 15 / 36 * 6])
    np.testing.assert_allclose(ex["expected_first_shutdown_turn"], [2.0])
    np.testing.assert_allclose(ex["mean_heat"], [2, 4, 0, 2])


def test_loki_holds_heat_two_firing_without_ov() -> None:
    """"It stays at heat 2 while it keeps firing without OV and stays out of deep water"."""
    ex = exact(unit=LOKI, policy="never", start_heat=2, turns=5)
    np.testing.assert_allclose(ex["p_heat_2"], 1.0)
    ex = exact(unit=LOKI, policy="hold", start_heat=2, turns=2)
    np.testing.assert_allclose(ex["p_heat_0"], 1.0)           # gives up weapon fire -> 0
    ex = exact(unit=LOKI, policy="never", start_heat=2, turns=2, water=True)
    np.testing.assert_allclose(ex["p_heat_1"], [1.0, 0.0])    # deep water cools 1 per turn
    np.testing.assert_allclose(ex["p_heat_0"], [0.0, 1.0])


def test_shut_down_unit_is_hit_at_minus_four() -> None:
    """Attackers get -4 against the shut-down unit (ref 6.3): a TN 12 attack (1/36) becomes
    TN 12 - 2 (its TMM) - 4 = 6 (26/36) in the turn it sits out."""
    one_hit = card(armor=0, structure=1, specials="CASE")
    ex = exact(unit=one_hit, policy="fixed:2", start_heat=2, turns=2,
               incoming=["tn=12,dmg=1"])
    assert ex["p_destroyed_by"][0] == pytest.approx(3 / 36)   # heat 2: TMM 2 - 1 -> TN 11
    assert ex["p_destroyed_by"][1] == pytest.approx(3 / 36 + (33 / 36) * (26 / 36))


@pytest.mark.parametrize("heat,move,expected_tmod,expected_amod", [
    (1, 4, 2, 0),     # 4" - 2" = 2": still moves, TMM 2
    (2, 6, 1, 0),     # 6" - 4" = 2": moves, TMM 2 - 1 (D1)
    (2, 4, -4, -1),   # 4" - 4" = 0" and no jump: immobile (-4); stands still for its attack
])
def test_heat_costs_two_inches_per_level(heat, move, expected_tmod, expected_amod) -> None:
    scn = scenario(unit=card(move=move, tmm=2), policy="never")
    assert (scn.tmod[heat][0], scn.amod[heat][0]) == (expected_tmod, expected_amod)


def test_jumping_ignores_heat_and_d1_threshold() -> None:
    jumper = card(jump=8)
    scn = scenario(unit=jumper, movement="jump")
    assert [scn.tmod[h][0] for h in range(5)] == [3, 3, 3, 3, -4]  # TMM + 1, heat-free
    assert scn.amod[0][0] == 2
    ground = scenario(unit=jumper)
    assert [ground.tmod[h][0] for h in range(5)] == [2, 2, 1, 1, -4]  # D1 default: >= 2
    seed = scenario(unit=jumper, rules="seed")
    assert [seed.tmod[h][0] for h in range(5)] == [2, 2, 2, 1, -4]    # D1 seed: > 2
    # with jump Move left, a ground unit out of ground Move just stands (not immobile)
    slow = scenario(unit=card(move=4, jump=4))
    assert slow.tmod[2][0] == 0 and slow.amod[2][0] == -1
