"""sheetgen: print-and-play sheets and roll-and-write rules for dungeon games."""

__version__ = "0.1.0"
