"""A synthetic catalog of rated units for the explorer's size and speed checks: a rating
summary (the columns ``btsim rate`` writes, :data:`sim.explorer.sources.RATING_COLUMNS`)
of ``n`` made-up units in ``root/<name>/ratings.csv``. The numbers are smooth functions of
the unit's index, not a model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd


def rating_summary(root: Path, n: int, name: str = "rating_synth") -> Path:
    """Write the rating summary of ``n`` synthetic units; returns the file."""
    rng = np.random.default_rng(5)
    price = np.round(15 + 40 * rng.random(n))
    fair = price * np.exp(rng.normal(0, 0.2, n))
    half = fair * 0.08
    verdict = np.where(fair - half > price, "under-priced",
                       np.where(fair + half < price, "over-priced", "fair"))
    f = pd.DataFrame({"unit": [f"Synth {k:04d}" for k in range(n)], "price": price,
                      "fair_price": fair, "fair_price_ci_low": fair - half,
                      "fair_price_ci_high": fair + half, "ratio": price / fair,
                      "verdict": verdict, "robustness": rng.choice(["robust", "fragile"], n),
                      "n": np.full(n, 40)})
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    f.to_csv(folder / "ratings.csv", index=False)
    return folder / "ratings.csv"


#: the pairing of the synthetic tactic matrix (both in the synthetic Alpha Strike round-robin)
MATRIX_PAIR = ("Atlas AS7-D", "Locust LCT-1V")
#: the two synthetic forces of the force fight
FORCES = ("Atlas AS7-D@4,Locust LCT-1V@4", "Loki (Hellbringer) Prime@4,Griffin GRF-2N@4")
#: the Classic causes of destruction added to the synthetic Classic round-robin
CAUSES = ("head", "center_torso", "engine", "pilot", "ammunition")


def tactic_matrix_file(root: Path) -> Path:
    """A tactic matrix in the layout ``btsim duel A B --tactics matrix --json`` prints
    (:meth:`sim.tactics.TacticMatrix.to_dict`), saved as ``root/tactics/...json``: two
    tactics a side, Monte Carlo cells (with standard errors), made-up numbers."""
    import json

    from sim import tactics as G

    names = ("competent", "brawler")
    p = {("competent", "competent"): 0.70, ("competent", "brawler"): 0.62,
         ("brawler", "competent"): 0.55, ("brawler", "brawler"): 0.80}
    m = G.play_matrix(lambda ta, tb: G.cell(p[ta, tb], 0.9 - p[ta, tb], 5.5, 0.01, 0.01, 0.05),
                      names)
    folder = root / "tactics"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "atlas_vs_locust.json"
    path.write_text(json.dumps({"a": MATRIX_PAIR[0], "b": MATRIX_PAIR[1],
                                "params": {"range": "short"}, **m.to_dict()}), encoding="utf-8")
    return path


#: the pairing of the synthetic Classic round-robin's recorded tactic matrix (not the
#: Atlas's, whose closest matchups the browser test reads)
CLASSIC_MATRIX_PAIR = ("Hunchback HBK-4G", "Wolverine WVR-6R")


def add_round_robin_matrices(folder: Path) -> None:
    """A Classic round-robin's ``tactic_matrices`` metadata (:mod:`sim.tactic_report`): one
    most surprising pairing at 3 hexes, three tactics a side, Monte Carlo cells with Wilson
    intervals (:func:`sim.tactics.cell_of`), made-up numbers."""
    from sim import tactics as G
    from sim.results import read, write
    from sim.summary import proportion_interval

    frame, meta_ = read(folder)

    def play(ta: str, tb: str) -> G.Cell:
        pa = 0.3 + 0.1 * ("competent", "kite", "sniper").index(ta) - 0.05 * (tb == "kite")
        row = {"p_win_a": pa, "p_win_b": 0.5, "expected_turns": 6.0,
               "expected_turns_se": 0.2, "p_win_a_n": 300}
        for k, p in (("p_win_a", pa), ("p_win_b", 0.5)):
            row[k + "_ci_low"], row[k + "_ci_high"] = proportion_interval(p, 300)
        return G.cell_of(row)

    m = G.play_matrix(play, ("competent", "kite", "sniper"))
    a, b = CLASSIC_MATRIX_PAIR
    meta_["tactic_matrices"] = [{"kind": "most", "a": a, "b": b, "range": "3", "cost": "bv",
                                 "score": 0.6, "expected": 0.45, "surprise": 0.15,
                                 "trials": 300, "matrix": m.to_dict()}]
    write(folder, frame, meta_)


def force_results(root: Path) -> Path:
    """A synthetic force fight (model ``duel``, sides of two units each) at two ranges, in
    the layout ``btsim run`` writes."""
    from report_synth import _duel_metrics, _duel_rows, meta

    from sim.results import write

    rng = np.random.default_rng(3)
    f = pd.concat([_duel_rows(*FORCES, 0.6, 0.1, range=r, policy_a="never")
                   for r in ("short", "long")], ignore_index=True)
    f = f[f["turn"] == 1].drop(columns=["turn"]).reset_index(drop=True)
    f, kinds = _duel_metrics(f, rng, per_turn=False)
    folder = root / "force_fight"
    write(folder, f, meta("force_fight", "duel", f, kinds, "A synthetic force fight"))
    return folder


def add_causes(folder: Path) -> None:
    """The Classic duel's causes of destruction (``p_<side>_destroyed_by_<cause>``, whole
    duel metrics repeated on every per-turn row) added to a synthetic Classic round-robin."""
    from report_synth import add_metric

    from sim.results import read, write

    frame, meta_ = read(folder)
    rng = np.random.default_rng(4)
    kinds = dict(frame.attrs.get("metric_kinds") or meta_.get("metric_kinds") or {})
    new: dict[str, np.ndarray] = {}
    scratch = pd.DataFrame(index=frame.index)
    for s, win in (("a", "p_win_b"), ("b", "p_win_a")):
        base = frame[win + "_exact"].to_numpy(float)
        for k, c in enumerate(CAUSES):
            add_metric(scratch, f"p_{s}_destroyed_by_{c}", base * (0.4 if k == 0 else 0.15),
                       "probability", rng, kinds)
    new = {c: scratch[c].to_numpy() for c in scratch.columns}
    frame = pd.concat([frame, pd.DataFrame(new, index=frame.index)], axis=1)
    frame.attrs["metric_kinds"] = kinds
    meta_["metric_kinds"] = kinds
    write(folder, frame, meta_)
