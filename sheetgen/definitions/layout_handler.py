"""The handler of `kind: layout` and `kind: deck` files (the registry names this module).

A layout loaded before (the same bytes, the same extends chain and images) comes back
from its snapshot (sheetgen.definitions.snapshot) without pydantic: building a sheet
the second time costs no validation.  Anything else goes through
sheetgen.definitions.layout, the format itself (its models, checks and located
errors), which is imported only then; its names (MODEL, the models) are reachable
here too.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..games.base import Handler

KIND = "layout"             # (decks too: one format)


@dataclass(frozen=True)
class Rel:
    """A coordinate relative to something known only when composing."""
    value: float
    unit: str           # 'cells' or '%'

    def __repr__(self) -> str:
        return f"{self.value:g}{self.unit}"


@dataclass
class LayoutDefinition:
    """A validated layout: the model (extends merged, image paths absolute; a
    snapshot's Plain stand-in when it comes from the cache), the cards of a deck as
    element mappings, a locator for late errors, and the files it was made of."""
    model: Any
    source: Any
    name: str
    cards: list[tuple[str, dict]] = field(default_factory=list)   # (card id, elements) per card
    where: Callable[..., Any] | None = None
    files: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return self.model.title or self.name


def load(data, source) -> LayoutDefinition:
    from . import snapshot
    kept = snapshot.recall(KIND, source.path)
    if kept is not None:
        model, name, cards = kept
        return LayoutDefinition(model, source, name, cards, where=_late_locator(data, source))
    from . import layout
    definition = layout.load(data, source)
    snapshot.remember(KIND, source.path,
                      (snapshot.plain(definition.model), definition.name,
                       [(card, snapshot.plain(elements)) for card, elements in definition.cards]),
                      files=definition.files, images=_images(definition))
    return definition


def element_key(definition: LayoutDefinition, element_id: str) -> tuple | None:
    """The key of a drawn element in the file (`el-NAME` is elements.NAME), for the layout
    lint's warnings."""
    name = element_id[3:] if element_id.startswith("el-") else None
    if name and name in (getattr(definition.model, "elements", None) or {}):
        return ("elements", name)
    return None


def _late_locator(data, source) -> Callable[..., Any]:
    """A locator for errors found while composing: it merges the data only if one is."""
    def locate(loc: tuple, message: str, **kw):
        from . import layout
        return layout.locator(layout.merged_data(data, source), source.filename)(loc, message, **kw)
    return locate


def _images(definition: LayoutDefinition) -> list[str]:
    """The image files the definition draws (their paths are absolute once checked)."""
    found: list[str] = []

    def visit(elements) -> None:
        for el in (elements or {}).values():
            if getattr(el, "type", None) == "image":
                found.append(el.path)
            visit(getattr(el, "elements", None))
    m = definition.model
    for part in (m.elements, m.template, m.back, *(g.elements for g in m.groups.values())):
        visit(part)
    for _, elements in definition.cards:
        visit(elements)
    return sorted(set(found))


def compose(definition: LayoutDefinition, options):
    from ..draw.layout import LayoutError, compose_layout
    from ..errors import InputError
    try:
        return compose_layout(definition, options)
    except LayoutError as exc:
        raise InputError(definition.where(exc.loc, exc.message)) from None


_NOT_HANDLED = {"lint", "check", "options_taken"}     # handler hooks layouts do not have


def __getattr__(name: str):
    """MODEL, the models and the rest of the format: sheetgen.definitions.layout's."""
    if name.startswith("__") or name in _NOT_HANDLED:
        raise AttributeError(name)
    from . import layout
    return getattr(layout, name)


# what the core calls for this kind (sheetgen.games.base.Handler)
def format_models():
    """The format's model (for `sheetgen schema`): imports the format, so only when asked."""
    from . import layout
    return layout.MODEL


HANDLER = Handler(load=load, element_key=element_key, compose=compose, models=format_models)
