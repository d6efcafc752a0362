"""Parameter types shared by the commands."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import click

__all__ = ["PICTURES", "SECONDS", "Finite", "Seconds", "check_output"]

#: The picture suffixes ``-o`` takes (``polytile.render.save_picture``).
PICTURES = (".svg", ".png", ".txt")


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


class Finite(click.FloatRange):
    """A finite number within a range (``nan`` and ``inf`` are refused)."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


def check_output(output: str | Path | None, suffixes: tuple[str, ...] | None = None,
                 what: str = "") -> None:  # fmt: skip
    """Refuse a bad ``-o`` before any work whose answer it would lose (exit 2): a folder
    that is missing or not writable, or (given ``suffixes``) a suffix not among them;
    ``what`` says what each suffix writes, for the message."""
    if output is None:
        return
    path = Path(output)
    if suffixes is not None and path.suffix.lower() not in suffixes:
        raise click.BadParameter(f"{output}: the suffix must be {', '.join(suffixes)}{what}",
                                 param_hint="-o")  # fmt: skip
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise click.BadParameter(f"{output}: no folder {folder}", param_hint="-o")
    if not os.access(folder, os.W_OK):
        raise click.BadParameter(f"{output}: cannot write in {folder}", param_hint="-o")
    if path.is_dir():
        raise click.BadParameter(f"{output} is a folder; give a file name", param_hint="-o")
