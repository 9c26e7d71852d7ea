"""Dungeon Foury printed sheets: the map page (map | character sheet), the campaign
variations, heroes, the 2-player page, blank maps and the icon page."""
import io
import re
from pathlib import Path

import pytest

from sheetgen.definitions.registry import load
from sheetgen.games.foury.sheets.map import compose_map
from sheetgen.draw.icons import MAP_ICONS as ICON_NAMES, slug
from sheetgen.draw.model import Group, Rect, Text, walk
from sheetgen.draw.options import BuildOptions, game_options
from sheetgen.errors import InputError
from sheetgen.games.foury import board as fb

MAPS = ("ancient-story", "slaughter", "santa", "strength", "kraken", "foury-blank")
DATA = Path(__file__).parent / "data" / "foury_maps"
A4_LANDSCAPE = (297.0, 210.0)


def _render():
    return pytest.importorskip("sheetgen.render")


def _ids(doc, page=0):
    out = {}
    for item in doc.pages[page].items:
        _collect(item, out)
    return out


def _collect(item, out):
    if getattr(item, "id", None):
        out[item.id] = item
    if isinstance(item, Group):
        for sub in item.items:
            _collect(sub, out)


def _texts(doc, page=0):
    return [i.text for i, _ in walk(doc.pages[page].items) if isinstance(i, Text)]


@pytest.fixture(scope="module")
def maps():
    return {name: load(name).definition for name in MAPS}


@pytest.mark.parametrize("name", MAPS)
def test_map_page_is_landscape_a4_and_letter(maps, name):
    doc = compose_map(maps[name], BuildOptions())
    assert len(doc.pages) == 1
    assert (doc.pages[0].width, doc.pages[0].height) == A4_LANDSCAPE
    letter = compose_map(maps[name], BuildOptions(paper="letter"))
    assert (letter.pages[0].width, letter.pages[0].height) == (279.4, 215.9)


@pytest.mark.parametrize("name", MAPS)
def test_every_cell_entry_wall_item_and_event_is_in_the_svg(maps, name):
    render = _render()
    fmap = maps[name]
    svg = render.render_svg_pages(compose_map(fmap, BuildOptions()))[0]
    ids = set(re.findall(r'id="([^"]+)"', svg))
    b = fmap.board
    for c, sym in b.cells.items():
        assert f"cell-{fb.cell_name(c)}" in ids
        if sym in b.zones:
            assert re.search(rf'class="cell zone-{sym}"[^>]*id="cell-{fb.cell_name(c)}"', svg)
    for c, side in b.entries:
        assert f"entry-{fb.cell_name(c)}-{side}" in ids
    for text in fmap.model.walls:
        c, side = fb.parse_cell_side(text)
        assert f"wall-{fb.cell_name(c)}-{side}" in ids
    for c, names in b.items.items():
        for n in names:
            if n == "flooded" and b.is_flooded(c):
                assert f"item-{fb.cell_name(c)}-flooded" in ids
            else:
                assert f"item-{fb.cell_name(c)}-{slug(n)}" in ids
    for letter in b.zones:
        for k in range(1, 7):
            assert f"event-{letter}-{k}" in ids
    assert "track-hearts-1" in ids and "cut-line" in ids


def test_test_hall_ids_named_in_the_issue():
    fmap = load(str(DATA / "test-hall.yaml")).definition
    ids = _ids(compose_map(fmap, BuildOptions()))
    for wanted in ("cell-C4", "wall-B3-E", "entry-C1-N", "item-B2-statue", "event-A-3", "track-hearts-1"):
        assert wanted in ids
    assert "zone-C" in ids["cell-C4"].cls
    # the printed wall B3:E lies on the line between B3 and C3
    wall, cell = ids["wall-B3-E"], ids["cell-C3"]
    assert wall.x1 == wall.x2 == pytest.approx(cell.x)


def test_pdf_page_size_and_key_labels(maps):
    render = _render()
    from pypdf import PdfReader
    pdf = render.render_pdf_bytes(compose_map(maps["ancient-story"], BuildOptions()))
    reader = PdfReader(io.BytesIO(pdf))
    box = reader.pages[0].mediabox
    assert (round(float(box.width) * 25.4 / 72, 1), round(float(box.height) * 25.4 / 72, 1)) == A4_LANDSCAPE
    text = reader.pages[0].extract_text()
    for label in ("Life Points", "Shield", "Weapon", "Four-leaf", "Shovel", "Chests", "INSERT COIN",
                  "The Temple", "The Palace Rooms", "The Castle Cliff", "The Waterways", "THE ORACLE",
                  "x1", "x4", "+0", "+3", "TURN SEQUENCE", "DUNGEON FOURY"):
        assert label in text, label


