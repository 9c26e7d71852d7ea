"""N-up card sheets: 9-up positions, crop marks to the edge, trim/bleed boxes, duplex."""
import pytest

from sheetgen.definitions.registry import load
from sheetgen.draw.model import Group, Rect
from sheetgen.draw.nup import nup_grid, nup_pages
from sheetgen.draw.options import PAPER_SIZES, BuildOptions


def compose(name_or_path, **opts):
    loaded = load(name_or_path)
    return loaded.handler.compose(loaded.definition, BuildOptions(**opts))


def cards_of(page):
    return [i for i in page.items if isinstance(i, Group) and i.cls and i.cls.startswith("card")]


def crop_lines(page):
    group = next(i for i in page.items if isinstance(i, Group) and i.cls == "crop-marks")
    return list(group.items)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_room_cards_nine_up_with_crop_marks_to_the_edge(paper):
    doc = compose("room-cards", paper=paper)
    assert len(doc.pages) == 1
    page = doc.pages[0]
    w, h = PAPER_SIZES[paper]
    cards = cards_of(page)
    assert [c.id for c in cards] == [f"room-cards-{n}" for n in range(1, 10)]
    corners = [(c.transform[4], c.transform[5]) for c in cards]
    xs = sorted({round(x, 6) for x, _ in corners})
    ys = sorted({round(y, 6) for _, y in corners})
    assert len(xs) == 3 and len(ys) == 3
    assert [b - a for a, b in zip(xs, xs[1:])] == pytest.approx([63, 63])
    assert [b - a for a, b in zip(ys, ys[1:])] == pytest.approx([88, 88])
    assert xs[0] == pytest.approx(w - (xs[2] + 63))                      # centred across
    assert xs[0] >= 5 and ys[0] >= 5 and ys[2] + 88 <= h - 5
    # trim box = the block of cards (TrimBox in the PDF)
    assert (page.trim.x, page.trim.y, page.trim.w, page.trim.h) == pytest.approx((xs[0], ys[0], 189, 264))
    assert page.bleed is None
    # a crop mark on every trim line, reaching the page edge, never over a card
    marks = crop_lines(page)
    trim_xs = [xs[0] + 63 * k for k in range(4)]
    trim_ys = [ys[0] + 88 * k for k in range(4)]
    for x in trim_xs:
        vertical = [m for m in marks if m.x1 == pytest.approx(x) and m.x2 == pytest.approx(x)]
        assert any(min(m.y1, m.y2) == 0 for m in vertical)
        assert any(max(m.y1, m.y2) == pytest.approx(h) for m in vertical)
    for y in trim_ys:
        horizontal = [m for m in marks if m.y1 == pytest.approx(y) and m.y2 == pytest.approx(y)]
        assert any(min(m.x1, m.x2) == 0 for m in horizontal)
        assert any(max(m.x1, m.x2) == pytest.approx(w) for m in horizontal)
    for m in marks:
        inside_x = trim_xs[0] < (m.x1 + m.x2) / 2 < trim_xs[-1]
        inside_y = trim_ys[0] < (m.y1 + m.y2) / 2 < trim_ys[-1]
        assert not (inside_x and inside_y)
    # the template's named parts are on every card, with card-unique ids
    first = cards[0].items[0]
    assert {"c1-el-frame", "c1-el-door-top"} <= {i.id for i in first.items}


