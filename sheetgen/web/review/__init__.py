"""The review page of `sheetgen scan PHOTO --review`: the overlay of one scan, the regions the
reader was least sure of first, a tap flipping a region's reading (app.py: make_review_app).

It knows no scanner: the command hands it a session (sheetgen.scan.review.ReviewSession) and
it calls that session's regions(), summary(), flip(id), save(), photo_png() and crop_png(id).
"""
from .app import make_review_app

__all__ = ["make_review_app"]
