"""Fuzz ``btsim heat`` and ``btsim attack`` options in-process (issue 9): any input, valid or
not, ends in exit 0 or a clean exit 2 with one line on stderr; never another exception.

Each option is left out, given a valid value, or (rarely, so that most examples get past
validation and run the model) an invalid one. Hypothesis runs derandomized
(tests/conftest.py), so the examples are the same on every run.
"""

from __future__ import annotations

import contextlib
import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.alphastrike.rules import FIELDS as AS_FIELDS
from sim.classic import tables as T
from sim.classic.rules import OPTION_NAMES, RULE_SETS
from sim.cli import main

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
RARE = 13
BAD = st.sampled_from(["", "x", "-1", "99", "1.5", "a=b", ",", "none"])


def _run(argv: list[str]) -> int:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse usage errors
            code = exc.code  # type: ignore[assignment]
    assert code in (0, 2), (argv, code, err.getvalue())
    if code == 2:
        lines = err.getvalue().strip().splitlines()
        assert lines and "Traceback" not in err.getvalue(), (argv, err.getvalue())
        assert len(lines) == 1 or lines[0].startswith("usage:"), (argv, err.getvalue())
    return int(code)


def _opt(draw: st.DrawFn, flag: str, valid: st.SearchStrategy[str],
         invalid: st.SearchStrategy[str] = BAD) -> list[str]:
    """Left out (40%), valid (55%) or invalid (5%). (Hypothesis favours small and boundary
    values, so the rare branch sits in the middle of the roll's range.)"""
    roll = draw(st.integers(0, 19))
    if roll < 8:
        return []
    return [flag, draw(invalid if roll == RARE else valid)]


def _flag(draw: st.DrawFn, flag: str) -> list[str]:
    return [flag] if draw(st.integers(0, 3)) == 2 else []


def _ints(lo: int, hi: int) -> st.SearchStrategy[str]:
    return st.integers(lo, hi).map(str)


_INCOMING = st.one_of(
    st.builds(lambda tn, dmg, ht: f"tn={tn},dmg={dmg},ht={ht}", st.integers(2, 12),
              st.integers(0, 30), st.integers(0, 3)),
    st.builds(lambda sk, dmg, rng: f"skill={sk},dmg={dmg},range={rng}", st.integers(0, 8),
              st.integers(0, 30), st.sampled_from(["short", "medium", "long"])),
)
_AS_VALUES = st.sampled_from(["0", "1", "2", "3", "true", "false", "steps", "none", "x"])


@st.composite
def heat_argv(draw: st.DrawFn) -> list[str]:
    argv = ["heat"]
    argv += _opt(draw, "--unit", st.sampled_from(["Loki (Hellbringer) Prime", "Atlas AS7-D"]),
                 st.sampled_from(["No Such Mech", ""]))
    argv += _opt(draw, "--ov", _ints(0, 4), _ints(-1, 6))
    argv += _opt(draw, "--policy", st.sampled_from(["max", "hold", "never", "fixed:2",
                                                    "below:2", "below:4"]),
                 st.sampled_from(["fixed:9", "below:-1", "bogus"]))
    turns = draw(_ints(1, 4)) if draw(st.integers(0, 19)) != RARE else "0"
    argv += ["--turns", turns]
    argv += _opt(draw, "--start-heat", _ints(0, 4), _ints(-1, 5))
    water = _flag(draw, "--water")
    argv += water
    if water or draw(st.integers(0, 19)) == RARE:  # without --water: an error
        argv += _opt(draw, "--water-depth", _ints(0, 20), _ints(-2, 30))
    argv += _opt(draw, "--range", st.sampled_from(["short", "medium", "long", "extreme"]),
                 st.just("near"))
    argv += _opt(draw, "--skill", _ints(0, 8), _ints(-1, 9))
    for inc in draw(st.lists(_INCOMING, max_size=9)):
        argv += ["--incoming", inc]
    if draw(st.integers(0, 19)) == RARE:
        argv += ["--incoming", draw(st.sampled_from(["tn=8", "dmg=31", "tn=x,dmg=1", "q=1"]))]
    argv += _opt(draw, "--rules", st.sampled_from(["default", "seed"]), st.just("megamek"))
    argv += _opt(draw, "--movement", st.sampled_from(["ground", "jump", "stand"]))
    argv += _opt(draw, "--target-tmm", _ints(0, 6), _ints(-1, 7))
    argv += _opt(draw, "--physical", st.sampled_from(["none", "standard", "melee"]))
    argv += _opt(draw, "--protection", st.sampled_from(["card", "none", "CASE", "CASEII",
                                                        "ENE"]), st.just("foam"))
    if draw(st.integers(0, 3)) == 2:
        key = draw(st.sampled_from([*AS_FIELDS, "nope"]))
        argv += ["--option", f"{key}={draw(_AS_VALUES)}"]
    if draw(st.booleans()):
        argv += ["--trials", draw(_ints(1, 300)) if draw(st.integers(0, 19)) != RARE else "0"]
        argv += _opt(draw, "--chunk-size", _ints(1, 200), _ints(-1, 0))
        argv += _opt(draw, "--seed", _ints(0, 5), _ints(-2, -1))
    elif draw(st.integers(0, 19)) == RARE:
        argv += ["--seed", "1"]  # without --trials: an error
    argv += _opt(draw, "--progress", st.sampled_from(["never", "always"]), st.just("often"))
    argv += _flag(draw, "--json")
    return argv