def test_duplex_adds_back_pages_in_mirrored_column_order(tmp_path):
    path = tmp_path / "deck.yaml"
    path.write_text("sheetgen: 1\nkind: deck\ntitle: Four\ncard: {width: 63mm, height: 88mm}\n"
                    "template:\n  frame: {type: box}\n"
                    "cards:\n" + "".join(f"  - elements: {{t: {{type: text, text: card {n}}}}}\n" for n in range(1, 5))
                    + "back:\n  b: {type: text, text: back}\n", encoding="utf-8")
    simplex = compose(path)
    assert [p.name for p in simplex.pages] == ["deck-1"]
    doc = compose(path, duplex=True)
    assert [p.name for p in doc.pages] == ["deck-1", "deck-1-back"]
    front, back = doc.pages
    pos = {c.id: (c.transform[4], c.transform[5]) for c in cards_of(front)}
    bpos = {c.id.removesuffix("-back"): (c.transform[4], c.transform[5]) for c in cards_of(back)}
    assert set(pos) == set(bpos) == {"deck-1", "deck-2", "deck-3", "deck-4"}
    w = front.width
    for cid, (x, y) in pos.items():
        bx, by = bpos[cid]
        assert by == pytest.approx(y)
        assert bx == pytest.approx(w - x - 63)       # flipped on the long edge it lands behind its front
    # card 1 is top-left on the front and top-right on the back; card 4 starts row 2
    assert bpos["deck-1"][0] > bpos["deck-3"][0] and pos["deck-4"][1] > pos["deck-1"][1]
    assert back.trim == pytest.approx(back.trim) and back.trim.x == pytest.approx(w - front.trim.x - front.trim.w)


def test_bleed_sets_bleed_box_and_keeps_marks_off_the_art(tmp_path):
    path = tmp_path / "bleed.yaml"
    path.write_text("sheetgen: 1\nkind: deck\ncard: {width: 63mm, height: 88mm, bleed: 3mm}\ncount: 6\n"
                    "template:\n  art: {type: box, x: -3mm, y: -3mm, width: 69mm, height: 94mm, fill: beige, stroke: none}\n",
                    encoding="utf-8")
    page = compose(path).pages[0]
    assert len(cards_of(page)) == 6                 # 2 x 3 with 3 mm bleed and 5 mm margins on A4
    assert page.bleed is not None
    assert page.bleed.w == pytest.approx(2 * 69) and page.trim.w == pytest.approx(2 * 69 - 6)
    assert page.bleed.x == pytest.approx(page.trim.x - 3)
    for m in crop_lines(page):
        for x, y in ((m.x1, m.y1), (m.x2, m.y2)):
            inside = page.bleed.x < x < page.bleed.x + page.bleed.w and page.bleed.y < y < page.bleed.y + page.bleed.h
            assert not inside
    assert not [i for i in page.items if isinstance(i, Group) and i.cls == "cut-lines"]   # no cut lines over bleed art


def test_nup_api_pages_and_validation():
    faces = [Rect(0, 0, 63, 88, id=f"f{i}") for i in range(10)]
    pages = nup_pages(faces, 63, 88, 210, 297, name="x")
    assert [p.name for p in pages] == ["x-1", "x-2"]
    assert len(cards_of(pages[0])) == 9 and len(cards_of(pages[1])) == 1
    assert nup_grid(63, 88, *PAPER_SIZES["letter"]).per_page == 9
    assert nup_grid(63, 88, *PAPER_SIZES["a4"], bleed=3).per_page == 6    # 3 x 69 mm leaves no margin
    assert nup_grid(63, 88, *PAPER_SIZES["a4"], bleed=2, margin=4).per_page == 9
    with pytest.raises(ValueError):
        nup_pages(faces, 63, 88, 210, 297, backs=[Rect(0, 0, 1, 1)] * 3)
    with pytest.raises(ValueError, match="does not fit"):
        nup_grid(300, 88, 210, 297)
    both = nup_pages(faces, 63, 88, 210, 297, backs=[Rect(0, 0, 63, 88)], duplex=True)
    assert [p.name for p in both] == ["cards-1", "cards-1-back", "cards-2", "cards-2-back"]
    # the lone card of sheet 2 sits top-left on the front, top-right on the back
    assert cards_of(both[3])[0].transform[4] == pytest.approx(210 - cards_of(both[2])[0].transform[4] - 63)


def test_card_too_big_for_the_page_is_a_located_error(tmp_path):
    from sheetgen.errors import InputError
    path = tmp_path / "big.yaml"
    path.write_text("sheetgen: 1\nkind: deck\ncard: {width: 250mm, height: 88mm}\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        compose(path)
    assert info.value.problems[0].format().startswith(f"{path}:3:7: card: a 250 x 88 mm card")
