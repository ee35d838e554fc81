"""Bounded caches with explicit keys and statistics: the one way the engine remembers answers.

Speed caches keep answers across battles (reachable tiles, move values, target values), keyed
by *everything the answer depends on*, spelled out by the caller. A :class:`Cache` holds at
most ``maxsize`` answers and empties itself whole when full (an answer is cheap to recompute,
and a cache that clears costs nothing per hit), and counts its hits, misses and clears;
:func:`cache_stats` lists every cache of the process and :func:`clear_caches` empties them
(a benchmark's cold start, a test that wants no history).

An object compared by identity (a content pack, a fighter's template) enters a key through
:class:`SmallKeys`, which gives it a number never given to another object, so that an entry
made for one object can never answer for another (an ``id()`` can be reused once its object
is gone; these numbers are not).

>>> squares = Cache[int, int]("doc.squares", maxsize=2)
>>> squares.get(3) is None, squares.put(3, 9), squares.get(3)
(True, 9, 9)
>>> squares.put(4, 16), squares.put(5, 25), len(squares)
(16, 25, 1)
>>> stats = squares.stats()
>>> stats.hits, stats.misses, stats.clears
(1, 1, 1)
"""

from __future__ import annotations

import functools
import itertools
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from tactica.engine import consulted

__all__ = ["BytesLru", "Cache", "CacheStats", "SmallKeys", "cache_stats", "clear_caches",
           "lru_bytes"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True)
class CacheStats:
    """One cache's figures: entries now, the bound, hits, misses and how often it was full."""

    name: str
    size: int
    maxsize: int
    hits: int
    misses: int
    clears: int


#: Every cache of the process by name (a registry of caches, not itself a cache).
_CACHES: dict[str, Cache[object, object]] = {}


class Cache(Generic[K, V]):
    """At most ``maxsize`` values by explicit keys; emptied whole when full. Values are never
    ``None`` (``get`` answers ``None`` for a key it does not hold)."""

    __slots__ = ("_consulted", "_data", "clears", "hits", "maxsize", "misses", "name")

    def __init__(self, name: str, *, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"cache {name!r}: maxsize must be at least 1, got {maxsize}")
        self.name = name
        self.maxsize = maxsize
        self._data: dict[K, V] = {}
        # The rulings consulted while computing a value, consulted again on every hit
        # (:mod:`tactica.engine.consulted`): only for values that consulted some.
        self._consulted: dict[K, frozenset[str]] = {}
        self.hits = self.misses = self.clears = 0
        _CACHES[name] = self  # type: ignore[assignment]

    def get(self, key: K) -> V | None:
        """The value remembered for ``key``, or ``None``."""
        found = self._data.get(key)
        if found is None:
            self.misses += 1
            consulted.opened((id(self), key))
        else:
            self.hits += 1
            if self._consulted:
                read = self._consulted.get(key)
                if read is not None:
                    consulted.consult_all(read)
        return found

    def put(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key`` (emptying the cache first if it is full); returns
        ``value``."""
        data = self._data
        if len(data) >= self.maxsize and key not in data:
            data.clear()
            self._consulted.clear()
            self.clears += 1
        data[key] = value
        read = consulted.closed((id(self), key))
        if read:
            self._consulted[key] = read
        elif self._consulted:
            self._consulted.pop(key, None)
        return value

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        """Forget every value (the statistics stay)."""
        self._data.clear()
        self._consulted.clear()

    def stats(self) -> CacheStats:
        """This cache's figures now."""
        return CacheStats(self.name, len(self._data), self.maxsize, self.hits, self.misses,
                          self.clears)


class SmallKeys(Cache[Hashable, tuple[object, int]]):
    """Small numbers for objects, to put in cache keys: the same object gets the same number
    while this table holds it (and keeps it alive), and a number is never given twice, so
    forgetting (when ``maxsize`` objects are held, or on :meth:`clear`) cannot mix objects up.

    By default an object is recognised by identity (for objects that are costly to hash or
    compare); ``by_value=True`` recognises equal values (small hashable keys such as a ruling
    set). It is a :class:`Cache` of ``(object, number)`` by identity or value, with its
    bound, clearing and statistics."""

    __slots__ = ("_counter", "by_value")

    def __init__(self, name: str, *, maxsize: int, by_value: bool = False) -> None:
        super().__init__(name, maxsize=maxsize)
        self.by_value = by_value
        self._counter = itertools.count()

    def key_of(self, obj: object) -> int:
        """The number of ``obj``."""
        ref: Hashable = obj if self.by_value else id(obj)
        found = self.get(ref)
        if found is not None:
            return found[1]
        return self.put(ref, (obj, next(self._counter)))[1]


class BytesLru(Generic[V]):
    """A function's answers by its (hashable) arguments, bounded in *bytes*: ``size`` estimates
    an answer's bytes, and once the answers kept pass ``budget`` (or number more than
    ``maxsize``) the least recently used are dropped (the one just made stays). For answers
    whose size grows with a map (the squares reachable from a square, the dots an arc holds):
    a bound in entries alone lets a large map keep gigabytes. Made by :func:`lru_bytes`; the
    answers must not be changed by callers."""

    def __init__(self, function: Callable[..., V], budget: int,
                 size: Callable[[V], int], maxsize: int) -> None:
        self.function, self.budget, self.size, self.maxsize = function, budget, size, maxsize
        self._kept: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self.hits = self.misses = 0
        functools.update_wrapper(self, function)

    def __call__(self, *args: Any) -> V:
        found = self._kept.get(args)
        if found is not None:
            self._kept.move_to_end(args)
            self.hits += 1
            return found[0]
        self.misses += 1
        value = self.function(*args)
        size = self.size(value)
        self._kept[args] = (value, size)
        self._bytes += size
        while (self._bytes > self.budget or len(self._kept) > self.maxsize) \
                and len(self._kept) > 1:
            _, (_, dropped) = self._kept.popitem(last=False)
            self._bytes -= dropped
        return value

    def kept_bytes(self) -> int:
        """The estimated bytes of the answers kept (at most the budget, or one answer)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, args: object) -> bool:
        return args in self._kept

    def cache_clear(self) -> None:
        """Forget every answer."""
        self._kept.clear()
        self._bytes = 0


def lru_bytes(budget: int, size: Callable[[Any], int], maxsize: int = 1 << 20
              ) -> Callable[[Callable[..., V]], BytesLru[V]]:
    """Decorate a function of hashable positional arguments: its answers kept within
    ``budget`` bytes as ``size`` estimates them, and at most ``maxsize`` of them (small
    answers are not kept by the thousand only because they are small) (:class:`BytesLru`).

    >>> @lru_bytes(100, size=len)
    ... def word(n: int) -> str:
    ...     return "x" * n
    >>> _ = word(60), word(30), word(20)  # 110 bytes: the least recently used (60) goes
    >>> len(word), word.kept_bytes(), (60,) in word
    (2, 50, False)
    """
    def wrap(function: Callable[..., V]) -> BytesLru[V]:
        return BytesLru(function, budget, size, maxsize)
    return wrap


def cache_stats() -> list[CacheStats]:
    """The figures of every cache of the process, by name."""
    return [_CACHES[name].stats() for name in sorted(_CACHES)]


def clear_caches() -> None:
    """Empty every cache of the process."""
    for cache in _CACHES.values():
        cache.clear()
