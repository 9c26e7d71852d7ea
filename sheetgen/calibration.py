"""The user's stored printer scale corrections (sheetgen calibrate).

Stored as JSON in the user's config folder:
    {"default": "office", "printers": {"office": {"measured_x": 99.2, "measured_y": 99.6, "margin": 8}}}
The printer name "default" is used when none is given.  "margin" (optional, `calibrate
--margin MM`): what builds keep clear of every paper edge for that printer, as
`build --printer-margin MM` (which, given, wins).
"""
from __future__ import annotations

import json
from pathlib import Path

from .atomic import write_text
from .draw.options import Calibration
from .errors import InputError, Problem, did_you_mean
from .paths import user_config_dir

DEFAULT_PRINTER = "default"


def config_path() -> Path:
    return user_config_dir() / "calibration.json"


def _read() -> dict:
    path = config_path()
    if not path.exists():
        return {"default": None, "printers": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(Problem(f"calibration file is not valid JSON: {exc.msg}", str(path), exc.lineno, exc.colno)) from None
    except UnicodeDecodeError:
        raise InputError(Problem("calibration file is not UTF-8 text; delete it and calibrate again", str(path))) from None
    except OSError as exc:
        raise InputError(Problem(f"cannot read the calibration file: {exc.strerror or exc}", str(path))) from None
    if not isinstance(data, dict) or not isinstance(data.get("printers", {}), dict) \
            or not isinstance(data.get("default"), (str, type(None))):
        raise InputError(Problem("calibration file has an unexpected shape; delete it and calibrate again", str(path)))
    data.setdefault("printers", {})
    return data


def _measured(entry) -> tuple[float, float] | None:
    """A stored entry's two measurements, or None when it was damaged by hand."""
    try:
        x, y = float(entry["measured_x"]), float(entry["measured_y"])
    except (KeyError, TypeError, ValueError):
        return None
    if not (90.0 <= x <= 110.0 and 90.0 <= y <= 110.0):      # also false for nan
        return None
    return x, y


def _margin(entry: object) -> float | None | bool:
    """A stored entry's margin: None when it has none, False when it was damaged by hand."""
    from .draw.furniture import MAX_PRINTER_MARGIN
    value = entry.get("margin") if isinstance(entry, dict) else None
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_PRINTER_MARGIN:
        return False
    return float(value)


def describe(entry) -> str:
    """One printer's stored measurements for `calibrate --show`."""
    got, margin = _measured(entry), _margin(entry)
    if got is None or margin is False:
        return "damaged (calibrate this printer again)"
    return f"measured x {got[0]:g} mm, y {got[1]:g} mm" + (f"; margin {margin:g} mm" if margin is not None else "")


def check_margin(value: float, option: str = "--printer-margin") -> None:
    """A printer margin builds can keep: 0 to MAX_PRINTER_MARGIN mm (NaN refused too)."""
    from .draw.furniture import MAX_PRINTER_MARGIN
    if not 0.0 <= value <= MAX_PRINTER_MARGIN:
        raise InputError(Problem(f"{option} {value:g} is out of range",
                                 expected=f"a margin from 0 to {MAX_PRINTER_MARGIN:g} mm: more would shrink "
                                 "the content under 90%"))


def check_measurement(value: float, axis: str) -> None:
    # a printer that is off by more than 10% is not a scaling problem we can fix
    if not 90.0 <= value <= 110.0:
        raise InputError(Problem(f"--measured-{axis} {value:g}: the 100 mm line should measure between 90 and 110 mm",
                                 expected="the length in mm you measured on the printed 100 mm ruler"))


def _write(data: dict) -> None:
    try:
        write_text(config_path(), json.dumps(data, indent=2, sort_keys=True) + "\n")
    except OSError as exc:
        what = "a folder is in the way" if isinstance(exc, IsADirectoryError) else exc.strerror or str(exc)
        raise InputError(Problem(f"cannot store the calibration: {what}", str(config_path()))) from None


def save(measured_x: float | None, measured_y: float | None, printer: str | None = None,
         margin: float | None = None) -> Calibration:
    """Store a printer's measurements and/or its margin (what is not given stays as stored; a
    margin alone for a new printer stores it with no scale correction)."""
    for value, axis in ((measured_x, "x"), (measured_y, "y")):
        if value is not None:
            check_measurement(value, axis)
    if margin is not None:
        check_margin(margin, "--margin")
    data = _read()
    name = printer or DEFAULT_PRINTER
    old = data["printers"].get(name)
    kept = _measured(old) if old is not None else None
    if measured_x is None or measured_y is None:
        measured_x, measured_y = kept or (100.0, 100.0)
    entry: dict = {"measured_x": measured_x, "measured_y": measured_y}
    if margin is None and old is not None:      # re-measured: the printer's margin is still its own
        stored_margin = _margin(old)
        margin = stored_margin if isinstance(stored_margin, float) else None
    if margin is not None:
        entry["margin"] = margin
    data["printers"][name] = entry
    data["default"] = name
    _write(data)
    return Calibration(measured_x, measured_y, None if name == DEFAULT_PRINTER else name, margin)


def forget(printer: str | None = None) -> str | None:
    """Forget printer's stored correction (without a name: the one builds use, the last
    stored); returns the name forgotten, None when nothing was stored to forget. Builds
    are unscaled afterwards unless they name another stored printer."""
    data = _read()
    name = printer or data.get("default")
    if name is None or (printer is None and name not in data["printers"]):
        return None
    if name not in data["printers"]:
        raise InputError(Problem(f"no stored calibration for printer '{printer}'",
                                 expected="one of " + ", ".join(sorted(data["printers"])) if data["printers"]
                                 else "a name given to `sheetgen calibrate --printer` (none is stored)",
                                 suggestion=did_you_mean(printer, data["printers"])))
    del data["printers"][name]
    if data.get("default") == name:
        data["default"] = None
    _write(data)
    return name


def current(printer: str | None = None) -> Calibration:
    """The stored correction for printer (or the last one stored); identity if none."""
    data = _read()
    printers = data["printers"]
    name = printer or data.get("default")
    if name is None:
        return Calibration()
    if name not in printers:
        if printer is None:
            return Calibration()
        raise InputError(Problem(f"no stored calibration for printer '{printer}'",
                                 expected="a name given to `sheetgen calibrate --printer`",
                                 suggestion=did_you_mean(printer, printers)))
    got, margin = _measured(printers[name]), _margin(printers[name])
    if got is None or margin is False:
        raise InputError(Problem(f"calibration for '{name}' is damaged; calibrate again", str(config_path())))
    return Calibration(got[0], got[1], None if name == DEFAULT_PRINTER else name,
                       margin if isinstance(margin, float) else None)


def stored() -> dict:
    return _read()