def test_grayscale_has_no_colour_fills_and_keeps_zone_letters(maps):
    for name in ("ancient-story", "kraken", "santa"):
        fmap = maps[name]
        doc = compose_map(fmap, BuildOptions(grayscale=True))
        for item, _ in walk(doc.pages[0].items):
            style = getattr(item, "style", None)
            colours = [style.fill, style.stroke] if style else [getattr(item, "fill", None)]
            for c in colours:
                if c:
                    assert c[1:3] == c[3:5] == c[5:7], (name, item)
        letters = [i for i, _ in walk(doc.pages[0].items) if isinstance(i, Text) and i.cls == "zone-letter"]
        zone_cells = [c for c, s in fmap.board.cells.items() if s in fmap.board.zones]
        assert len(letters) == len(zone_cells)
        # the colour page does fill zones with colour: the test above can fail
        colour = compose_map(fmap, BuildOptions())
        fills = {i.style.fill for i, _ in walk(colour.pages[0].items) if isinstance(i, Rect) and i.style.fill}
        assert any(f[1:3] != f[3:5] for f in fills)


def test_grayscale_zones_get_distinct_patterns(maps):
    from sheetgen.games.foury.sheets.map import zone_pattern
    assert len({repr(zone_pattern(z)) for z in "ABCD"}) == 4


def test_slaughter_sheet(maps):
    fmap = maps["slaughter"]
    ids = _ids(compose_map(fmap, BuildOptions()))
    assert all(f"track-fury-{i}" in ids for i in range(1, 6))
    assert "track-enemies-48" in ids and "track-enemies-49" not in ids
    assert not any(k.startswith("req-") for k in ids)              # no rounds to awaken
    assert not any(k.startswith("entry-") for k in ids)            # no exits
    assert f"start-{fb.cell_name(fmap.board.start)}" in ids
    # the Fury boxes sit at the right end of the Life row
    hearts = [v for k, v in ids.items() if k.startswith("track-hearts-")]
    fury = ids["track-fury-1"].items[0]
    first = fury.items[0]
    assert first.y == pytest.approx(hearts[0].y, abs=0.2) and first.x >= max(h.x for h in hearts)


def test_santa_sheet(maps):
    ids = _ids(compose_map(maps["santa"], BuildOptions()))
    for prefix, n in (("collect-reindeer", 8), ("collect-rudolph", 1), ("collect-green-package", 16),
                      ("collect-blue-package", 16), ("collect-sleigh", 1)):
        assert f"{prefix}-{n}" in ids and f"{prefix}-{n + 1}" not in ids
    turns = maps["santa"].board.turns
    assert f"track-turns-{turns}" in ids and f"track-turns-{turns + 1}" not in ids
    assert "safe-zone" in ids and "track-candy-canes-1" in ids
    assert "centre" in ids and "icon-santa" in ids["centre"].cls


def test_kraken_sheet(maps):
    fmap = maps["kraken"]
    doc = compose_map(fmap, BuildOptions())
    ids = _ids(doc)
    assert "icon-kraken" in ids["centre"].cls
    turns = fmap.board.turns
    assert f"track-turns-{turns}" in ids
    assert sum(1 for t in _texts(doc) if t == "Kr") == turns // 5
    for c in fmap.board.flooded:
        assert f"item-{fb.cell_name(c)}-flooded" in ids
    assert any("5 spaces" in t for t in _texts(doc))


def test_strength_has_no_beige_hero_boxes_and_lists_the_potions(maps):
    from sheetgen.games.foury.sheets.character import BEIGE
    doc = compose_map(maps["strength"], BuildOptions())
    fills = [i.style.fill for i, _ in walk(doc.pages[0].items) if isinstance(i, Rect)]
    assert BEIGE not in fills
    assert "+2 life, 1 free step" in _texts(doc) and "+3 life, 1 free step" in _texts(doc)
    ancient = compose_map(maps["ancient-story"], BuildOptions())
    assert BEIGE in [i.style.fill for i, _ in walk(ancient.pages[0].items) if isinstance(i, Rect)]


