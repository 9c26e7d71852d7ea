"""The user's stored printer scale corrections (sheetgen calibrate).

Stored as JSON in the user's config folder:
    {"default": "office", "printers": {"office": {"measured_x": 99.2, "measured_y": 99.6}}}
The printer name "default" is used when none is given.
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
    if not path.is_file():
        return {"default": None, "printers": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(Problem(f"calibration file is not valid JSON: {exc.msg}", str(path), exc.lineno, exc.colno)) from None
    if not isinstance(data, dict) or not isinstance(data.get("printers", {}), dict):
        raise InputError(Problem("calibration file has an unexpected shape; delete it and calibrate again", str(path)))
    data.setdefault("printers", {})
    return data


def check_measurement(value: float, axis: str) -> None:
    # a printer that is off by more than 10% is not a scaling problem we can fix
    if not 90.0 <= value <= 110.0:
        raise InputError(Problem(f"--measured-{axis} {value:g}: the 100 mm line should measure between 90 and 110 mm",
                                 expected="the length in mm you measured on the printed 100 mm ruler"))


def save(measured_x: float, measured_y: float, printer: str | None = None) -> Calibration:
    check_measurement(measured_x, "x")
    check_measurement(measured_y, "y")
    data = _read()
    name = printer or DEFAULT_PRINTER
    data["printers"][name] = {"measured_x": measured_x, "measured_y": measured_y}
    data["default"] = name
    write_text(config_path(), json.dumps(data, indent=2, sort_keys=True) + "\n")
    return Calibration(measured_x, measured_y, None if name == DEFAULT_PRINTER else name)


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
    entry = printers[name]
    try:
        return Calibration(float(entry["measured_x"]), float(entry["measured_y"]),
                           None if name == DEFAULT_PRINTER else name)
    except (KeyError, TypeError, ValueError):
        raise InputError(Problem(f"calibration for '{name}' is damaged; calibrate again", str(config_path()))) from None


def stored() -> dict:
    return _read()
