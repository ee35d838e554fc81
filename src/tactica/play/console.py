"""The terminals the game master types in: a plain one (pipes, scripts) and a rich one.

:class:`RichTerminal` reads lines with prompt_toolkit (history with the arrow keys, editing,
Tab completion of commands, unit ids and the words of the actions and options open now) and
prints with rich, each side's name and units in its own colour, turns and the end in bold.
:class:`PlainTerminal` reads with ``input()`` and prints the text as it is: what a script or a
test sees. Both implement :class:`~tactica.play.answer.Terminal`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from tactica.presentation.clean import clean_text
from tactica.presentation.terminal import SafeConsole

__all__ = ["SIDE_STYLES", "PlainTerminal", "RichTerminal", "WordsCompleter"]

#: Rich styles of the sides, in order (the same hues as the SVG maps' sides).
SIDE_STYLES = ("bold #3d8bfd", "bold #f08c00", "bold #b36ae2", "bold #12b886", "bold #c0846a",
               "bold #e64980")


class PlainTerminal:
    """Lines printed as they are, answers read with ``input()``."""

    def __init__(self, console: Console | None = None):
        self.console = console or SafeConsole()

    def ask(self, prompt: str) -> str:
        return input(clean_text(prompt, newlines=False))

    def say(self, text: str) -> None:
        self.console.print(clean_text(text), markup=False, highlight=False, soft_wrap=True)


try:  # prompt_toolkit is a dependency; a broken install still leaves the plain terminal
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.history import InMemoryHistory
except ImportError:  # pragma: no cover
    PromptSession = None  # type: ignore[assignment,misc]
    Completer = object  # type: ignore[assignment,misc]


class WordsCompleter(Completer):
    """Completes the whole line from the words open now (``words()``), by their start or, after
    those, anywhere inside; after ``sight`` each name on its own."""

    def __init__(self, words: Callable[[], list[str]], names: Callable[[], list[str]]):
        self.words = words
        self.names = names

    def get_completions(self, document: Document, complete_event: CompleteEvent
                        ) -> Iterable[Completion]:
        text = document.text_before_cursor
        lowered = text.lower()
        if lowered.startswith("sight "):
            last = text.split(" ")[-1]
            for name in self.names():
                if name.lower().startswith(last.lower()):
                    shown = f"'{name}'" if " " in name else name
                    yield Completion(shown, start_position=-len(last))
            return
        seen: set[str] = set()
        candidates = list(dict.fromkeys(self.words()))
        for word in candidates:
            if word.lower().startswith(lowered) and word not in seen:
                seen.add(word)
                yield Completion(word, start_position=-len(text))
        if len(lowered) >= 2:
            for word in candidates:
                if lowered in word.lower() and word not in seen and len(seen) < 60:
                    seen.add(word)
                    yield Completion(word, start_position=-len(text))


class RichTerminal:
    """prompt_toolkit for reading, rich for printing, sides in colour.

    ``palette`` maps side names and unit ids to the index of their side; ``words`` and
    ``names`` give what may be completed now (commands, actions, options; unit ids).
    """

    def __init__(self, *, palette: Callable[[], Mapping[str, int]] | None = None,
                 words: Callable[[], list[str]] | None = None,
                 names: Callable[[], list[str]] | None = None,
                 console: Console | None = None, session: Any = None):
        self.console = console or SafeConsole()
        self.palette = palette or dict
        self._pattern: tuple[tuple[str, ...], re.Pattern[str] | None] = ((), None)
        completer = WordsCompleter(words or list, names or list)
        self.session = session or PromptSession(history=InMemoryHistory(), completer=completer,
                                                complete_while_typing=False)

    def ask(self, prompt: str) -> str:
        prompt = clean_text(prompt, newlines=False)
        side = prompt.split(" ")[0].rstrip(">")
        index = self.palette().get(side)
        style = SIDE_STYLES[index % len(SIDE_STYLES)] if index is not None else "bold"
        text: str = self.session.prompt(FormattedText([(style.replace("bold ", "bold fg:"),
                                                        prompt)]))
        return text

    def say(self, text: str) -> None:
        for line in clean_text(text).split("\n"):
            self.console.print(self.styled(line), soft_wrap=True)

    def styled(self, line: str) -> Text:
        """One line with its sides' and units' names in colour."""
        shown = Text(line)
        stripped = line.strip()
        if stripped.startswith("-- ") and stripped.endswith(" --"):
            shown.stylize("bold reverse")
            return shown
        if stripped.startswith("The battle is over"):
            shown.stylize("bold green")
        elif stripped.startswith(("no action", "expected", "roll '")) or " is not " in line:
            shown.stylize("yellow")
        elif stripped.startswith("roll for "):
            shown.stylize("bold")
        palette = self.palette()
        pattern = self._compiled(palette)
        if pattern is not None:
            for m in pattern.finditer(line):
                index = palette[m.group(1)]
                shown.stylize(SIDE_STYLES[index % len(SIDE_STYLES)], m.start(1), m.end(1))
        return shown

    def _compiled(self, palette: Mapping[str, int]) -> re.Pattern[str] | None:
        """A pattern of the names worth colouring (a name that is only digits is not: ``1``
        is also a number of actions)."""
        names = tuple(sorted((n for n in palette if not n.isdigit() and n.strip()),
                             key=len, reverse=True))
        if names != self._pattern[0]:
            pattern = (re.compile(r"(?<![\w'])(" + "|".join(map(re.escape, names)) + r")(?![\w])")
                       if names else None)
            self._pattern = (names, pattern)
        return self._pattern[1]
