"""The shared verbs (``render``, ``score``, ``validate``, ``solve-endgame``) on City Blocks
(Henning) files, chosen by the file's format (``polytile/henning@1``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

__all__ = ["is_henning", "render_henning", "score_henning", "solve_henning", "validate_henning"]

_TAG = '"polytile/henning@1"'


def is_henning(file: str) -> bool:
    """True when ``file`` is a City Blocks (Henning) document (its first bytes say so)."""
    if file == "-" or not Path(file).is_file():
        return False
    with open(file, "rb") as f:
        head = f.read(4096)
    return _TAG.encode() in head


def _load(file: str, move: int | None) -> Any:
    from polytile.puzzles.henning.files import load_henning

    return load_henning(file, move)


def _last_block(doc: Any, move: int | None) -> tuple[int, int] | None:
    """The block of the move played at ``move`` (the last one shown), for the highlight."""
    if doc.kind != "record" or not doc.moves:
        return None
    n = len(doc.moves) if move is None else move
    return doc.moves[n - 1].block if n > 0 else None


def render_henning(file: str, move: int | None, output: Path | None, color: bool | None,
                   cell: int) -> None:  # fmt: skip
    """``polytile render`` of a Henning file: the city in the terminal, or SVG/PNG/text."""
    from polytile.formats import write_atomic
    from polytile.puzzles.henning.picture import to_png, to_svg, to_text

    doc = _load(file, move)
    g = doc.state
    lit = _last_block(doc, move)
    if output is None:
        click.echo(to_text(g, color=color))
        if doc.kind == "view":
            click.echo(f"(the view of {('blue', 'red')[doc.player]}: the other hand is hidden)")
        return
    suffix = output.suffix.lower()
    block = 3 * cell  # --cell sizes a Blokus square; a city block shows a tile's name
    if suffix == ".svg":
        write_atomic(output, to_svg(g, block, highlight=lit))
    elif suffix == ".png":
        write_atomic(output, to_png(g, block, highlight=lit))
    elif suffix == ".txt":
        write_atomic(output, to_text(g, color=False) + "\n")
    else:
        raise click.BadParameter(f"{output}: use .svg, .png or .txt", param_hint="-o")
    click.echo(f"wrote {output}", err=True)


def score_henning(file: str, move: int | None, as_json: bool, color: bool | None) -> None:
    """``polytile score`` of a Henning file: money and every street's standing."""
    from polytile.puzzles.henning.picture import score_doc, score_table, to_text

    g = _load(file, move).state
    if as_json:
        click.echo(json.dumps(score_doc(g)))
        return
    click.echo(to_text(g, color=color))
    click.echo(score_table(g))


def validate_henning(file: str, as_json: bool) -> None:
    """``polytile validate`` of a Henning file: reading it checks everything."""
    doc = _load(file, None)
    what = {"record": f"game record, {len(doc.moves)} moves, all legal", "position":
            "position", "view": "view"}[doc.kind]  # fmt: skip
    if as_json:
        click.echo(json.dumps({"file": file, "valid": True, "game": "henning", "kind": doc.kind}))
    else:
        click.echo(f"{file}: valid City Blocks (Henning) {what}")


def solve_henning(file: str, move: int | None, as_json: bool, time_limit: float,
                  open_analysis: bool) -> None:  # fmt: skip
    """``polytile solve-endgame`` of a Henning file: the exact endgame, checked."""
    from polytile.puzzles.henning.endgame import EndgameStopped, solve_endgame

    doc = _load(file, move)
    if doc.kind == "view":
        raise click.BadParameter("a view hides the other hand; the exact endgame needs a full "
                                 "position or a record", param_hint="POSITION")  # fmt: skip
    try:
        r = solve_endgame(doc.state, open_analysis=open_analysis, time_limit=time_limit)
    except EndgameStopped as stop:
        click.echo(f"{file}: {stop}", err=True)
        raise SystemExit(130 if stop.reason == "interrupt" else 1) from None
    if as_json:
        click.echo(json.dumps(r.as_dict()))
        return
    head = "exact value" if not r.open else "exact value of this deal (open analysis)"
    sign = "+" if r.value > 0 else ""
    click.echo(f"{head}: blue {sign}{r.value} ({r.outcome}); final money blue ${r.money[0]}, "
               f"red ${r.money[1]}")  # fmt: skip
    who = ("blue", "red")[r.to_move]
    click.echo(f"best moves for {who}: " + ", ".join(str(m) for m in r.best_moves))
    click.echo("line: " + " / ".join(str(m) for m in r.pv))
    click.echo(f"searched {r.nodes:,} positions in {r.seconds:.2f} s")
