"""The vectorized duel kernel against the independent scalar oracle
(:mod:`sim.oracles.classic_duel`), compared by distribution: the joint histogram of (who won,
turn the duel ended) within its confidence intervals, and the causes of destruction."""

from __future__ import annotations

import numpy as np
import pytest
from classic_duel_helpers import HBK, LOCUST, WVR, only_weapon, unarmed

from sim.classic.damage_state import state as st
from sim.classic.duel import kernel
from sim.classic.duel.rules import OUT_REASONS
from sim.classic.duel.scenario import build
from sim.oracles import scalar_baseline
from sim.oracles.classic_duel import scalar

T = 10


def _bins(dead: np.ndarray, T: int = T) -> np.ndarray:
    """Joint bin of (outcome, end turn): outcome 0 timeout, 1 A wins, 2 B wins, 3 draw."""
    a, b = dead
    out = np.where((a == 0) & (b == 0), 0,
                   np.where((b > 0) & ((a == 0) | (b < a)), 1,
                            np.where((a > 0) & ((b == 0) | (a < b)), 2, 3)))
    end = np.where(out == 0, T + 1, np.where(out == 1, b, np.where(out == 2, a, a)))
    return out * (T + 2) + end


def _sampled(scn, rng: np.random.Generator, n: int) -> dict:
    """Per-trial outcomes from the sampler the model uses: the compiled engine where it
    covers the scenario (issue 21), else the NumPy duel kernel."""
    from sim.classic.engine import sampler
    from sim.classic.engine.compile import supported

    if supported(scn)[0]:
        return sampler.run(scn, rng, n)
    return kernel.run_block(scn, None, rng, n)


def _compare(params: dict, n_oracle: int, n_kernel: int, T: int = T,
             numpy_kernel: bool = False) -> None:
    p = {**params, "turns": T}
    o = scalar(p, np.random.default_rng(11), n_oracle)
    k = (kernel.run_block(build(p), None, np.random.default_rng(12), n_kernel) if numpy_kernel
         else _sampled(build(p), np.random.default_rng(12), n_kernel))
    m = 4 * (T + 2)
    ho = np.bincount(_bins(o["dead_turn"], T), minlength=m) / n_oracle
    hk = np.bincount(_bins(k["dead_turn"], T), minlength=m) / n_kernel
    pool = (ho * n_oracle + hk * n_kernel) / (n_oracle + n_kernel)
    se = np.sqrt(pool * (1 - pool) * (1 / n_oracle + 1 / n_kernel))
    z = np.abs(ho - hk) / np.maximum(se, 1e-12)
    big = pool * n_oracle >= 5          # bins with enough mass for a normal interval
    assert big.sum() >= 3
    assert z[big].max() < 4.5, (np.round(ho, 3), np.round(hk, 3), np.round(z, 1))
    # causes of destruction, per side
    for s in range(2):
        for ci, cause in enumerate(st.CAUSES[1:], start=1):
            po = float(np.mean((o["cause"][s] == cause) & (o["dead_turn"][s] > 0)))
            pk = float(np.mean((k["cause"][s] == ci) & (k["dead_turn"][s] > 0)))
            q = (po * n_oracle + pk * n_kernel) / (n_oracle + n_kernel)
            sd = np.sqrt(q * (1 - q) * (1 / n_oracle + 1 / n_kernel))
            assert abs(po - pk) <= 4.5 * sd + 1e-12, (s, cause, po, pk)
        # out of the fight (C21), per reason
        for oi, reason in enumerate(OUT_REASONS[1:], start=1):
            po = float(np.mean(o["out"][s] == reason))
            pk = float(np.mean(k["out"][s] == oi))
            q = (po * n_oracle + pk * n_kernel) / (n_oracle + n_kernel)
            sd = np.sqrt(q * (1 - q) * (1 / n_oracle + 1 / n_kernel))
            assert abs(po - pk) <= 4.5 * sd + 1e-12, (s, reason, po, pk)


def test_kernel_matches_oracle_weapons_at_range() -> None:
    _compare({"unit_a": HBK, "unit_b": WVR, "range": 6}, 1500, 15000)


def test_numpy_kernel_still_matches_oracle() -> None:
    """The NumPy duel kernel stays the fallback for what the engine does not compile."""
    _compare({"unit_a": HBK, "unit_b": WVR, "range": 1, "moved_a": "walk"}, 1500, 15000,
             numpy_kernel=True)


@pytest.mark.parametrize("pol_a,pol_b", [("max-expected", "neutral"),
                                         ("below:8", "max-expected")])
def test_engine_matches_oracle_under_named_firing_policies(pol_a: str, pol_b: str) -> None:
    """The compiled decision table (issue 21) against the oracle's own Decider calls: at 3
    hexes, walking, the Hunchback's every weapon (15 heat + 1 moving, 13 sinks) forces a
    choice; the Wolverine's SRM ammunition and the weapons lost to criticals change the
    available set."""
    p = {"unit_a": HBK, "unit_b": WVR, "range": 3, "moved_a": "walk",
         "policy_a": pol_a, "policy_b": pol_b}
    from sim.classic.engine.compile import supported

    assert supported(build({**p, "turns": T}))[0]
    _compare(p, 1200, 12000)


def test_kernel_matches_oracle_brawl_with_physical_attacks() -> None:
    _compare({"unit_a": HBK, "unit_b": WVR, "range": 1, "moved_a": "walk"}, 1500, 15000)


