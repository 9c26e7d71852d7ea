"""The page-drawing processes of `sheetgen play --workers N` (PagePool, drawer.py), driven from
an event loop as the server drives them: each its own interpreter, spoken to over a socket;
a request given up half way does not shift the answers of the next ones; a process that died
is replaced for the next page; closing the pool ends them."""
import asyncio
import os
import re
import signal

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.web.play.app import PagePool, NotFound
from tests.test_play_command import HALL, _alive

TRAITS = "hearts=4,shields=2,weapon=2,clovers=2,shovels=2"


def _journal(tmp_path, games: int):
    journal = tmp_path / "j.sqlite"
    for _ in range(games):
        assert CliRunner().invoke(main, ["track", "new", "--map", str(HALL), "--journal", str(journal),
                                         "--traits", TRAITS]).exit_code == 0
    return journal


def _game_of(html: str) -> int:
    return int(re.search(r'data-game="(\d+)"', html).group(1))


@pytest.fixture
def pool(tmp_path):
    journal = _journal(tmp_path, 3)
    made = PagePool(journal, "form-key-of-the-test", 1)
    made.wait_ready(made.spawn(1))
    yield made
    made.close()


def test_each_page_is_the_one_asked_for_even_after_a_request_given_up(pool):
    async def scenario():
        first = asyncio.ensure_future(pool.page(2, {}))
        for _ in range(3):
            await asyncio.sleep(0)      # asked (written to the drawer), not yet answered
        first.cancel()                  # the browser went away
        pages = [await pool.page(gid, {}) for gid in (3, 1, 2)]
        return pages
    pages = asyncio.run(scenario())
    assert [_game_of(p) for p in pages] == [3, 1, 2]
    assert all('value="form-key-of-the-test"' in p for p in pages)     # the server's form key


def test_a_drawer_that_died_is_replaced_for_the_next_page(pool):
    async def scenario():
        assert _game_of(await pool.page(1, {})) == 1
        old = pool.drawers[0].proc.pid
        os.kill(old, signal.SIGKILL)
        os.waitpid(old, 0)
        page = await pool.page(2, {})
        return old, pool.drawers[0].proc.pid, page
    old, new, page = asyncio.run(scenario())
    assert new != old and _alive(new)
    assert _game_of(page) == 2


def test_a_game_not_in_the_journal_is_not_found_and_the_drawer_goes_on(pool):
    async def scenario():
        with pytest.raises(NotFound):
            await pool.page(99, {})
        return await pool.page(1, {})
    assert _game_of(asyncio.run(scenario())) == 1


def test_closing_the_pool_ends_its_processes(tmp_path):
    journal = _journal(tmp_path, 1)
    made = PagePool(journal, "k", 2)
    made.wait_ready(made.spawn(1))
    pids = [d.proc.pid for d in made.drawers]
    assert all(_alive(p) for p in pids)
    made.close()
    assert not any(_alive(p) for p in pids)
