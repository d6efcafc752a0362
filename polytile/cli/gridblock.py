"""The shared verbs (``render``, ``score``, ``validate``) on Gridblock files, chosen by the
file's format (``polytile/gridblock@1``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

__all__ = ["is_gridblock", "render_gridblock", "score_gridblock", "validate_gridblock"]

_TAG = '"polytile/gridblock@1"'
_KIND_TEXT = {"position": "position", "view": "view"}


def is_gridblock(file: str) -> bool:
    """True when ``file`` is a Gridblock document (its first bytes say so;
    ``-`` is standard input)."""
    from polytile._files import has_tag

    return has_tag(file, _TAG.encode())


def _load(file: str, move: int | None) -> Any:
    from polytile.puzzles.gridblock.files import load_gridblock

    return load_gridblock(file, move)


def _view_note(doc: Any) -> str | None:
    if doc.kind != "view":
        return None
    from polytile.puzzles.gridblock.game import player_names
    from polytile.puzzles.gridblock.rules import COLOR_NAMES

    name = player_names(doc.state.options)[doc.player]
    hidden = [COLOR_NAMES[doc.state.colors[s]] for s in doc.hidden_hands()]
    names = " and ".join(filter(None, [", ".join(hidden[:-1]), *hidden[-1:]]))
    what = f"the cards of {names} (shown as -) and the later deals" if hidden else (
        "the later deals")  # fmt: skip
    return f"(the view of {name}: {what} are hidden)"


def render_gridblock(file: str, move: int | None, output: Path | None, color: bool | None,
                     cell: int, title: str | None = None) -> None:  # fmt: skip
    """``polytile render`` of a Gridblock file: the grid in the terminal, or SVG/PNG/text,
    with the walk of the last move shown (``title`` captions an SVG or PNG, in place of the
    file's name)."""
    from polytile.formats import write_atomic
    from polytile.puzzles.gridblock.files import last_walk
    from polytile.puzzles.gridblock.picture import to_png, to_svg, to_text

    doc = _load(file, move)
    g = doc.shown_state()
    walk = last_walk(g)
    note = _view_note(doc)
    if output is None:
        click.echo(to_text(g, color=color, last=walk))
        if note:
            click.echo(note)
        return
    suffix = output.suffix.lower()
    tile = 3 * cell  # --cell sizes a Blokus square; a Gridblock tile holds corners and movers
    if suffix in (".svg", ".png") and not 16 <= tile <= 512:
        raise click.BadParameter(f"a Gridblock tile is 3 cells: --cell 6 to 170, not {cell}",
                                 param_hint="--cell")  # fmt: skip
    if suffix == ".svg":
        write_atomic(output, to_svg(g, tile, last=walk, title=title))
    elif suffix == ".png":
        write_atomic(output, to_png(g, tile, last=walk, title=title))
    elif suffix == ".txt":
        write_atomic(output, to_text(g, color=False, last=walk) + "\n")
    else:
        raise click.BadParameter(f"{output}: use .svg, .png or .txt", param_hint="-o")
    click.echo(f"wrote {output}", err=True)


def score_gridblock(file: str, move: int | None, as_json: bool, color: bool | None) -> None:
    """``polytile score`` of a Gridblock file: each colour's cubes and tile bonuses, each
    player's points, who leads or won."""
    from polytile.puzzles.gridblock.files import last_walk
    from polytile.puzzles.gridblock.picture import score_doc, score_table, to_text

    doc = _load(file, move)
    g = doc.shown_state()
    note = _view_note(doc)
    if as_json:
        out = score_doc(g)
        if doc.kind == "view":
            from polytile.puzzles.gridblock.game import player_names
            from polytile.puzzles.gridblock.rules import COLOR_NAMES

            hidden = [COLOR_NAMES[g.colors[s]] for s in doc.hidden_hands()]
            for name in hidden:
                out["colors"][name]["hand"] = None  # not known, rather than empty
            out["view"] = {"player": player_names(g.options)[doc.player], "hidden_hands": hidden}
        click.echo(json.dumps(out))
        return
    click.echo(to_text(g, color=color, last=last_walk(g)))
    click.echo()
    click.echo(score_table(g, color=color))
    if note:
        click.echo(note)


def validate_gridblock(file: str, as_json: bool) -> None:
    """``polytile validate`` of a Gridblock file: reading it checks every rule and replays
    every move."""
    doc = _load(file, None)
    what = (f"game record, {len(doc.moves)} moves, all legal" if doc.kind == "record"
            else _KIND_TEXT[doc.kind])  # fmt: skip
    if as_json:
        click.echo(json.dumps({"file": file, "valid": True, "game": "gridblock",
                               "kind": doc.kind}))  # fmt: skip
    else:
        click.echo(f"{file}: valid Gridblock {what}")
