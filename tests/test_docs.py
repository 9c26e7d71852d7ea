"""The documentation site (docs/, mkdocs.yml) builds strictly, its command reference is every
command's own --help, and README's links lead to pages that exist."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_site_builds_strictly_with_every_page_in_its_nav(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    # strict mode turns a page left out of the nav, or a broken link, into a failure (mkdocs.yml)
    for page in ("printing", "designing", "playing", "scanning", "checking", "reference/commands"):
        assert (tmp_path / "site" / page / "index.html").is_file(), page


def test_a_broken_link_fails_the_build(tmp_path):
    """The strict build above can fail: the same site with one link broken does not build."""
    import shutil
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "docs", copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    page = copy / "docs" / "checking.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [nowhere](no-such-page.md).\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=copy, capture_output=True, text=True)
    assert done.returncode != 0 and "no-such-page.md" in done.stdout + done.stderr


def test_the_command_reference_is_the_commands_help():
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "tools" / "command_reference.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = (ROOT / "docs" / "reference" / "commands.md").read_text(encoding="utf-8")
    for command in ("build", "check", "track new", "play", "scan", "simulate", "new map"):
        assert f"## sheetgen {command}\n" in text, command


def test_readmes_links_lead_to_pages_that_exist():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)\)", text)
    assert len(links) > 8
    for link in links:
        assert (ROOT / link).is_file(), link
