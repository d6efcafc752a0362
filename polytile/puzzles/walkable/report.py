"""The report of ``polytile solve-endgame`` on Walkable Cities files: the rest of the game
solved exactly by backward induction when few drops are left, else the current round's
one-round horizon matrix game, labelled as such. Reached through the game's face."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from polytile.errors import OptionError
from polytile.faces.face import PICTURE_SUFFIXES, Console, EndgameRequest
from polytile.text import wrote

__all__ = ["ONE_ROUND", "solve_report"]

#: How the fallback answer is labelled, in text and JSON.
ONE_ROUND = "one-round horizon (payoff if the game ended after this round)"
_SHOWN = 12  # actions listed per mix in the text report (--json lists them all)


def solve_report(console: Console, file: str, r: EndgameRequest) -> None:
    """``polytile solve-endgame`` of a Walkable Cities record or position.

    The exact value (red's final boards-won margin; the tiebreak holder's equal count worth
    half a board) and both players' equilibrium mixes at the root by backward induction
    (:func:`polytile.puzzles.walkable.endgame.solve_endgame`), with the most likely line. When
    a piece has more than ``max_drops`` legal drops, the round's matrix game with the one-round
    horizon payoff instead, labelled so (exit 1: not the game's value). At the time limit or
    Ctrl-C nothing partial is printed as a value (exit 1 or 130).

    With an exact value, ``output`` (``.json``) gets the game with the best line played: a
    record's rounds up to ``move`` then the line (with a ``solve_endgame`` note), or for a
    position the position at the line's end; ``.svg``, ``.png`` or ``.txt`` get the picture
    at the line's end (``cell`` pixels a cell). Without one nothing is written.
    """
    from polytile.puzzles.walkable.endgame import EndgameRefused, EndgameStopped, solve_endgame
    from polytile.puzzles.walkable.files import load_walkable

    move, as_json, time_limit, max_drops = r.move, r.as_json, r.time_limit, r.max_drops
    output, cell = r.output, r.cell
    started = time.perf_counter()
    if output is not None:
        _check_output(output, cell)
    doc = load_walkable(file, move)
    g = doc.state
    if g.is_over():
        raise OptionError(
            f"{file}: the game is over; nothing is left to solve "
            "('polytile score' shows the result)",
            option="POSITION",
        )
    try:
        with console.search_progress("backward induction", True) as progress:
            sol = solve_endgame(g, max_drops=max_drops, time_limit=time_limit, progress=progress)
    except EndgameRefused as refused:
        reason = f"{refused} (--max-drops)"
        left = max(time_limit - (time.perf_counter() - started), 0.01)
        _one_round(console, file, g, as_json, reason, left)
        _unwritten(console, output)
        sys.exit(1)
    except EndgameStopped as stopped:
        why = "--time-limit" if stopped.reason == "time" else "Ctrl-C"
        console.err(f"{file}: no exact value: {stopped} ({why})")
        _unwritten(console, output)
        if as_json:
            console.out(
                _dumps(
                    {
                        "game": "walkable",
                        "exact": False,
                        "reason": str(stopped),
                        "positions": stopped.positions,
                    }
                )
            )
        sys.exit(130 if stopped.reason == "interrupt" else 1)
    if output is not None:
        _write_line(console, doc, sol, output, cell)
    if as_json:
        console.out(
            _dumps(
                {
                    "game": "walkable",
                    "exact": True,
                    "kind": "backward-induction",
                    **_where(g),
                    **sol.as_dict(),
                    "lead": _objective(g),
                }
            )
        )
        return
    _head(console, g)
    size = sol.size
    drops = ", ".join(f"{p} {n}" for p, n in size.drops.items())
    console.out(
        f"Legal drops now: {drops}; at most {size.drop_rounds} more "
        f"round{'s' if size.drop_rounds != 1 else ''} with a drop."
    )
    console.out(
        f"Value (exact, backward induction to the end of the game): red {sol.value:+.4g} "
        f"({_objective(g)})."
    )
    _strategies(console, sol.selection, sol.drop_games)
    console.out("Best line (the most likely actions), replayed by the rules engine:")
    for n, rnd in enumerate(sol.line, start=g.round + 1):
        console.out(f"  {n:>3}. {rnd}")
    console.out(f"Value at the end of that line: {sol.line_value:+g}.")
    console.out(
        f"Solved {sol.positions:,} positions in {sol.seconds:.2f} s; equilibrium checked "
        f"(no pure deviation gains more than {max(sol.gap, 0.0):.1g})."
    )


def _check_output(output: Path, cell: int) -> None:
    """Refuse a bad ``-o`` before solving, not after."""
    from polytile._files import output_suffix

    suffix = output_suffix(output, ".json")  # -o -: the game
    if suffix not in (".json", *PICTURE_SUFFIXES):
        raise OptionError(
            f"{output}: the suffix must be .json (the game with the best "
            "line played) or .svg, .png, .txt (its picture at the line's "
            "end)",
            option="-o",
        )
    if suffix in (".svg", ".png") and not 6 <= cell <= 128:
        raise OptionError(f"a Walkable Cities cell is 6 to 128 pixels, not {cell}", option="--cell")


def _unwritten(console: Console, output: Path | None) -> None:
    if output is not None:
        console.err(f"nothing written to {output} (no exact value, so no best line)")


def _write_line(console: Console, doc: Any, sol: Any, output: Path, cell: int) -> None:
    """The game with the best line played (see :func:`solve_report`), or its picture."""
    from polytile._files import output_suffix
    from polytile.formats import write_atomic
    from polytile.puzzles.walkable.files import dumps_position, dumps_record
    from polytile.puzzles.walkable.picture import to_png, to_svg, to_text

    g = doc.state.copy()
    first = g.round + 1
    for rnd in sol.line:  # replayed by the engine already; a drop phase lacks the selection
        if g.picks is None:
            g.play_round(rnd)
        else:
            g.drop(*rnd.drops)
    suffix = output_suffix(output, ".json")
    if suffix == ".svg":
        data: str | bytes = to_svg(g, cell)
    elif suffix == ".png":
        data = to_png(g, cell)
    elif suffix == ".txt":
        data = to_text(g, color=False) + "\n"
    elif doc.kind == "record":
        note = {
            "best_line_from_round": first,
            "value": round(sol.value, 9) + 0.0,
            "objective": sol.objective,
        }
        data = dumps_record(g, doc.setup, {**doc.extra, "solve_endgame": note})
    else:
        data = dumps_position(g)
    write_atomic(output, data)
    console.err(wrote(output))


def _where(g: Any) -> dict[str, Any]:
    """Where the game stands, with the names and shapes of ``polytile score --json``:
    ``round`` counts the rounds played, ``passes`` is ``{"red": n, "blue": n}``."""
    return {
        "round": g.round,
        "next_round": g.round + 1,
        "rotation": list(g.rotation),
        "passes": {"red": g.passes[0], "blue": g.passes[1]},
        "picks": list(g.picks) if g.picks is not None else None,
        "options": {"pass_limit": g.options.pass_limit, "tiebreak": g.options.tiebreak},
    }


def _objective(g: Any, horizon: bool = False) -> str:
    """What a value is: red's lead at the game's end, or (``horizon``) at the end of this
    round as if the game ended there."""
    when = "if the game ended after this round" if horizon else "at the end"
    play = "this round's equilibrium" if horizon else "the equilibrium"
    if g.options.tiebreak == "none":
        return f"red's boards won minus blue's {when}, both playing {play}"
    holder = "red" if g.options.tiebreak == "R" else "blue"
    return (
        f"red's boards won minus blue's {when}, an equal count worth half a board to "
        f"{holder} (the tiebreak holder), both playing {play}"
    )


def _head(console: Console, g: Any) -> None:
    step = "the drop" if g.picks is not None else "the selection"
    picks = f"; picks red {g.picks[0]}, blue {g.picks[1]}" if g.picks is not None else ""
    rotation = " ".join(g.rotation) or "empty (refilled at the selection)"
    console.out(
        f"Walkable Cities, round {g.round + 1}, {step}: rotation {rotation}{picks}; "
        f"passes red {g.passes[0]}, blue {g.passes[1]} (the game ends at "
        f"{g.options.pass_limit})."
    )


def _mix(console: Console, who: str, mix: list[tuple[Any, float]]) -> None:
    for k, (action, p) in enumerate(mix):
        if k == _SHOWN:
            console.out(f"    ... {len(mix) - _SHOWN} more (--json lists them all)")
            break
        console.out(f"    {who if k == 0 else '':<5} {p:6.3f}  {action}")


def _strategies(console: Console, selection: Any, drop_games: list[Any]) -> None:
    if selection is not None:
        console.out("Selection (mixed strategies):")
        _mix(console, "red", selection[0])
        _mix(console, "blue", selection[1])
    for d in drop_games:
        console.out(
            f"Drop phase after red {d.picks[0]}, blue {d.picks[1]} (value "
            f"{d.value:+.4g}; {d.red_actions} and {d.blue_actions} actions, the pass "
            "included):"
        )
        _mix(console, "red", d.red)
        _mix(console, "blue", d.blue)


def _one_round(
    console: Console, file: str, g: Any, as_json: bool, reason: str, seconds: float
) -> None:
    """The current round's matrix game with the one-round horizon payoff (phase.py)."""
    from polytile._warm import compiled
    from polytile.errors import SolverError
    from polytile.puzzles.walkable.endgame import DropGame
    from polytile.puzzles.walkable.rules import PASS, Drop

    console.err(f"{file}: no exact value: {reason}")
    console.err(f"solving this round's matrix game instead: {ONE_ROUND}, not the game's value")
    compiled(console, "walkable-phase", None, not as_json)  # the clock stands still meanwhile
    started = time.perf_counter()
    from polytile.puzzles.walkable.phase import solve_drop_phase, solve_round  # compiled now

    try:
        if g.picks is not None:
            ph = solve_drop_phase(g.cells, *g.picks, time_limit=seconds)
            value, selection, phases, gap = ph.value, None, {g.picks: ph}, ph.gap
        else:
            rs = solve_round(g.cells, g.rotation, time_limit=seconds)
            value, gap = rs.value, rs.gap
            selection = (rs.red, rs.blue) if len(rs.rotation) > 1 else None
            phases = {(r, b): rs.phases[(r, b)] for r, _ in rs.red for b, _ in rs.blue}
    except SolverError:
        if time.perf_counter() - started < seconds:
            raise
        console.err(f"{file}: the one-round matrix game was not solved within --time-limit either")
        if as_json:
            console.out(_dumps({"game": "walkable", "exact": False, "reason": reason}))
        return

    def text(piece: str, mix: list[tuple[Any, float]]) -> list[tuple[Drop | str, float]]:
        return [(PASS if a is None else Drop(piece, tuple(sorted(a))), p) for a, p in mix]

    games = [
        DropGame(
            (r, b), ph.value, text(r, ph.red), text(b, ph.blue), ph.red_drops + 1, ph.blue_drops + 1
        )
        for (r, b), ph in phases.items()
    ]
    if as_json:
        sel = (
            None
            if selection is None
            else {
                who: [{"pick": p, "p": q} for p, q in m]
                for who, m in zip(("red", "blue"), selection, strict=True)
            }
        )
        console.out(
            _dumps(
                {
                    "game": "walkable",
                    "exact": False,
                    "kind": "one-round-horizon",
                    "label": ONE_ROUND,
                    "reason": reason,
                    **_where(g),
                    "value": value,
                    "lead": _objective(g, horizon=True),
                    "selection": sel,
                    "drop_phases": [d.as_dict() for d in games],
                    "gap": gap,
                    "seconds": time.perf_counter() - started,
                }
            )
        )
        return
    _head(console, g)
    console.out(
        f"Value, {ONE_ROUND}: red {value:+.4g} (boards won margin; NOT the game's "
        "value: later rounds are not looked at)."
    )
    _strategies(console, selection, games)
    console.out(
        f"Solved in {time.perf_counter() - started:.2f} s; equilibrium checked (no pure "
        f"deviation gains more than {max(gap, 0.0):.1g})."
    )


def _dumps(doc: Any) -> str:
    """JSON with every value and probability rounded to 9 decimals: the linear programs'
    floating-point noise (-1.0000000000000002) says nothing a reader needs."""

    def clean(x: Any) -> Any:
        if isinstance(x, float):
            return round(x, 9) + 0.0  # + 0.0: no -0.0
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [clean(v) for v in x]
        return x

    return json.dumps(clean(doc))
