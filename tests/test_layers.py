"""The packages are layers, and every import goes down (or stays within its layer).

From the bottom: the engine (rules machinery, dice, battlefields), the games, the presentation's
builders (escaped markup, tables, SVG maps, the safe terminal), the analysis (simulation,
comparisons, sweeps, matchups, reports, with their tables and plots) and the front ends (command
line, play, web page, the conformance kit). A module may import its own layer and any layer
below, never one above, not even inside a function or for type checking only.

One kind of upward import is allowed, and named here: a value's rich display in a notebook
(``_repr_html_``, ``to_pandas``) may import the analysis views that draw it, inside that method.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import tactica

SOURCE = Path(tactica.__file__).resolve().parent

#: The layers from the bottom, each a set of packages (a module belongs to the longest match).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("tactica.engine", "tactica.dice", "tactica.battlefield"),
    ("tactica.rulesets",),
    ("tactica.presentation",),
    ("tactica.analysis",),
    ("tactica.cli", "tactica.play", "tactica.web", "tactica.testing"),
    ("tactica", "tactica.api"),
)
NAMES = ("engine", "games", "presentation", "analysis", "front ends", "package")

#: Methods that show a value in a notebook: the one place an upward import is allowed.
DISPLAY_HOOKS = frozenset({"_repr_html_", "_repr_markdown_", "_repr_png_", "_repr_svg_",
                           "to_pandas"})


def layer_of(module: str) -> int:
    """The layer of a dotted module name (the longest package prefix that holds it)."""
    best, found = -1, -1
    for rank, packages in enumerate(LAYERS):
        for package in packages:
            if (module == package or module.startswith(package + ".")) and len(package) > best:
                best, found = len(package), rank
    assert found >= 0, module
    return found


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, package: str) -> Iterator[tuple[int, str, str | None]]:
    """(line, imported module, enclosing function) of every tactica import in ``path``, a
    module of ``package`` (which resolves its relative imports)."""
    tree = ast.parse(path.read_text(), filename=str(path))

    def visit(node: ast.AST, function: str | None) -> Iterator[tuple[int, str, str | None]]:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) \
                else function
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.split(".")[0] == "tactica":
                        yield child.lineno, alias.name, function
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.rsplit(".", child.level - 1)[0] if child.level > 1 else package
                    target = f"{base}.{child.module}" if child.module else base
                else:
                    target = child.module or ""
                if target.split(".")[0] == "tactica":
                    yield child.lineno, target, function
            yield from visit(child, inner)

    yield from visit(tree, None)


def violations() -> list[str]:
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        here = module_name(path)
        rank = layer_of(here)
        package = here if path.name == "__init__.py" else here.rpartition(".")[0]
        for line, target, function in imports(path, package):
            if layer_of(target) > rank and function not in DISPLAY_HOOKS:
                found.append(f"{path.relative_to(SOURCE.parent)}:{line}: {here} "
                             f"({NAMES[rank]}) imports {target} "
                             f"({NAMES[layer_of(target)]})")
    return found


def test_every_import_goes_down_the_layers() -> None:
    assert violations() == []


def test_every_module_is_in_a_layer_package() -> None:
    """No loose modules beside the layers: the package root holds only its API."""
    loose = sorted(p.name for p in SOURCE.glob("*.py") if p.name not in {"__init__.py", "api.py"})
    assert loose == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The checker itself: an engine module importing the command line is caught, also inside a
    function, and a display hook is not."""
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from tactica.cli import app\n"
                      "def _repr_html_():\n    from ..analysis import views\n")
    found = [(target, function) for _, target, function in imports(sample, "tactica.engine")]
    assert found == [("tactica.cli", "f"), ("tactica.analysis", "_repr_html_")]
    assert layer_of("tactica.cli.app") > layer_of("tactica.engine.battle")
    assert layer_of("tactica.rulesets.arc.rules") == 1