def test_blank_map_has_a_title_strip_and_resizes(maps):
    fmap = maps["foury-blank"]
    doc = compose_map(fmap, BuildOptions())
    ids = _ids(doc)
    assert "title-strip" in ids and "map-title" not in ids
    big = compose_map(fmap, BuildOptions(game=game_options(columns=11, rows=11)))
    ids = _ids(big)
    assert "cell-K11" in ids and "cell-L1" not in ids and "cell-A12" not in ids
    cell = ids["cell-A1"]
    assert cell.w == pytest.approx(cell.h) and cell.w * 11 < 150          # fits the left part
    assert cell.x + 11 * cell.w < ids["cut-line"].x1


def test_heroes_data_and_sheets():
    from sheetgen.games.foury.formats.sheet import hero_traits, track_limits
    kael, elydion = hero_traits("kael"), hero_traits("Elydion")
    for h in (kael, elydion, hero_traits("melyra"), hero_traits("thalindra")):
        assert sum(h[k] for k in ("hearts", "shields", "weapon", "clovers", "shovels")) == 12
        assert all(h[k] <= h["caps"][k] for k in h["caps"]) and h["action"]
    assert kael["difficulty"] == "easy" and elydion["difficulty"] == "difficult"
    assert sum(kael["caps"].values()) > sum(elydion["caps"].values())
    assert track_limits()["hearts"] == 12 and track_limits(hero="kael")["hearts"] == kael["caps"]["hearts"]
    with pytest.raises(InputError) as exc:
        hero_traits("kaell")
    assert "kael" in str(exc.value)

    loaded = load("sheet-heroes")
    doc = loaded.handler.compose(loaded.definition, BuildOptions())
    assert all((p.width, p.height) == A4_LANDSCAPE for p in doc.pages)
    ids = {}
    for i in range(len(doc.pages)):
        ids.update(_ids(doc, i))
    from sheetgen.games.foury.sheets.character import CAP_RED, TRACKS
    n = 0
    for key, h in (("kael", kael), ("melyra", hero_traits("melyra")), ("thalindra", hero_traits("thalindra")),
                   ("elydion", elydion)):
        n += 1
        for track, _, _, base, extra in TRACKS:
            boxes = [ids[f"p{n}-track-{track}-{i}"] for i in range(1, base + extra + 1)]
            capped = [b for b in boxes if b.style.fill == CAP_RED]
            assert len(capped) == base + extra - h["caps"][track], (key, track)
        assert f"p{n}-hero-action" in ids
    texts = [t for i in range(len(doc.pages)) for t in _texts(doc, i)]
    for hero in ("Kael", "Melyra", "Thalindra", "Elydion", "EASY", "INTERMEDIATE", "DIFFICULT"):
        assert hero in texts


def test_map_page_can_be_prefilled_with_a_hero(maps):
    # the map format finds the hero the option names; the composer draws the hero it is given
    from sheetgen.games.foury.formats.map import compose
    from sheetgen.games.foury.formats.sheet import hero_object
    options = BuildOptions(game=game_options(hero="thalindra"))
    assert "Thalindra" in _texts(compose(maps["ancient-story"], options))
    assert "Thalindra" in _texts(compose_map(maps["ancient-story"], options, hero_object("thalindra")))
    assert "Thalindra" not in _texts(compose_map(maps["ancient-story"], BuildOptions()))


def _write(tmp_path, text):
    p = tmp_path / "sheet.yaml"
    p.write_text(text)
    return p


HEAD = "sheetgen: 1\nkind: sheet\nruleset: foury\ntitle: T\n"


def test_bad_hero_traits_are_located_errors(tmp_path):
    p = _write(tmp_path, HEAD + "sheet: heroes\nheroes:\n  x:\n    name: X\n    difficulty: easy\n"
               "    traits: {hearts: 5, shields: 3, weapon: 2, clovers: 1, shovels: 3}\n"
               "    caps: {hearts: 14, shields: 10, weapon: 8, clovers: 6, shovels: 2}\n    action: none\n")
    with pytest.raises(InputError) as exc:
        load(str(p))
    text = str(exc.value)
    assert "14 traits" in text and "above the cap" in text
    assert f"{p}:9:" in text or f"{p}:10:" in text                 # located in the file


