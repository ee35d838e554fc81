"""A scripted terminal for the web tests (the play tests have their own)."""

from __future__ import annotations


class ScriptedLines:
    """Answers prompts from ``lines`` (EOFError when they run out); keeps what was said."""

    def __init__(self, lines: list[str]):
        self.lines = list(lines)
        self.said: list[str] = []

    def ask(self, prompt: str) -> str:
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)

    def say(self, text: str) -> None:
        self.said.extend(text.split("\n"))
