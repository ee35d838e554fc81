"""Playing a fight at the table: the game master's assistant and its crash-safe log."""

from __future__ import annotations

from tactica.play.answer import LeaveTable, SeededStreams, TableDice, TablePolicy, Terminal
from tactica.play.logfile import LogContents, LogHeader, LogWriter, read_log, repair_log
from tactica.play.session import PlayResult, PlaySession

__all__ = [
    "LeaveTable",
    "LogContents",
    "LogHeader",
    "LogWriter",
    "PlayResult",
    "PlaySession",
    "SeededStreams",
    "TableDice",
    "TablePolicy",
    "Terminal",
    "read_log",
    "repair_log",
]