def test_unknown_hero_and_bad_sheet_kind(tmp_path):
    p = _write(tmp_path, HEAD + "sheet: character\nhero: melira\n")
    with pytest.raises(InputError) as exc:
        load(str(p))
    assert "melyra" in str(exc.value) and ":6:" in str(exc.value)
    p = _write(tmp_path, HEAD + "sheet: charcter\n")
    with pytest.raises(InputError):
        load(str(p))


def test_two_player_page_and_spares():
    render = _render()
    from pypdf import PdfReader
    loaded = load("sheet-2players")
    doc = loaded.handler.compose(loaded.definition, BuildOptions())
    ids = _ids(doc)
    assert "p1-character-sheet" in ids and "p2-character-sheet" in ids and "p3-character-sheet" not in ids
    assert "p1-track-turns-40" in ids and "p2-insert-coin" in ids
    reader = PdfReader(io.BytesIO(render.render_pdf_bytes(doc)))
    text = reader.pages[0].extract_text()
    assert "Player 1" in text and "Player 2" in text and "2-player mode" in text
    spares = load("sheet-character")
    doc = spares.handler.compose(spares.definition, BuildOptions(paper="letter"))
    assert (doc.pages[0].width, doc.pages[0].height) == (279.4, 215.9)
    ids = _ids(doc)
    assert {"p1-character-sheet", "p2-character-sheet", "p3-character-sheet"} <= set(ids)
    # the sheets do not overlap
    xs = sorted(ids[f"p{i}-track-hearts-1"].x for i in (1, 2, 3))
    last = max(v.x + v.w for k, v in ids.items() if k.startswith("p1-track-hearts-"))
    assert last < xs[1]


def test_icon_page_has_every_icon():
    loaded = load("sheet-icons")
    doc = loaded.handler.compose(loaded.definition, BuildOptions())
    page = doc.pages[0]
    assert (page.width, page.height) == (210.0, 297.0)
    ids = _ids(doc)
    for name in ICON_NAMES:
        assert ids[f"icon-{slug(name)}"].items and f"icon-small-{slug(name)}" in ids
    labels = [i.text for i, _ in walk(page.items) if isinstance(i, Text) and i.cls == "icon-label"]
    assert len(labels) == len(ICON_NAMES) and "weapon (sword)" in labels
    assert all(i.y < page.height - 8 for i, _ in walk(page.items) if isinstance(i, Rect))   # nothing clipped


def test_labels_are_at_least_6pt_except_footer(maps):
    for name in MAPS:
        doc = compose_map(maps[name], BuildOptions())
        small = [i.text for i, _ in walk(doc.pages[0].items)
                 if isinstance(i, Text) and i.size < 5.99 and i.id != "footer" and "mm" not in i.text]
        assert not small, (name, small[:5])


def test_everything_stays_on_the_page(maps):
    for name in MAPS:
        doc = compose_map(maps[name], BuildOptions())
        p = doc.pages[0]
        for item, _ in walk(p.items):
            if isinstance(item, Rect):
                assert 0 <= item.x and item.x + item.w <= p.width - 4 and item.y + item.h <= p.height - 6, (name, item)


def _text_span(t):
    from sheetgen.fonts import text_width
    w = text_width(t.text, t.font, t.size)
    left = {"start": t.x, "middle": t.x - w / 2, "end": t.x - w}[t.anchor]
    return left, left + w


@pytest.mark.parametrize("name", MAPS)
def test_no_text_crosses_the_cut_line_or_the_page_edge(maps, name):
    doc = compose_map(maps[name], BuildOptions())
    page = doc.pages[0]
    cut = _ids(doc)["cut-line"].x1
    for group in page.items:
        if not isinstance(group, Group) or group.id in (None, "calibrated", "calibration-ruler"):
            continue
        right_side = group.id == "character-sheet"
        for t, _ in walk([group]):
            if isinstance(t, Text):
                left, right = _text_span(t)
                if right_side:
                    assert left > cut and right < page.width - 3.0, (name, t.text)
                else:
                    assert left > 3.0 and right < cut - 0.5, (name, group.id, t.text)


