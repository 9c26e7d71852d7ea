"""What `sheetgen play` prints for a phone: the address as a QR code drawn in the terminal."""
from __future__ import annotations

import io


def qr_text(url: str) -> str:
    """URL as a QR code of terminal characters (segno), to scan with the phone's camera."""
    import segno
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()
