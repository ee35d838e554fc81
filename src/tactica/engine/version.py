"""The installed version of tactica (``0+unknown`` in a source tree never installed)."""

from __future__ import annotations

__all__ = ["version"]


def version() -> str:
    """The version the installed distribution declares."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("tactica")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"
