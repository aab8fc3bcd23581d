"""One view of a Classic duel: ``sim.classic_duel(...).to_dict()`` is the ``--json``
document of ``btsim classic-duel`` and ``btsim duel --game classic``, with the issue's
metric names, each estimate with its standard error and 95% interval."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import sim
from sim.classic.duel.api import cause_metrics, to_text

HBK, WVR = "Hunchback HBK-4G", "Wolverine WVR-6R"
ARGS = [HBK, WVR, "--range", "6", "--turns", "3", "--trials", "200", "--seed", "3",
        "--rule", "crit_on_destroying_group=false", "--json"]


@pytest.fixture(scope="module")
def api_doc() -> dict:
    res = sim.classic_duel(HBK, WVR, range=6, turns=3, trials=200, seed=3,
                           rules={"crit_on_destroying_group": False})
    return res.to_dict()


@pytest.mark.parametrize("cmd", [["classic-duel"], ["duel", "--game", "classic"]])
def test_api_to_dict_equals_cli_json(api_doc: dict, cmd: list[str]) -> None:
    p = subprocess.run([sys.executable, "-m", "sim", *cmd, *ARGS], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == api_doc


def test_default_turns_are_the_same_by_every_door() -> None:
    """Without a turn limit, ``sim.classic_duel``, ``btsim classic-duel`` and ``btsim duel
    --game classic`` (whose Alpha Strike default is 30) all run DEFAULT_TURNS, the
    scenario's own default."""
    from sim.classic.duel.api import DEFAULT_TURNS
    from sim.classic.duel.scenario import build

    assert build({"unit_a": HBK, "unit_b": WVR}).turns == DEFAULT_TURNS
    doc = sim.classic_duel(HBK, WVR, range=6, trials=60, seed=4).to_dict()
    assert doc["params"]["turns"] == DEFAULT_TURNS and len(doc["turns"]) == DEFAULT_TURNS
    for cmd in (["classic-duel"], ["duel", "--game", "classic"]):
        p = subprocess.run([sys.executable, "-m", "sim", *cmd, HBK, WVR, "--range", "6",
                            "--trials", "60", "--seed", "4", "--json"], capture_output=True,
                           text=True)
        assert p.returncode == 0, p.stderr
        assert json.loads(p.stdout) == doc, cmd


def test_document_has_the_issue_metrics_with_se_and_ci(api_doc: dict) -> None:
    d = api_doc
    assert d["model"] == "classic-duel" and d["mode"] == "monte-carlo"
    assert d["trials"] == 200 and d["seed"] == 3
    assert d["bv_a"] == 1041 and d["bv_b"] == 1101
    assert d["rule_options"]["crit_on_destroying_group"] is False
    for m in ("p_win_a", "p_win_b", "p_draw", "p_timeout", "expected_turns", "p_fell_a",
              "p_shutdown_by_b", "p_b_destroyed_by_head"):
        lo, v, hi = d[m + "_ci_low"], d[m], d[m + "_ci_high"]
        assert lo - 1e-12 <= v <= hi + 1e-12 and d[m + "_se"] >= 0, m
    assert abs(d["p_win_a"] + d["p_win_b"] + d["p_draw"] + d["p_timeout"] - 1) < 1e-9
    causes = d["p_destroyed_by_cause"]
    assert set(causes) == {"a", "b"}
    assert set(causes["b"]) == set(cause_metrics("b")) >= {"head", "center_torso", "engine",
                                                          "pilot", "ammunition"}
    for s in "ab":
        for c, est in causes[s].items():
            assert set(est) == {"p", "se", "ci_low", "ci_high"}
            assert est["p"] == d[f"p_{s}_destroyed_by_{c}"]
            assert est["ci_low"] == d[f"p_{s}_destroyed_by_{c}_ci_low"]
        assert d["p_fell"][s]["p"] == d[f"p_fell_{s}"]
        assert d["p_shutdown_by"][s]["se"] == d[f"p_shutdown_by_{s}_se"]
    # the causes of B's destruction add up to P(B destroyed by the last turn)
    last = d["turns"][-1]
    assert abs(sum(e["p"] for e in causes["b"].values()) - last["p_b_destroyed_by"]) < 1e-9
    assert [t["turn"] for t in d["turns"]] == [1, 2, 3]
    for t in d["turns"]:
        for m in ("p_a_destroyed_by", "p_b_destroyed_by", "expected_damage_a",
                  "expected_damage_b"):
            assert t[m + "_ci_low"] - 1e-12 <= t[m] <= t[m + "_ci_high"] + 1e-12, (t["turn"], m)
    assert len(d["turns_hist"]) == 4 and abs(sum(d["turns_hist"]) - 1) < 1e-9


def test_legacy_reads_the_document_and_frame_stays() -> None:
    res = sim.classic_duel(HBK, WVR, range=6, turns=2, trials=50, seed=1)
    assert res["p_win_a"] == res.to_dict()["p_win_a"]
    assert list(res.frame["turn"]) == [1, 2]


def test_text_is_readable(api_doc: dict) -> None:
    text = to_text(api_doc)
    assert text.splitlines()[0].startswith(f"{HBK} (A: gunnery 4, piloting 5")
    assert "rules default + crit_on_destroying_group=False" in text
    assert f"P(A wins)   {api_doc['p_win_a']:.3f} ({api_doc['p_win_a_ci_low']:.3f}–" in text
    assert "(95% interval)" in text     # the one convention of text output, in the header
    assert "destroyed by center torso" in text and "fell at least once" in text
    assert all(line == line.rstrip() for line in text.splitlines())


def test_whole_duel_damage_and_trimmed_turn_table() -> None:
    """``expected_damage_total_a/_b`` (with SE and interval) is the sum over turns of the
    per-turn expected damage; the text table stops at the turn every duel has ended by,
    as the Alpha Strike table does, and says so."""
    doc = sim.classic_duel("Locust LCT-1V", "Atlas AS7-D", range=1, trials=120, seed=2,
                           progress="never").to_dict()
    for s in "ab":
        total = doc[f"expected_damage_total_{s}"]
        assert total == pytest.approx(sum(t[f"expected_damage_{s}"] for t in doc["turns"]))
        assert doc[f"expected_damage_total_{s}_se"] > 0
        assert doc[f"expected_damage_total_{s}_ci_low"] <= total
    assert doc["p_timeout"] == 0 and len(doc["turns"]) == 20
    ended = [sum(doc["turns_hist"][:t + 1]) for t in range(1, 21)]
    last = next(t for t, p in enumerate(ended, start=1) if p >= 1 - 1e-9)
    assert last < 20
    text = to_text(doc)
    rows = [ln.split()[0] for ln in text.splitlines() if ln[:4].strip().isdigit()]
    assert rows == [str(t) for t in range(1, last + 1)]
    assert f"every duel had ended by turn {last}" in text
    assert "damage dealt, whole duel" in text
