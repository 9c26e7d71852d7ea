"""What every play-log checker returns: located rule violations."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Violation:
    """A rule broken at a line of a play log (step is 1-based where logs have steps)."""
    line: int | None
    message: str
    step: int | None = None
    rule: str | None = None             # short rule id, e.g. 'move.adjacent'
    column: int | None = None

    def format(self, filename: str) -> str:
        where = f"{filename}:{self.line}" if self.line is not None else filename
        step = f"step {self.step}: " if self.step is not None else ""
        return f"{where}: {step}{self.message}"

    def as_dict(self, filename: str) -> dict:
        return {"file": filename, "line": self.line, "column": self.column, "step": self.step,
                "rule": self.rule, "message": self.message}
