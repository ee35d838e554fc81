"""The built-in games. Importing this package registers each of them."""

from __future__ import annotations

import tactica.rulesets.last_odyssey
import tactica.rulesets.nebulia
import tactica.rulesets.unhex  # noqa: F401

__all__: list[str] = []
