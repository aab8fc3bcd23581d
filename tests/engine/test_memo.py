"""sim.memo.WeightedLRU: the bounded memo of the Classic duel's sides and engine arrays."""

import pytest

from sim.memo import WeightedLRU


def test_evicts_least_recently_used_past_the_weight_budget() -> None:
    m: WeightedLRU[str, int] = WeightedLRU(max_items=10, max_weight=10)
    m.put("a", 1, 4)
    m.put("b", 2, 4)
    assert m.get("a") == 1          # now "b" is the oldest
    m.put("c", 3, 4)                # 12 > 10: "b" goes
    assert "b" not in m and m.get("a") == 1 and m.get("c") == 3
    assert m.weight == 8 and len(m) == 2


def test_count_bound_and_heavy_entries() -> None:
    m: WeightedLRU[int, int] = WeightedLRU(max_items=3, max_weight=100)
    for k in range(5):
        m.put(k, k)
    assert [k for k in range(5) if k in m] == [2, 3, 4]
    m.put(9, 9, 101)                # heavier than the whole budget: not kept
    assert 9 not in m and len(m) == 3
    m.put(3, 30, 50)                # replacing an entry re-weighs it
    assert m.get(3) == 30 and m.weight == 52
    m.clear()
    assert len(m) == 0 and m.weight == 0 and m.get(2) is None


def test_bounds_must_be_positive() -> None:
    with pytest.raises(ValueError):
        WeightedLRU(0, 1)


def test_duel_side_cache_is_bounded_by_situations() -> None:
    """A tactics scenario's sides count one per fire situation, so the memo of sides stays
    under its situation budget whatever the number of scenarios built."""
    from sim.classic.duel import scenario as S

    S.build({"unit_a": "Atlas AS7-D", "unit_b": "Locust LCT-1V", "range": 5, "turns": 2})
    assert 0 < S._SIDES.weight <= S.SIDE_CACHE_SITUATIONS
    assert S._SIDES.max_weight == S.SIDE_CACHE_SITUATIONS
    assert 0 < len(S._FIRE) <= S.FIRE_CACHE_SITUATIONS      # its fire situations, shared
    assert S._FIRE.max_items == S._FIRE.max_weight == S.FIRE_CACHE_SITUATIONS
