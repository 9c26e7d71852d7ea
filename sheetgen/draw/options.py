"""Options that shape a build, passed from the CLI to every composer."""
from __future__ import annotations

from dataclasses import dataclass, field

PAPER_SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


@dataclass(frozen=True)
class Calibration:
    """Printer scale correction: content is scaled by 1/scale so it prints true."""
    measured_x: float = 100.0           # what the printer made of a 100 mm ruler
    measured_y: float = 100.0
    printer: str | None = None
    margin: float | None = None         # mm the printer leaves blank at the edges (calibrate --margin)

    @property
    def factor_x(self) -> float:
        return 100.0 / self.measured_x

    @property
    def factor_y(self) -> float:
        return 100.0 / self.measured_y

    @property
    def is_identity(self) -> bool:
        return abs(self.measured_x - 100.0) < 1e-9 and abs(self.measured_y - 100.0) < 1e-9

    def label(self) -> str:
        if self.is_identity:
            return "no scale correction"
        who = f" ({self.printer})" if self.printer else ""
        return f"scale corrected x{self.factor_x:.4f} y{self.factor_y:.4f}{who}"


@dataclass(frozen=True)
class GameOptions:
    """The game options of a build (--columns, --rows, --hero, ...), each declared by a game
    (sheetgen.games.base.BuildOption) and converted to its type by the command.

    Reading an option no game declares is a programming error (KeyError), so a composer
    cannot silently read a misspelt name."""
    values: tuple[tuple[str, object], ...] = ()
    declared: frozenset = frozenset()           # empty: any name (composers called directly, tests)

    def get(self, name: str, default=None):
        if self.declared and name not in self.declared:
            raise KeyError(f"no build option '{name}' (declared: {', '.join(sorted(self.declared))})")
        return dict(self.values).get(name, default)

    def given(self) -> dict:
        return {k: v for k, v in self.values if v is not None}


def game_options(**values) -> GameOptions:
    """GameOptions from keywords (None values left out): game_options(hero="kael")."""
    return GameOptions(tuple((k, v) for k, v in values.items() if v is not None))


@dataclass(frozen=True)
class BuildOptions:
    paper: str | None = None            # a4 | letter; None = the definition's own
    dpi: int = 150                      # PNG resolution
    seed: int = 1                       # for anything random in a sheet
    grayscale: bool = False             # ink saver: no colour fills; patterns/letters instead
    calibration: Calibration = field(default_factory=Calibration)
    duplex: bool = False                # card sheets: add mirrored back pages
    ruler: bool = True                  # print the 50 mm calibration ruler
    game: GameOptions = field(default_factory=GameOptions)   # options a game's sheets take
    scan_marks: bool = True             # playable pages: the corner markers and QR code of `sheetgen scan`
    # --printer-margin: mm every page keeps clear of each edge (content scaled to fit); None: as composed
    printer_margin: float | None = None

    def option(self, name: str, default=None):
        """A game option's value (e.g. option("columns")), or default when not given."""
        return self.game.get(name, default)
