#!/usr/bin/env python3
"""Draws Brolly's PNG icons (the umbrella of icon.svg) without any imaging library: 4x4
supersampled shapes, written as PNG with zlib. Run: python3 scripts/make-icons.py

  icon-192.png, icon-512.png   rounded square ("any")
  icon-maskable-512.png        full bleed, the umbrella inside the 80 % safe zone ("maskable")
  apple-touch-icon.png         180 x 180, full bleed, opaque (iOS rounds it itself)
"""
import math
import struct
import zlib
from pathlib import Path

BLUE = (0x1D, 0x4E, 0xD8)
WHITE = (0xFF, 0xFF, 0xFF)
OUT = Path(__file__).resolve().parent.parent / "Sources" / "BrollyServer" / "Public"


def inside_shape(x, y, rounded, scale):
    """What covers the point (x, y) in the icon's 512-unit space: 'fg', 'bg' or None."""
    # The umbrella, scaled about the centre for the maskable safe zone.
    ux, uy = 256 + (x - 256) / scale, 240 + (y - 240) / scale
    # Canopy: the upper half of an ellipse centred (256, 252), 168 wide each side, 156 high.
    if uy <= 252 and ((ux - 256) / 168) ** 2 + ((uy - 252) / 156) ** 2 <= 1:
        return "fg"
    # Handle: a 28-unit stroke from (256, 252) down to (256, 384), then a half circle of radius 40
    # through (216, 424) to (176, 384), with round caps.
    half = 14
    if abs(ux - 256) <= half and 252 <= uy <= 384:
        return "fg"
    if uy >= 384 and abs(math.hypot(ux - 216, uy - 384) - 40) <= half:
        return "fg"
    if math.hypot(ux - 176, uy - 384) <= half:
        return "fg"
    # Background: a rounded square (radius 96) or the full square.
    if rounded:
        r = 96
        cx = min(max(x, r), 512 - r)
        cy = min(max(y, r), 512 - r)
        if math.hypot(x - cx, y - cy) > r:
            return None
    return "bg"


def draw(size, rounded, scale=1.0, opaque=False):
    rows = []
    n = 4
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(n):
                for sx in range(n):
                    x = (px + (sx + 0.5) / n) * 512 / size
                    y = (py + (sy + 0.5) / n) * 512 / size
                    what = inside_shape(x, y, rounded, scale)
                    if what is None:
                        continue
                    colour = WHITE if what == "fg" else BLUE
                    acc[0] += colour[0]; acc[1] += colour[1]; acc[2] += colour[2]; acc[3] += 255
            k = n * n
            alpha = acc[3] // k
            if alpha:
                rgb = [round(c / (acc[3] / 255)) for c in acc[:3]]
            else:
                rgb = [0, 0, 0]
            if opaque:
                alpha = 255
                rgb = [c if acc[3] else b for c, b in zip(rgb, BLUE)]
            row += bytes(rgb) + bytes([alpha])
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    (OUT / "icon-192.png").write_bytes(draw(192, rounded=True))
    (OUT / "icon-512.png").write_bytes(draw(512, rounded=True))
    (OUT / "icon-maskable-512.png").write_bytes(draw(512, rounded=False, scale=0.72))
    (OUT / "apple-touch-icon.png").write_bytes(draw(180, rounded=False, scale=0.85, opaque=True))
    print("icons written to", OUT)
