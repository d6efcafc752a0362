"""The player colours shared by every game, file and picture.

Examples
--------
>>> COLORS["yellow"], list(COLORS)
('Y', ['blue', 'yellow', 'red', 'green'])
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["COLORS"]

#: Colour names and their board letters, in turn order.
COLORS: Mapping[str, str] = MappingProxyType({"blue": "B", "yellow": "Y", "red": "R", "green": "G"})
