"""Every bound sheetgen puts on its input, in one place (docs/limits.md lists them).

Each limit is far beyond what a real sheet or play log reaches (the largest shipped
definition is about 4 KB, the largest grid 20 x 28 cells), and low enough that an
input at the limit is read, checked and drawn in well under two seconds and 200 MB;
past it, the input is refused before the expensive work with an error that names
the limit.  Also here: the guard on file names (the system's 255 bytes a name,
4,095 a path), which every path sheetgen reads or writes goes through first.
"""
from __future__ import annotations

import errno
import os
from pathlib import Path

from .errors import InputError, Problem

# -- reading ------------------------------------------------------------------------------
MAX_FILE_BYTES = 256 * 1024          # a definition or play log file (the largest shipped: 4 KB)
MAX_ARGUMENT_BYTES = 16 * 1024       # YAML typed on the command line (`track step '{...}'`)
MAX_DEPTH = 100                      # mappings/lists inside each other (real definitions: under 10)
MAX_NODES = 30_000                   # values written in a file (the largest log sheetgen writes: ~10,000)
MAX_VALUES = 200_000                 # values once anchors and aliases are expanded
MAX_TEXT_EXPANDED = 4_000_000        # characters of text once anchors and aliases are expanded

# -- drawing (checked where layouts are validated) --------------------------------------------
MAX_HEX_CELLS = 3_000                # hexes in one grid, 50 x 60 (each is drawn; squares are drawn as lines)
MAX_HEX_CELLS_DOCUMENT = 20_000      # hexes in a whole layout or deck: every card, every `use`
MAX_TEXT_CHARS = 20_000              # characters in one text or table (a full A4 page at 6 pt: ~18,000)
MAX_TEXT_CHARS_DOCUMENT = 200_000    # characters in a whole layout or deck

# -- file names ---------------------------------------------------------------------------------
MAX_NAME_BYTES = 255                 # one name between slashes (NAME_MAX of Linux, macOS, Windows)
MAX_PATH_BYTES = 4095                # a whole path (PATH_MAX less the final NUL)


def kib(n: int) -> str:
    return f"{n // 1024} KiB" if n % 1024 == 0 else f"{n:,} bytes"


def shown(name: str, keep: int = 60) -> str:
    """A long name cut to its beginning and end, for messages."""
    return name if len(name) <= keep else f"{name[:keep - 25]}...{name[-20:]}"


def quoted(text: str, keep: int = 80) -> str:
    """A text quoted in a message: whole when short, else its beginning and end and its
    length (a warning about a 20,000-character text must not print it all)."""
    if len(text) <= keep:
        return repr(text)
    return f"{text[:keep - 25]!r}...{text[-20:]!r} ({len(text):,} characters)"


def name_problem(path: str | os.PathLike) -> str | None:
    """Why path cannot name a file on this system (a name or the path too long,
    a NUL character), or None when it can."""
    text = os.fspath(path)
    if "\x00" in text:
        return "a file name cannot hold the NUL character"
    try:
        raw = os.fsencode(text)
    except UnicodeError:
        return "the file name cannot be encoded for this system"
    for part in raw.split(b"/"):
        if len(part) > MAX_NAME_BYTES:
            return (f"file name too long: one name in a path is at most {MAX_NAME_BYTES} bytes, "
                    f"this one is {len(part)}")
    if len(raw) > MAX_PATH_BYTES:
        return f"path too long: a path is at most {MAX_PATH_BYTES:,} bytes, this one is {len(raw):,}"
    return None


def check_name(path: str | os.PathLike, what: str | None = None) -> Path:
    """path as a Path, or InputError (exit 2) when no file can have that name."""
    why = name_problem(path)
    if why:
        raise InputError(Problem(why, shown(os.fspath(path)), path=what, subject=os.fspath(path)))
    return Path(path)


def is_name_too_long(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno == errno.ENAMETOOLONG
