"""The registry's handler of the game's tables and sheets (kind: table, kind: sheet): load and
lint from formats.py, compose through sheets.py (which never sees the formats; this module
passes it what it draws).  Play logs have their own handler, playlog.py."""
from __future__ import annotations

from ..base import Handler
from .formats import MODEL, MODELS, Sheet, lint, load

__all__ = ["MODEL", "MODELS", "load", "lint", "compose"]


def compose(defn, options):
    from . import sheets as draw            # (the drawing is imported only to build)
    if isinstance(defn, Sheet):
        if defn.model.sheet == "graph":
            return draw.graph_document(defn.width, defn.height, options, title=defn.model.title,
                                       paper=options.paper or defn.model.paper)
        return draw.tables_document(defn.rooms, defn.entrances, defn.contents, options,
                                    title=defn.model.title, paper=options.paper or defn.model.paper,
                                    name=defn.source.path.stem, treasure=defn.treasure)
    return draw.tables_document(defn if defn.model.table == "d66" else None,
                                defn if defn.model.table == "entrance" else None,
                                defn if defn.model.table == "contents" else None, options,
                                title=defn.title, paper=options.paper or "a4", name=defn.source.path.stem,
                                treasure=defn if defn.model.table == "treasure" else None)


# what the core calls for this kind (sheetgen.games.base.Handler)
HANDLER = Handler(load=load, lint=lint, compose=compose, models=lambda: (MODEL, MODELS))
