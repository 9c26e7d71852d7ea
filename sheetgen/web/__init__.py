"""The local web app: `sheetgen play` (the table companion) and `sheetgen design` (the map
workbench), served by one Starlette app on this machine (server.py), calling the games
through the registry like every other part of the core."""
