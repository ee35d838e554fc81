"""One bounded cache facility: explicit keys, a bound, statistics; no module-level cache dict."""

from __future__ import annotations

import ast
import gc
from pathlib import Path

from tactica.engine.caching import Cache, SmallKeys, cache_stats, clear_caches

SRC = Path(__file__).resolve().parents[2] / "src" / "tactica"


def test_a_cache_is_bounded_and_counts_hits_misses_and_clears() -> None:
    cache: Cache[tuple[int, int], int] = Cache("test.sums", maxsize=3)
    assert cache.get((1, 2)) is None
    assert cache.put((1, 2), 3) == 3 and cache.get((1, 2)) == 3
    for k in range(3, 6):
        cache.put((k, k), 2 * k)
        assert len(cache) <= 3
    assert cache.get((1, 2)) is None  # emptied when full
    stats = cache.stats()
    assert (stats.name, stats.maxsize, stats.hits, stats.misses, stats.clears) == \
        ("test.sums", 3, 1, 2, 1)
    assert stats in cache_stats()
    cache.put((9, 9), 18)
    cache.put((9, 9), 18)  # an existing key does not empty a full cache
    assert cache.get((9, 9)) == 18


def test_small_keys_never_give_one_number_to_two_objects() -> None:
    keys = SmallKeys("test.objects", maxsize=2)

    class Thing:
        pass

    a, b = Thing(), Thing()
    first = keys.key_of(a)
    assert keys.key_of(a) == first and keys.key_of(b) != first
    seen = {first, keys.key_of(b)}
    for _ in range(50):  # objects come and go; their ids are reused, their numbers are not
        thing = Thing()
        number = keys.key_of(thing)
        assert number not in seen
        seen.add(number)
        del thing
        gc.collect()
    by_value = SmallKeys("test.values", maxsize=4, by_value=True)
    assert by_value.key_of(("NEB-3", "x")) == by_value.key_of(("NEB-3", "x"))
    clear_caches()
    assert len(keys) == 0 and keys.key_of(a) not in seen


def test_the_games_caches_are_listed_with_their_figures() -> None:
    import tactica.rulesets.last_odyssey.policy
    import tactica.rulesets.nebulia.geometry  # noqa: F401

    names = {s.name for s in cache_stats()}
    assert {"nebulia.reach", "nebulia.paths", "last-odyssey.target-values",
            "last-odyssey.objects"} <= names
    assert all(s.size <= s.maxsize for s in cache_stats())


#: Module-level dicts that are registries or worker state, not caches.
NOT_CACHES = {
    ("ruleset.py", "_RULESETS"), ("ruleset.py", "_ALIASES"), ("maps.py", "_KINDS"),
    ("events.py", "_REGISTRY"), ("events.py", "_NAMES"), ("caching.py", "_CACHES"),
    ("plugins.py", "_BROKEN"), ("executors.py", "_POOL_PLAN"), ("statekey.py", "_DECLARED"),
    ("statekey.py", "_EFFECTS"),
}


def test_no_module_level_dict_is_filled_as_a_cache() -> None:
    """A module-level dict that starts empty is filled at run time: it is a cache (use
    :class:`tactica.engine.caching.Cache`) unless it is a registry named above."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            elif isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            else:
                continue
            empty = (isinstance(value, ast.Dict) and not value.keys) or (
                isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                and value.func.id == "dict" and not value.args and not value.keywords)
            for t in targets:
                if empty and isinstance(t, ast.Name) and (path.name, t.id) not in NOT_CACHES:
                    found.append(f"{path.relative_to(SRC)}: {t.id}")
    assert found == []


def test_lru_bytes_keeps_its_budget_least_recently_used_first() -> None:
    from tactica.engine.caching import lru_bytes

    made: list[int] = []

    @lru_bytes(100, size=len)
    def word(n: int) -> str:
        made.append(n)
        return "x" * n

    assert word(40) == "x" * 40 and word(30) == "x" * 30
    assert word(40) == "x" * 40 and made == [40, 30]  # remembered, now the most recent
    word(50)  # 120 bytes: the least recently used (30) goes
    assert (30,) not in word and (40,) in word and word.kept_bytes() == 90
    word(500)  # one answer larger than the budget is kept alone
    assert len(word) == 1 and word.kept_bytes() == 500
    word.cache_clear()
    assert len(word) == 0 and word.kept_bytes() == 0


def test_lru_bytes_keeps_its_number_of_answers_too() -> None:
    from tactica.engine.caching import lru_bytes

    @lru_bytes(1_000_000, size=len, maxsize=3)
    def word(n: int) -> str:
        return "x" * n

    for n in range(1, 6):
        word(n)
    assert len(word) == 3 and (1,) not in word and (5,) in word and word.kept_bytes() == 12
