"""A reliability diagram as a PNG, with the standard library only (CI's python3 has no
plotting packages): stated confidence across, the share right up, one bar per bin of ten
equal-width bins (its shade darker the more answers it holds), the mean stated confidence
of each bin as a red mark, and the diagonal a calibrated model would follow.
"""

import struct
import zlib

SIZE = 320
MARGIN = 20


def _png(pixels: list[bytearray]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    height, width = len(pixels), len(pixels[0]) // 3
    raw = b"".join(b"\x00" + bytes(row) for row in pixels)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def draw(bins: list[dict], path) -> None:
    """`bins`: ten dicts with `answers`, `right` and `mean_stated` (as eval-grounding's
    calibration gives them). Writes the PNG to `path`; the same bins give the same bytes."""
    plot = SIZE - 2 * MARGIN
    pixels = [bytearray(b"\xff" * (SIZE * 3)) for _ in range(SIZE)]

    def put(x: int, y: int, rgb: tuple[int, int, int]) -> None:
        # y counts up from the plot's bottom edge.
        row, col = SIZE - MARGIN - y, MARGIN + x
        if 0 <= row < SIZE and 0 <= col < SIZE:
            pixels[row][col * 3 : col * 3 + 3] = bytes(rgb)

    most = max((b["answers"] for b in bins), default=0) or 1
    width = plot // len(bins)
    for i, b in enumerate(bins):
        if not b["answers"]:
            continue
        share = b["right"] / b["answers"]
        shade = int(200 - 150 * (b["answers"] / most))
        for x in range(i * width + 2, (i + 1) * width - 2):
            for y in range(int(share * plot)):
                put(x, y, (shade, shade, 255))
        if b.get("mean_stated") is not None:
            mark = int(b["mean_stated"] * plot)
            for x in range(i * width + 2, (i + 1) * width - 2):
                for y in (mark - 1, mark, mark + 1):
                    put(x, y, (220, 30, 30))
    for t in range(plot + 1):
        put(t, t, (120, 120, 120))
        put(t, 0, (0, 0, 0))
        put(0, t, (0, 0, 0))
    with open(path, "wb") as f:
        f.write(_png(pixels))
