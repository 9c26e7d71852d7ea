"""The design lab: play a map thousands of times and show how it plays (`sheetgen simulate`).

navigate.py  ways through the map as the pencil left it (BFS; digging only when needed)
policies.py  cautious / greedy / random players as small classes
runner.py    one complete game through sheetgen.games.foury.rules.apply, seeded dice
stats.py     streaming integer statistics, Wilson interval, two-proportion z test
batch.py     N games in one process or J (chunks merged; the same result for any J)
report.py    the report as data and as text; comparison of two maps
export.py    a simulated game as a play log that `sheetgen check` accepts
exploration.py  --ruleset exploration: map mode run many times
api.py       what the command calls (run, logs, report pages via sheetgen.games.foury.sim.pages)
"""
