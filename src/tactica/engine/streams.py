"""The dice of a simulated battle: each roll drawn from its own key, for common random numbers.

Two variants of a scenario (a ruling's two readings) should roll the same dice for the same
thing. One stream of draws per battle keeps them aligned only until one variant asks for a roll
the other does not: from then on every later roll is shifted. :class:`KeyedDice` instead gives
every unit its own luck: a roll is drawn from a key naming the seed, the battle, the unit whose
action it is (the action's ``unit`` field, which every game's actions have; otherwise the whole
action, or the automatic step's label), the roll's label and how many rolls of that label the
unit made before. So the third "to hit" of unit A reads the same random number in every
variant, whatever happened before. (Keys by round, by the whole action or by label alone were
measured too, on a firefight's comparison of two readings of its cover rule: a unit's own
luck keeps the variants' battles closest; ``bench/paired.py``.) The key only aligns draws
between variants: within one battle every draw is a fresh uniform draw, so no battle's odds
change.

Draws are exact: a roll's :class:`~tactica.dice.Dist` samples its outcome with its usual exact
sampler, fed 64-bit words from BLAKE2b of the key and a counter instead of a numpy bit
generator (both are uniform 64-bit words; BLAKE2b is a cryptographic hash).
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any, cast

import numpy as np

from tactica.engine.battle import Battle
from tactica.engine.caching import Cache
from tactica.engine.chance import Roll

__all__ = ["KeyedDice"]


class _Words:
    """The one method of a bit generator the exact samplers use: ``random_raw``."""

    __slots__ = ("count", "key")

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.count = 0

    def random_raw(self) -> int:
        """The next uniform 64-bit word of this key."""
        digest = hashlib.blake2b(self.key, digest_size=8,
                                 salt=self.count.to_bytes(16, "little")).digest()
        self.count += 1
        return int.from_bytes(digest, "little")


class _KeyedGenerator:
    """Stands for a numpy Generator where a Dist draws one exact value."""

    __slots__ = ("bit_generator",)

    def __init__(self, key: bytes) -> None:
        self.bit_generator = _Words(key)


#: Per type of step: whether it is a dataclass with a ``unit`` field (looked up once).
_HAS_UNIT: Cache[type, bool] = Cache("simulate.step-types", maxsize=1024)


def _actor(step: object) -> str:
    """Whose luck a step's rolls are: the acting unit, else the step itself."""
    kind = type(step)
    has_unit = _HAS_UNIT.get(kind)
    if has_unit is None:
        has_unit = _HAS_UNIT.put(kind, (
            dataclasses.is_dataclass(step) and not isinstance(step, type)
            and any(f.name == "unit" for f in dataclasses.fields(step))))
    return f"unit {getattr(step, 'unit')!r}" if has_unit else repr(step)  # noqa: B009


class KeyedDice:
    """Virtual dice for battle ``index`` of seed ``seed`` whose every roll is drawn from its
    own key (see the module's docs); ``battle`` tells the step under way."""

    def __init__(self, seed: int, index: int, battle: Battle[Any]) -> None:
        self.prefix = f"{seed}|{index}|"
        self.battle = battle
        self.counts: dict[tuple[str, str], int] = {}
        self._step: object = None
        self._actor = ""

    def roll(self, request: Roll[Any]) -> tuple[Any, tuple[int, ...] | None]:
        """One exact draw of the request's distribution, from the roll's key."""
        step = self.battle.step_key
        if step is not self._step or not self._actor:  # the actor of the step under way
            self._step, self._actor = step, _actor(step)
        slot = (self._actor, request.label)
        k = self.counts.get(slot, 0)
        self.counts[slot] = k + 1
        key = f"{self.prefix}{slot[0]}|{slot[1]}|{k}".encode()
        generator = cast(np.random.Generator, _KeyedGenerator(key))
        return request.dist.sample(generator), None