@pytest.mark.parametrize("campaign", ("ancient", "slaughter", "santa", "strength", "kraken"))
def test_narrow_character_sheets_keep_their_text_inside(tmp_path, campaign):
    p = _write(tmp_path, HEAD + f"sheet: character\ncampaign: {campaign}\ncopies: 3\n")
    loaded = load(str(p))
    doc = loaded.handler.compose(loaded.definition, BuildOptions(paper="letter"))
    ids = _ids(doc)
    cuts = sorted(v.x1 for k, v in ids.items() if k.startswith("cut-line-") and not k.endswith("scissors"))
    bounds = [(3.0, cuts[0]), (cuts[0], cuts[1]), (cuts[1], doc.pages[0].width - 3.0)]
    for i in (1, 2, 3):
        lo, hi = bounds[i - 1]
        for t, _ in walk([ids[f"p{i}-character-sheet"]]):
            if isinstance(t, Text):
                left, right = _text_span(t)
                assert lo < left and right < hi, (campaign, i, t.text)
            elif isinstance(t, Rect):
                assert lo < t.x and t.x + t.w < hi, (campaign, i, t)


# -- the sheet polish: what each page holds, on every paper -----------------------------------------

def _sheet_doc(name, **opts):
    loaded = load(name)
    return loaded.handler.compose(loaded.definition, BuildOptions(**opts))


@pytest.mark.parametrize("paper", ("a4", "letter"))
def test_every_map_keeps_its_die_table_and_names_its_enemies(maps, paper):
    from sheetgen.games.foury.sheets.map import map_foes
    for name in MAPS:
        fmap = maps[name]
        ids = _ids(compose_map(fmap, BuildOptions(paper=paper)))
        has_die = any("die" in names for names in fmap.board.items.values())
        assert ("die-table" in ids) == has_die, (name, paper)
        foes = map_foes(fmap)
        assert foes and all(f"legend-foe-{foe}" in ids for foe in foes), (name, paper, foes)
    assert {"yeti", "grinch"} <= set(map_foes(maps["santa"])) and "kraken" in map_foes(maps["kraken"])
    assert set(map_foes(maps["ancient-story"])) >= {"goblin", "orc", "imp", "bandit", "troll", "minotaur"}


def test_the_enemy_reference_reads_the_rules_tables():
    from sheetgen.games.foury.sheets.enemies import EFFECTS, FOES, strength
    from sheetgen.games.foury.tables import foe_strength
    assert strength("goblin") == "+0" and strength("kraken") == "+6"
    assert strength("orc") == f"+0..+{foe_strength('orc', 3)}" and strength("minotaur") == "+0..+6"
    assert strength("minotaur", rounds=1) == "+0"                  # a campaign of one round
    assert set(EFFECTS) == set(FOES) and set(FOES) <= set(fb.ENEMIES) | {"monster"}


def test_a_legend_that_cannot_hold_everything_is_an_error_naming_what(tmp_path):
    from sheetgen.games.foury.sheets.map import LegendPlan
    text = (DATA / "test-hall.yaml").read_text(encoding="utf-8")
    many = "[" + ", ".join(n for n in fb.ITEMS if n not in ("flooded",))[:400] + "]"
    p = tmp_path / "crowded.yaml"
    p.write_text(text.replace("  B1: statue\n", f"  B1: {many}\n"), encoding="utf-8")
    fmap = load(str(p)).definition
    assert not LegendPlan(fmap, 39.0, 60.0).fits
    with pytest.raises(InputError) as exc:
        from sheetgen.games.foury.sheets.map import draw_legend
        draw_legend(fmap, 0, 0, 39.0, 60.0, False)
    assert "no room for ON THIS MAP, ENEMIES" in str(exc.value) and "mm needed" in str(exc.value)


def test_heroes_pages_have_their_own_columns_and_use_the_space():
    doc = _sheet_doc("sheet-heroes")
    assert len(doc.pages) == 2
    notes = [[i.text for i, _ in walk([g]) if isinstance(i, Text)] for p in doc.pages for g in p.items
             if getattr(g, "id", None) == "notes"]
    assert "Kael · EASY" in notes[0] and "Kael · EASY" not in notes[1]
    assert "The market" in notes[1] and "Yeti" in notes[1] and "Kraken" in notes[1]
    ids = _ids(doc, 1)
    assert {"notes-foe-yeti", "notes-foe-grinch", "notes-foe-kraken", "notes-foe-goblin"} <= set(ids)
    # two full-width sheets (the map page's width) beside the column
    box = [r for r in walk([ids["p3-character-sheet"]]) if isinstance(r[0], Rect) and r[0].id == "p3-track-hearts-1"]
    assert box and box[0][0].w == pytest.approx(5.0)