@st.composite
def attack_argv(draw: st.DrawFn) -> list[str]:
    kind = draw(st.sampled_from(T.ATTACKS)) if draw(st.integers(0, 19)) != RARE else "bite"
    argv = ["attack", kind]
    argv += _opt(draw, "--tons", st.integers(4, 20).map(lambda k: str(5 * k)), _ints(15, 105))
    argv += _opt(draw, "--piloting", _ints(0, 8), _ints(-1, 9))
    argv += _opt(draw, "--target-tons", st.integers(4, 20).map(lambda k: str(5 * k)))
    argv += _opt(draw, "--target-piloting", _ints(0, 8), _ints(-1, 9))
    argv += _opt(draw, "--arm", st.sampled_from(["left", "right", "both"]), st.just("middle"))
    acts = st.lists(st.sampled_from([*T.ACTUATORS, "left-hand", "right-foot"]), min_size=1,
                    max_size=3).map(",".join)
    bad_acts = st.sampled_from(["tail", "hand,tail", "left-left-hand"])
    argv += _opt(draw, "--damaged", acts, bad_acts)
    argv += _opt(draw, "--missing", acts, bad_acts)
    argv += _opt(draw, "--moved", st.sampled_from(["stand", "walk", "run", "jump"]))
    argv += _opt(draw, "--target-hexes", _ints(0, 25), _ints(-2, -1))
    for flag in ("--target-jumped", "--target-prone", "--target-immobile",
                 "--target-partial-cover", "--attacker-prone", "--displacement-prohibited",
                 "--mutual-push"):
        argv += _flag(draw, flag)
    argv += _opt(draw, "--terrain", st.sampled_from(["clear", "light-woods", "heavy-woods"]))
    argv += _opt(draw, "--side", st.sampled_from(["front", "left", "right", "rear"]))
    if kind == "charge":
        argv += ["--hexes", draw(_ints(0, 12))]
    elif draw(st.integers(0, 19)) == RARE:  # only a charge takes --hexes
        argv += ["--hexes", "3"]
    if draw(st.integers(0, 3)) == 2:
        argv.append(draw(st.sampled_from(["--tsm", "--no-tsm"])))
    argv += _opt(draw, "--rules", st.sampled_from(RULE_SETS), st.just("house"))
    if draw(st.integers(0, 3)) == 2:
        key = draw(st.sampled_from([*OPTION_NAMES, "nope"]))
        value = draw(st.sampled_from(["0", "1", "2", "true", "false", "up", "down", "x"]))
        argv += ["--rule", f"{key}={value}"]
    argv += _opt(draw, "--attacker", st.sampled_from(["Catapult CPLT-C1", "Atlas AS7-D"]),
                 st.just("Nope"))
    argv += _opt(draw, "--target", st.sampled_from(["Grasshopper GHR-5H", "Locust LCT-1V"]),
                 st.just("Nope"))
    argv += _opt(draw, "--target-damaged", st.sampled_from(["gyro", "hip", "foot,lower-leg"]),
                 bad_acts)
    argv += _opt(draw, "--target-level", _ints(-1, 1), _ints(-3, 3))
    argv += _opt(draw, "--fired", st.sampled_from(["left-arm", "right-leg,torso"]),
                 st.just("head"))
    if draw(st.booleans()):
        argv += ["--trials", draw(_ints(1, 300)) if draw(st.integers(0, 19)) != RARE else "x"]
        argv += _opt(draw, "--chunk-size", _ints(1, 200), _ints(-1, 0))
        argv += _opt(draw, "--jobs", st.just("1"), st.sampled_from(["0", "-2"]))
        argv += _opt(draw, "--seed", _ints(0, 5), _ints(-2, -1))
    elif draw(st.integers(0, 19)) == RARE:
        argv += ["--seed", "1"]  # without --trials: an error
    argv += _opt(draw, "--progress", st.sampled_from(["never", "always"]), st.just("often"))
    argv += _flag(draw, "--json")
    return argv


@SETTINGS
@given(heat_argv())
def test_heat_options_never_crash(argv: list[str]) -> None:
    _run(argv)


@SETTINGS
@given(attack_argv())
def test_attack_options_never_crash(argv: list[str]) -> None:
    _run(argv)


def test_the_fuzz_reaches_the_models() -> None:
    """Most generated command lines are valid and run (else the fuzz tests only parsing)."""
    from hypothesis import Phase, find

    quick = settings(max_examples=200, deadline=None, database=None, phases=[Phase.generate])
    for strategy in (heat_argv(), attack_argv()):
        for mc in (True, False):
            find(strategy, lambda argv, mc=mc: ("--trials" in argv) == mc and _run(argv) == 0,
                 settings=quick)
