"""Dungeon Foury rules fidelity (issue "Rules fidelity"): the pending extra step, INSERT
COIN's fresh character, the Slaughter's start, and one mistake read as one violation.
Legal and illegal play logs side by side in tests/data/foury_logs/fidelity/ (see
fidelity_helpers for the marks an illegal log carries)."""
from pathlib import Path


from fidelity_helpers import judgement

HERE = Path(__file__).parent / "data" / "foury_logs" / "fidelity"





def test_the_retired_reading_is_judged_without_it(tmp_path):
    """A log may still name 'extra-after-free' (it was documented): it is judged without it."""
    text = (HERE / "illegal-extra-step-kept-along-explored.yaml").read_text()
    p = tmp_path / "declared.yaml"
    p.write_text(text.replace("map: ../test-hall.yaml", f"map: {HERE.parent / 'test-hall.yaml'}\n"
                              "readings: [extra-after-free]"))
    verdict = judgement(p)
    assert not verdict.legal and verdict.declared and verdict.reading_names() == []
    assert [v.rule for v in verdict.violations] == ["roll.missing"]
