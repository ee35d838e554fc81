"""Playing a fight at the table: the fight controller, its crash-safe log, and the terminal's
front end (the web page's is :mod:`tactica.web`)."""

from __future__ import annotations

from tactica.play.answer import LeaveTable, SeededStreams, Terminal
from tactica.play.controller import (
    ActionRequest,
    DecisionRequest,
    FightController,
    Note,
    Over,
    Request,
    RollRequest,
)
from tactica.play.logfile import LogContents, LogHeader, LogWriter, read_log, repair_log
from tactica.play.session import PlayResult, PlaySession

__all__ = [
    "ActionRequest",
    "DecisionRequest",
    "FightController",
    "LeaveTable",
    "LogContents",
    "LogHeader",
    "LogWriter",
    "Note",
    "Over",
    "PlayResult",
    "PlaySession",
    "Request",
    "RollRequest",
    "SeededStreams",
    "Terminal",
    "read_log",
    "repair_log",
]
