"""The design lab: play a map thousands of times and show how it plays (`sheetgen simulate`).

navigate.py  ways through the map as the pencil left it (BFS; digging only when needed)
policies.py  cautious / greedy / random players as small classes
runner.py    one complete four-round game through the map's rules object, seeded dice
campaigns.py the campaign maps' own games (Slaughter, Santa, Kraken: start, stops, goal, figures)
two.py       the 2 Players Mode (`--players 2`): two policies through the two-player rules, who wins
             how often and by which objective, two-player play logs
results.py   what a game gives (GameResult, RoundRecord, the outcomes)
stats.py     streaming integer statistics and the figures made from them
batch.py     N games in one process or J (chunks merged; the same result for any J)
report.py    the report as data and as text; comparison of two maps
pages.py     the report's PDF pages
export.py    a simulated game as a play log that `sheetgen check` accepts (steps by notation.py)
api.py       what the command calls: simulate(request) -> FourySimulation
"""