def test_two_player_page_has_the_enemy_reference():
    ids = _ids(_sheet_doc("sheet-2players"))
    assert {f"notes-foe-{foe}" for foe in ("goblin", "orc", "imp", "bandit", "troll", "minotaur")} <= set(ids)
    assert "notes-foe-yeti" not in ids                               # the base game's enemies only


@pytest.mark.parametrize("name", ("sheet-character", "sheet-heroes", "sheet-2players"))
def test_character_pages_have_one_label_size_and_one_element_size(name):
    for paper in ("a4", "letter"):
        doc = _sheet_doc(name, paper=paper)
        for page in doc.pages:
            texts = [i for i, _ in walk(page.items) if isinstance(i, Text)]
            labels = {round(t.size, 2) for t in texts if t.cls == "label"}
            elements = {round(t.size, 2) for t in texts if t.cls == "element"}
            assert labels <= {7.5, 6.6} and elements and len(elements) == 1, (name, paper, labels, elements)
            assert min(t.size for t in texts if t.id != "footer" and "mm" not in t.text) >= 6.0


def test_surprise_resources_have_a_labelled_place():
    for doc in (compose_map(load("ancient-story").definition, BuildOptions()), _sheet_doc("sheet-character"),
                compose_map(load("slaughter").definition, BuildOptions())):
        ids = _ids(doc)
        places = [k for k in ids if k.endswith("surprise-resources")]
        assert places and all(ids[k].w > 40 for k in places)
        assert {"Surprise", "Resources"} <= set(_texts(doc))           # the label, on two lines


def test_blank_maps_say_what_is_printed_and_are_titled_as_blank_maps(maps):
    for name in ("foury-blank", "foury-blank-plain"):
        doc = compose_map(load(name).definition, BuildOptions())
        texts = _texts(doc)
        assert "Blank map" in texts and "The Ancient Story" not in texts
        how = " ".join(t for g in doc.pages[0].items if getattr(g, "id", None) == "blank-instructions"
                       for t in (i.text for i, _ in walk([g])))
        assert "are printed" in how and "draw the icons" in how and "Draw the icons" not in how


def test_the_uncoloured_blank_map_has_white_zones_with_their_letters_and_borders():
    plain = compose_map(load("foury-blank-plain").definition, BuildOptions())
    cells = [i for i, _ in walk(plain.pages[0].items) if isinstance(i, Rect) and (i.cls or "").startswith("cell zone-")]
    assert cells and {c.style.fill for c in cells} == {"#ffffff"}
    assert [i for i, _ in walk(plain.pages[0].items) if getattr(i, "cls", None) == "zone-border"]
    entries = [g for k, g in _ids(plain).items() if k.startswith("entry-")]
    assert entries and all(any(isinstance(i, Text) and i.text in "ABCD" for i, _ in walk([g])) for g in entries)
    coloured = compose_map(load("foury-blank").definition, BuildOptions())
    fills = {i.style.fill for i, _ in walk(coloured.pages[0].items) if isinstance(i, Rect)
             and (i.cls or "").startswith("cell zone-")}
    assert "#ffffff" not in fills and not [i for i, _ in walk(coloured.pages[0].items)
                                           if getattr(i, "cls", None) == "zone-border"]


@pytest.mark.parametrize("side", (8.0, 9.0, 10.4, 13.0, 16.0))
def test_items_sit_beside_the_zone_letter_at_print_sizes(side):
    from sheetgen.games.foury.sheets.map import _letter_corner, item_slots
    corner = _letter_corner(6.0)
    for count in (1, 2, 3):
        for x, y, size in item_slots(count, side, corner):
            assert x + size <= side + 1e-9 and y + size <= side + 1e-9
            assert x >= corner - 1e-9 or y >= corner - 1e-9           # clear of the letter's corner
            assert size >= side * 0.34
    # on a small cell the icons keep a readable size (and the layout lint names the letter they reach)
    x, y, size = item_slots(1, 5.0, corner)[0]
    assert size >= 2.5 and x < corner
