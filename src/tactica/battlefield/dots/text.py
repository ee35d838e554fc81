"""A dot lattice drawn as text for the table: every level with its walls, low walls, doors,
windows, stairs and buildings, and a legend.

Dots stand four characters apart and rows two lines apart (odd rows shifted half a spacing
right, as on the lattice), so every side between two adjacent dots has a character of its own
halfway between them: a feature on that side is drawn there with its kind's symbol. A trooper
is drawn by its letter (a longer name gets a letter of its own, given in the legend).

>>> from tactica.battlefield.dots.lattice import DotLattice
>>> lat = DotLattice.from_text("A . .\\n . . .", features=[((0, 0), (1, 0), "low-wall")])
>>> print(lattice_text(lat).split("\\n")[3])
0  A = .   .
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from typing import Final

from tactica.battlefield.dots.features import FEATURE_KINDS
from tactica.battlefield.dots.geometry import Axial, axial_to_offset, offset_to_axial, side_dots
from tactica.battlefield.dots.lattice import DotLattice

__all__ = ["DOT_SYMBOLS", "FEATURE_SYMBOLS", "lattice_text", "trooper_letters"]

#: The symbol of each feature kind, drawn between the two dots it separates.
FEATURE_SYMBOLS: Final[Mapping[str, str]] = {
    "wall": "#",
    "high-wall": "%",
    "tree": "&",
    "low-wall": "=",
    "fence": "|",
    "furniture": "*",
    "vegetation": "~",
    "door": "+",
    "window": '"',
}

#: The symbols of dots that hold no trooper.
DOT_SYMBOLS: Final[Mapping[str, str]] = {
    "floor": ".",
    "building": ":",
    "stairs": "^",
    "ladder": "!",
}

_DOT_WORDS: Final = {"floor": "open ground", "building": "floor inside a building",
                     "stairs": "stairs", "ladder": "ladder"}


def trooper_letters(ids: Mapping[str, object] | list[str]) -> dict[str, str]:
    """The character each trooper is drawn with: its own id when that is one character, else
    the first free letter of its name, else any free letter or digit."""
    names = list(ids)
    taken = {n for n in names if len(n) == 1}
    out: dict[str, str] = {}
    pool = string.ascii_uppercase + string.ascii_lowercase + string.digits
    for n in names:
        if len(n) == 1:
            out[n] = n
            continue
        own = [ch for ch in n.upper() + n.lower() if ch.isalnum() and ch.isascii()]
        pick = next((ch for ch in [*own, *pool] if ch not in taken), "?")
        taken.add(pick)
        out[n] = pick
    return out


def _xy(dot: Axial) -> tuple[int, int]:
    col, row = axial_to_offset(*dot)
    return 4 * col + 2 * (row % 2), 2 * row


def _building_dots(lat: DotLattice, level: int) -> set[Axial]:
    return {d for b in lat.buildings if level < b.floors for d in b.dots}


def _level_lines(lat: DotLattice, level: int, letters: Mapping[str, str]) -> Iterator[str]:
    width = 4 * (lat.cols - 1) + 3
    canvas = [[" "] * width for _ in range(2 * lat.rows - 1)]
    inside = _building_dots(lat, level)
    for r in range(lat.rows):
        for c in range(lat.cols):
            dot = offset_to_axial(c, r)
            if not lat.has_dot(dot, level):
                continue
            x, y = _xy(dot)
            tid = lat.occupant_at(dot, level)
            stairs = lat.stairs.get(dot)
            if tid is not None:
                ch = letters.get(tid, "?")
            elif stairs is not None and stairs.low <= level <= stairs.high:
                ch = DOT_SYMBOLS["ladder" if stairs.kind == "ladder" else "stairs"]
            else:
                ch = DOT_SYMBOLS["building" if dot in inside else "floor"]
            canvas[y][x] = ch
    for (lvl, side), kind in lat.features.items():
        if lvl != level:
            continue
        (xa, ya), (xb, yb) = (_xy(d) for d in side_dots(side))
        x, y = (xa + xb) // 2, (ya + yb) // 2
        if 0 <= y < len(canvas) and 0 <= x < width:
            canvas[y][x] = FEATURE_SYMBOLS.get(kind, "?")
    label = len(str(lat.rows - 1))
    yield " " * (label + 2) + "".join(f"{c:<4}" for c in range(lat.cols)).rstrip()
    for y, chars in enumerate(canvas):
        head = f"{y // 2:>{label}}" if y % 2 == 0 else " " * label
        yield (f"{head}  " + "".join(chars)).rstrip()


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _span(lat: DotLattice, dots: frozenset[Axial]) -> str:
    cells = [axial_to_offset(*d) for d in dots]
    cols, rows = [c for c, _ in cells], [r for _, r in cells]
    return f"{min(cols)},{min(rows)} to {max(cols)},{max(rows)}"


def legend_lines(lat: DotLattice, letters: Mapping[str, str]) -> list[str]:
    """What the symbols mean (only those on this map), the buildings, stairs and troopers."""
    used = {kind for (_, _), kind in lat.features.items()}
    counts: dict[str, int] = {}
    for (_, _), kind in lat.features.items():
        counts[kind] = counts.get(kind, 0) + 1
    dots = ["floor"]
    if lat.buildings:
        dots.append("building")
    if any(s.kind != "ladder" for s in lat.stairs.values()):
        dots.append("stairs")
    if any(s.kind == "ladder" for s in lat.stairs.values()):
        dots.append("ladder")
    lines = ["legend: " + ", ".join(f"{DOT_SYMBOLS[k]} {_DOT_WORDS[k]}" for k in dots)
             + (", blank: no floor" if len(lat.level_names) > 1 else "")]
    between = [f"{FEATURE_SYMBOLS.get(k, '?')} {FEATURE_KINDS[k].label} ({counts[k]})"
               for k in FEATURE_KINDS if k in used]
    if between:
        line = "  between dots:"
        for k, item in enumerate(between):
            piece = f" {item}{',' if k < len(between) - 1 else ''}"
            if len(line) + len(piece) > 94:
                lines.append(line)
                line = "   "
            line += piece
        lines.append(line)
    for b in lat.buildings:
        levels = ", ".join(lat.level_names[i] for i in range(min(b.floors,
                                                                  len(lat.level_names))))
        name = b.name or "a building"
        lines.append(f"  building {name}: {_span(lat, b.dots)}, {_count(b.floors, 'floor')} "
                     f"({levels})")
    for dot, st in sorted(lat.stairs.items(), key=lambda kv: axial_to_offset(*kv[0])[::-1]):
        lines.append(f"  {st.kind} at {lat.describe(dot)}: {lat.level_names[st.low]} to "
                     f"{lat.level_names[st.high]}")
    if lat.troopers:
        lines.append("  troopers:")
    for tid, t in lat.troopers.items():
        letter = letters[tid]
        name = "" if letter == tid else f" {tid}"
        team = f" ({lat.sides[tid]})" if tid in lat.sides else ""
        pose = ", prone" if t.prone else ""
        lines.append(f"    {letter}{name}{team} at {lat.describe(t.dot, t.level)}{pose}")
    return lines


def lattice_text(lat: DotLattice) -> str:
    """The whole map: a title, each level drawn, the legend."""
    n = len(lat.troopers)
    title = f"{lat.name}: " if lat.name else ""
    levels = len(lat.level_names)
    lines = [f"{title}dots {lat.cols}x{lat.rows}, {_count(levels, 'level')}, "
             f"{_count(n, 'trooper')}"]
    letters = trooper_letters(list(lat.troopers))
    label = len(str(lat.rows - 1))
    for lvl, name in enumerate(lat.level_names):
        lines.append(f"level {name}:")
        drawn = list(_level_lines(lat, lvl, letters))
        if lvl > 0:  # an upper floor: only the rows that have one
            rows = [k for k, line in enumerate(drawn[1:], start=1) if len(line) > label + 2]
            drawn = [drawn[0], *drawn[rows[0]:rows[-1] + 1]] if rows else drawn[:1]
        lines.extend(drawn)
    lines.extend(legend_lines(lat, letters))
    return "\n".join(lines)
