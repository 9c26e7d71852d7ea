"""`sheetgen scan`: a phone photo (or a flat scan) of a sheet sheetgen printed and a player
penciled on, read back region by region and checked.

    contract.py   what the core and a game's scan side tell each other (Region, GameScanner ...)
    sheet.py      the printed sheet again: identity -> definition, options, document, template
    image.py      the photo: markers, QR code, homography, quality, rectifying, lighting
    read.py       every region measured and classified (empty / marked / crossed / filled)
    pipeline.py   one photo from file to a ScanResult; report.py the sheetscan YAML and text;
                  overlay.py the overlay PNG

The photo simulator the tests and the bench photograph with (a hand's pencil, the camera, the
recipes of the corpora) is not part of the scanner: it lives in sheetgen.testing.

The image work needs numpy and OpenCV (`pip install 'sheetgen[scan]'`): `sheetgen scan` says so
(commands._common.require_extra).
The core knows no game: a game's scan module (`Game.scanner`) names its regions by the
stable ids of its drawing model and says what they mean.
"""
from __future__ import annotations
