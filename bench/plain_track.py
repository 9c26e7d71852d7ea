"""The plain baseline of bench_track.py: what any tracker must do per command at the least,
with nothing of sheetgen: start Python, open the SQLite journal, read the current game's
steps and print how many there are.

    python bench/plain_track.py JOURNAL
"""
import json
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
game = db.execute("SELECT value FROM meta WHERE key = 'current'").fetchone()[0]
steps = [json.loads(s) for (s,) in db.execute("SELECT step FROM steps WHERE game_id = ? ORDER BY seq", (game,))]
print(f"game {game}, {len(steps)} step(s)")
