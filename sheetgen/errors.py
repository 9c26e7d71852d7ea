"""Errors that reach the user as clean messages (never a traceback).

Library code raises these; the Click layer prints them and exits with the
error's exit code: 2 for unusable input or usage.  Rule violations are not
exceptions: checkers return them and the CLI exits 1.  Any other exception is
a bug in sheetgen: the CLI prints one line asking for a bug report and exits 3
(EXIT_BUG), with the traceback only under `sheetgen --debug`.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable

EXIT_OK, EXIT_VIOLATIONS, EXIT_INPUT, EXIT_BUG = 0, 1, 2, 3


@dataclass
class Problem:
    """One thing wrong with an input, located as precisely as we can."""
    message: str
    file: str | None = None
    line: int | None = None             # 1-based
    column: int | None = None           # 1-based
    path: str | None = None             # key path, e.g. zones.A.events
    expected: str | None = None
    suggestion: str | None = None       # 'did you mean' candidate
    # the name the problem is about, as written (a reference that names no file): lets the
    # loader of the file that wrote it add that file's line (never printed itself)
    subject: str | None = field(default=None, compare=False, repr=False)

    def format(self) -> str:
        where = ""
        if self.file:
            where = self.file
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        text = where
        if self.path:
            text += f"{self.path}: "
        text += self.message
        if self.expected:
            text += f" (expected {self.expected})"
        if self.suggestion:
            text += f"; did you mean '{self.suggestion}'?"
        return text


class SheetgenError(Exception):
    """Base of every error the CLI turns into a message and an exit code."""
    exit_code = 2

    def __init__(self, problems: list[Problem] | Problem | str):
        if isinstance(problems, str):
            problems = [Problem(problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(p.format() for p in self.problems))


class InputError(SheetgenError):
    """The input cannot be used: malformed, invalid, missing."""
    exit_code = 2


def did_you_mean(word: object, candidates: Iterable[object]) -> str | None:
    word = str(word)
    cutoff = 0.5 if len(word) <= 3 else 0.6   # short words differ by a larger share per typo
    matches = difflib.get_close_matches(word, [str(c) for c in candidates], n=1, cutoff=cutoff)
    return matches[0] if matches else None
