"""Files are written to a temporary name beside the target and renamed when
complete, so an interrupted run never leaves a half-written file behind and
never replaces a good file with a broken one."""
from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from .errors import InputError, Problem


@contextlib.contextmanager
def atomic_path(target: str | Path):
    """Yield a temporary path in target's folder; rename it onto target on success."""
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as exc:
        raise InputError(Problem(f"cannot write: {_why(exc)}", str(target))) from None
    os.close(fd)
    # mkstemp makes the file 0600; a finished output gets the usual permissions
    os.chmod(tmp, 0o666 & ~_umask())
    try:
        yield Path(tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _why(exc: OSError) -> str:
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return "part of the path is a file, not a folder"
    if isinstance(exc, PermissionError):
        return "permission denied"
    return exc.strerror or str(exc)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_bytes(target: str | Path, data: bytes) -> None:
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)


def write_text(target: str | Path, text: str) -> None:
    write_bytes(target, text.encode("utf-8"))
