"""The built-in games, one package each.

They are found as plug-ins through the entry point group ``tactica.rulesets`` (see
``pyproject.toml``), exactly as a game shipped by another package would be.
"""

from __future__ import annotations

__all__: list[str] = []
