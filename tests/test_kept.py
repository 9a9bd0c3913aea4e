"""The search's cache of recent values: bounded by weight, the least recently used let go."""

from __future__ import annotations

from reader.search.kept import Kept


def test_the_least_recently_used_go_once_the_weights_pass_the_bound() -> None:
    kept: Kept[list[int]] = Kept(5, len)
    kept.put("a", [1, 2])
    kept.put("b", [1, 2])
    assert kept.get("a") == [1, 2]  # now the most recent: "b" goes first
    kept.put("c", [1, 2])
    assert kept.get("b") is None
    assert kept.get("a") == [1, 2] and kept.get("c") == [1, 2]


def test_the_newest_is_kept_however_heavy_and_a_key_put_again_is_weighed_once() -> None:
    kept: Kept[list[int]] = Kept(3, len)
    kept.put("a", [1])
    kept.put("a", [1, 2])
    kept.put("b", [1])
    assert kept.get("a") == [1, 2] and kept.get("b") == [1]
    kept.put("huge", list(range(10)))
    assert kept.get("huge") is not None and kept.get("a") is None and kept.get("b") is None


def test_counted_one_each_by_default() -> None:
    kept: Kept[str] = Kept(2)
    for key in "xyz":
        kept.put(key, key)
    assert [kept.get(k) for k in "xyz"] == [None, "y", "z"]
