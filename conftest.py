"""Every test writes only under its temporary folders: a test that leaves a file in the
repository (or in the folder the tests run from) fails, naming the file. And no test depends on
the machine's speed: Hypothesis has no deadline per example (a loaded machine is slow at
times). The compiled kernels play every battle they cover, however short the run
(``TACTICA_KERNELS=1``, unless the environment says otherwise): the tests run few battles, and
those of kernels expect the kernel; the tests of the rule that leaves a short run to the
reference take the variable away."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tactica.testing.both import ENGINES, kernel_steps, using_engine

os.environ.setdefault("TACTICA_KERNELS", "1")

settings.register_profile("tactica", deadline=None)
settings.load_profile("tactica")

ROOT = Path(__file__).resolve().parent
#: What tools (not tests) may create: caches, and the long fuzzing run's report.
_TOOLS = {".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache", "__pycache__",
          "fuzz-report.json", ".coverage"}


def _entries(folder: Path) -> set[str]:
    try:
        return {name for name in os.listdir(folder) if name not in _TOOLS}
    except OSError:
        return set()


@pytest.fixture(autouse=True)
def _writes_only_under_tmp_path() -> Iterator[None]:
    folders = {ROOT, ROOT / "examples", ROOT / "tests", Path.cwd()}
    before = {folder: _entries(folder) for folder in folders}
    yield
    left = sorted(str(folder / name) for folder in folders
                  for name in _entries(folder) - before[folder])
    assert not left, f"the test left files outside its temporary folder: {left}"


# The ``engine`` parametrisation of the per-rule tests (tactica.testing.both): a test of a module
# marked ``both_engines`` runs once on the reference and once on the kernel, unless it is marked
# ``reference_only``. On the kernel, every step of the battles the game's builders make is
# played again on the compiled kernel and compared; a test whose kernel run played no step after
# its set-up, or left a step to the reference (a ruling or content the kernel does not play, an
# action it cannot be scripted to take), fails: it does not run on both engines, mark it
# ``reference_only``. So the count of kernel runs is the count of tests the kernel really
# played, every step of them.


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if ("engine" in metafunc.fixturenames
            and metafunc.definition.get_closest_marker("both_engines") is not None
            and metafunc.definition.get_closest_marker("reference_only") is None):
        metafunc.parametrize("engine", ENGINES, indirect=True)


@pytest.fixture(autouse=True)
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """The engine the test plays on (``reference`` unless parametrised)."""
    name = getattr(request, "param", "reference")
    with using_engine(name) as battles:
        yield name
        if name == "kernel":
            refused = sorted({r for b in battles for r in b.refused})
            assert kernel_steps(battles) > 0 and not refused, (
                "the kernel played no step of this test"
                + (f" (it refused: {'; '.join(refused)})" if refused else "")
                + ": mark it reference_only")