def test_kernel_matches_oracle_fists_and_feet_only() -> None:
    _compare({"unit_a": unarmed(HBK), "unit_b": unarmed(LOCUST), "range": 1}, 1200, 12000)


def test_kernel_matches_oracle_core_explosions_and_advanced_criticals() -> None:
    """C15, C28 and C30 away from their defaults, in both implementations."""
    _compare({"unit_a": HBK, "unit_b": WVR, "range": 3, "explosion_size": "core",
              "advanced_criticals": True, "location_roll_two": "floating"}, 1200, 12000)


def test_kernel_matches_oracle_crippled_and_other_non_default_options() -> None:
    """C21 crippled with every other duel option at its non-default reading (C1 core, C2
    end, C7 damaged, C12 never, C14 core, C22 on, one consciousness roll per turn)."""
    _compare({"unit_a": HBK, "unit_b": WVR, "range": 3, "out_of_fight": "crippled",
              "life_support_heat": "core", "restart_phase": "end", "ac_first_crit": "damaged",
              "unconscious_restart": "never", "stand_heat": "core",
              "engine_heat_while_shutdown": True, "consciousness_rolls": "once_per_turn"},
             1200, 12000)


def test_kernel_matches_oracle_unconscious_ends_the_fight() -> None:
    """C21 unconscious at range 1 (kicks, falls and head hits hurt the pilot), consciousness
    rolled per point (the default)."""
    _compare({"unit_a": HBK, "unit_b": WVR, "range": 1, "out_of_fight": "unconscious"},
             1200, 12000)


def test_kernel_matches_oracle_immobile_unarmed() -> None:
    """One weapon each at range 1: kicks take legs and the SRM runs dry (C21)."""
    _compare({"unit_a": only_weapon(HBK, "IS AC/20"), "unit_b": only_weapon(WVR, "IS SRM 6"),
              "range": 1, "out_of_fight": "immobile_unarmed"}, 1200, 12000)


def test_kernel_matches_oracle_hatchet_brawl() -> None:
    _compare({"unit_a": "Hatchetman HCT-3F", "unit_b": HBK, "range": 1, "moved_a": "walk"},
             1200, 12000)


def test_kernel_matches_oracle_charge_and_dfa() -> None:
    # B runs (may charge), A jumps (may DFA): both declarations, self-damage, 2-level falls
    _compare({"unit_a": unarmed(WVR), "unit_b": unarmed(HBK), "range": 1, "moved_a": "jump",
              "moved_b": "run", "knockdown_value": "fall-and-prone"}, 1200, 12000, T=25)
    # the kernel really declares and resolves charges and DFAs in this duel (falls are their
    # trace; the oracle returns no falls, its agreement is the histogram above)
    p = {"unit_a": unarmed(WVR), "unit_b": unarmed(HBK), "range": 1, "moved_a": "jump",
         "moved_b": "run", "turns": 3}
    k = _sampled(build(p), np.random.default_rng(4), 3000)
    assert k["fell"][0].mean() > 0.3


def test_oracle_is_the_benchmark_baseline() -> None:
    fn = scalar_baseline("classic-duel")
    assert fn is scalar


@pytest.mark.parametrize("bad", [{"unit_a": HBK}, {"unit_a": HBK, "unit_b": WVR, "range": 0}])
def test_oracle_rejects_bad_input_like_the_model(bad: dict) -> None:
    from sim.errors import UserError

    with pytest.raises(UserError):
        scalar(bad, np.random.default_rng(0), 1)


def _compare_ranges(params: dict, n_oracle: int, n_kernel: int, T: int) -> None:
    """Per turn, the mean range of the duels still running: oracle and kernel within 4.5 SE
    (a constant range in both, as in the first turns of a closing, must be equal)."""
    p = {**params, "turns": T}
    o = scalar(p, np.random.default_rng(21), n_oracle)["range"]
    k = _sampled(build(p), np.random.default_rng(22), n_kernel)["range"]
    compared = 0
    for t in range(T):
        a, b = o[t][o[t] > 0].astype(float), k[t][k[t] > 0].astype(float)
        if a.size < 50 or b.size < 50:
            continue
        se = np.sqrt(a.var() / a.size + b.var() / b.size)
        assert abs(a.mean() - b.mean()) <= 4.5 * se + 1e-12, (t, a.mean(), b.mean(), se)
        compared += 1
    assert compared >= 3


def test_kernel_matches_oracle_closing_with_a_range_per_duel() -> None:
    """closing_mp=current: each duel closes in at the speed its 'Mechs have now. The Loki
    runs hot from range 14 on (heat 21 after its first volley: it runs 2, not 8), so the
    duels spread over ranges 1-14 in turns 3-5 (HBK vs WVR from 15 would not do: every duel
    is adjacent after the first turn)."""
    p = {"unit_a": "Loki (Hellbringer) Prime", "unit_b": "Awesome AWS-8Q", "closing": True,
         "range": 40}
    _compare(p, 1000, 10000, T=8)
    _compare_ranges(p, 400, 4000, T=8)


def test_kernel_matches_oracle_closing_on_the_undamaged_schedule() -> None:
    _compare({"unit_a": "Loki (Hellbringer) Prime", "unit_b": "Awesome AWS-8Q",
              "closing": True, "range": 40, "closing_mp": "undamaged"}, 400, 4000, T=8)
