"""The Classic one-strike path (kick, punch, ...) counts each roll kind on its own
sub-stream, so paired scenarios count over common prefixes of the same bytes (issue 12)."""

from __future__ import annotations

from sim.api import compare


def test_kick_piloting_pairing_keeps_psr_counts_in_step() -> None:
    """Piloting 5 vs 6: the target's PSR counts used to be drawn after a hit-count-dependent
    number of location bytes (about 2.8x lower SE than independent streams here); on their
    own sub-streams they share their bytes (about 5x)."""
    frame = compare("attack", {"piloting": 5}, {"piloting": 6}, {"attack": "kick", "tons": 60},
                    trials=2**15, chunk_size=512, seed=1).set_index("metric")
    ratio = frame["independent_se"] / frame["diff_se"]
    assert ratio["p_target_falls"] > 4.0
    assert ratio["p_attacker_falls"] > 1.2


def test_same_kick_twice_is_identical() -> None:
    frame = compare("attack", {"piloting": 5}, {"piloting": 5}, {"attack": "kick", "tons": 60},
                    trials=2**12, chunk_size=512, seed=2)
    assert (frame["diff"] == 0).all()
