"""The images of a piece as the web board's page turns it (the pieces of a puzzle solved by
hand, and those a player puts down on a game's board)."""

from __future__ import annotations

from typing import Any

from polytile.geometry import compose_transforms

__all__ = ["orientations"]

#: The mirror image (left-right) among :data:`polytile.geometry.TRANSFORMS`.
_MIRROR = 4


def orientations(shape: Any, one_sided: bool) -> list[list[list[int]]]:
    """The piece's images, for the page to turn and turn over: image ``4 * f + j`` is the
    piece turned over ``f`` times (0 or 1) and then turned a quarter ``j`` times clockwise,
    so turning adds one to ``j`` and turning over maps ``(f, j)`` to ``(1 - f, -j mod 4)``.
    Each is listed as cell offsets from the cell nearest its middle (the cell under the
    pointer). Four images for a one-sided piece."""
    images = []
    for f in (0, 1)[: 1 if one_sided else 2]:
        for j in range(4):
            cells = shape.transform(compose_transforms(j, _MIRROR) if f else j).cells
            height = max(r for r, _ in cells)
            width = max(c for _, c in cells)
            ar, ac = min(cells, key=lambda rc: ((2 * rc[0] - height) ** 2
                                                + (2 * rc[1] - width) ** 2, rc))  # fmt: skip
            images.append([[r - ar, c - ac] for r, c in cells])
    return images
