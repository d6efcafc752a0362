"""Picture files: :func:`save_picture` writes SVG, PNG or text by the file's suffix, and
:func:`save_sheet` several pictures on one page."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from polytile._files import output_suffix, write_atomic
from polytile.errors import FormatError
from polytile.geometry import Cell
from polytile.render.grids import check_view
from polytile.render.scene import Picture
from polytile.render.text import to_text

__all__ = ["save_picture", "save_sheet"]


def save_picture(
    obj: Picture,
    path: str | os.PathLike[str],
    cell: int = 24,
    title: str | None = None,
    *,
    marks: Iterable[Cell] = (),
    mark_color: str | None = None,
    highlight: Iterable[Cell] = (),
    highlight_color: str | None = None,
    coordinates: str | None = None,
    view: str | None = None,
) -> None:
    """Write a picture whose kind follows the file suffix: ``.svg``, ``.png`` or ``.txt``.

    A ``.txt`` picture is the plain (colour-less) :func:`to_text`; ``cell``, ``title`` and
    ``coordinates`` (the squares named around the board, as :func:`to_svg` takes them)
    apply to SVG and PNG; the marks and the highlight (as for :func:`to_text` and
    :func:`to_svg`) to all three. ``view``, for a solution or a puzzle on a box of cubes,
    is ``"layers"`` (the default) or ``"isometric"`` (:data:`~polytile.render.grids.VIEWS`):
    SVG and PNG draw either (a puzzle's empty box as its floor and walls, ruled in cells);
    text draws the layers only.

    Raises
    ------
    FormatError
        If the suffix is none of those three.
    ValueError
        If a colour is not a colour name, or ``view`` is not a view of the picture (any
        view of a picture other than a box of cubes; the isometric one in text).
    OSError
        If the file cannot be written.
    """
    suffix = output_suffix(path, ".svg")  # -o -: SVG
    marks, highlight = tuple(marks), tuple(highlight)
    check_view(obj, view)
    if suffix == ".txt" and view == "isometric":
        raise ValueError("a text picture shows a box's layers; the isometric view is drawn "
                         "as .svg or .png")  # fmt: skip
    if suffix == ".svg":
        from polytile.render.svg import to_svg

        svg = to_svg(
            obj,
            cell,
            title,
            marks=marks,
            mark_color=mark_color,
            highlight=highlight,
            highlight_color=highlight_color,
            coordinates=coordinates,
            view=view,
        )
        write_atomic(path, svg)
    elif suffix == ".png":
        from polytile.render.png import to_png

        to_png(obj, path, cell, title, marks=marks, mark_color=mark_color, highlight=highlight,
               highlight_color=highlight_color, coordinates=coordinates,
               view=view)  # fmt: skip
    elif suffix == ".txt":
        text = to_text(
            obj,
            False,
            marks=marks,
            mark_color=mark_color,
            highlight=highlight,
            highlight_color=highlight_color,
        )
        write_atomic(path, text)
    else:
        raise FormatError(
            f"cannot tell the picture kind from suffix {suffix or '(none)'!r}; "
            "use .svg, .png or .txt",
            str(path),
        )


def save_sheet(
    pictures: Sequence[tuple[Picture, str]],
    path: str | os.PathLike[str],
    cell: int = 24,
    heading: str | None = None,
    columns: int = 3,
) -> None:
    """Write several (picture, caption) pairs on one page whose kind follows the file
    suffix: ``.svg`` (:func:`~polytile.render.sheet.contact_sheet`), ``.png``
    (:func:`~polytile.render.sheet.contact_sheet_png`) or ``.txt`` (each plain
    :func:`to_text` after its caption, unless it starts with it, as a puzzle's does; a blank
    line between them).

    Raises
    ------
    FormatError
        If the suffix is none of those three.
    BoardError
        If a PNG page would be too large.
    OSError
        If the file cannot be written.
    """
    suffix = output_suffix(path, ".svg")
    if suffix == ".svg":
        from polytile.render.sheet import contact_sheet

        write_atomic(path, contact_sheet(pictures, columns, cell, heading))
    elif suffix == ".png":
        from polytile.render.sheet import contact_sheet_png

        write_atomic(path, contact_sheet_png(pictures, columns, cell, heading))
    elif suffix == ".txt":
        texts = [to_text(obj, False) for obj, _ in pictures]
        texts = [text if text.startswith(caption) else f"{caption}\n{text}"
                 for text, (_, caption) in zip(texts, pictures, strict=True)]  # fmt: skip
        write_atomic(path, "\n".join(texts))
    else:
        raise FormatError(
            f"cannot tell the picture kind from suffix {suffix or '(none)'!r}; "
            "use .svg, .png or .txt",
            str(path),
        )
