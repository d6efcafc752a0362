"""Parameter types shared by the commands."""

from __future__ import annotations

import math
from typing import Any

import click

__all__ = ["SECONDS", "Seconds"]


class Seconds(click.FloatRange):
    """A positive, finite number of seconds (``nan`` and ``inf`` are refused)."""

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(min=0, min_open=True)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return seconds


#: The type of every time limit option.
SECONDS = Seconds()
