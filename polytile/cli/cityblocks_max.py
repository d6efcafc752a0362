"""``polytile solve cityblocks-max``: the best layout of one City Blocks colour, with its proof."""

from __future__ import annotations

import sys
from typing import Any

import click

from polytile.errors import SolverError

__all__ = ["solve_cityblocks_max"]


def solve_cityblocks_max(
    player: str,
    objective: str,
    start_from: str | None,
    time_limit: float | None,
    workers: int | None,
    seed: int | None,
    as_json: bool,
    output: str | None,
    color: bool | None,
    whole_limit: float | None = None,
) -> None:
    """Lay out ``player``'s pieces for the best ``objective``; print the checked result.

    Exit 0 with a layout (``"optimal"`` only when proven), 1 when none was found in time,
    130 after Ctrl-C without a layout.
    """
    if time_limit is not None and time_limit <= 0.05:  # start-up took the limit: no CP-SAT
        click.echo(f"cityblocks-max {player}: no layout found in the time limit (start-up "
                   "used it; OR-tools alone takes half a second to load)", err=True)  # fmt: skip
        sys.exit(1)
    from polytile import formats
    from polytile.cli.clock import Deadline
    from polytile.cli.progress import progress_bar
    from polytile.cli.render import read_position
    from polytile.puzzles.cityblocks.bounds import replay_layout
    from polytile.puzzles.cityblocks.maximum import max_layout
    from polytile.puzzles.cityblocks.picture import save_score_picture, score_text
    from polytile.puzzles.cityblocks.rules import CityBlocks

    if start_from is not None:
        doc, _ = read_position(start_from, ("cityblocks",), "solve cityblocks-max --from")
        game = CityBlocks.from_position(doc, source=start_from)
    else:
        game = CityBlocks()

    def describe(p: Any) -> str:
        return f"best {p.count}, bound {p.nodes}"

    class _Shown:
        def __init__(self, best: float | None, bound: float | None, seconds: float) -> None:
            self.done, self.total, self.seconds = 0, 1, seconds
            self.count = "-" if best is None else f"{best:g}"
            self.nodes = "-" if bound is None else f"{bound:g}"

    # time_limit is what is left of the whole command's limit, whole_limit that limit:
    # building the model does not watch it, so a deadline stops that too, as a Ctrl-C would
    # (CP-SAT keeps its best layout).
    deadline = Deadline.of_limit(whole_limit)
    with progress_bar(f"cityblocks-max {player}", not as_json, describe) as update:
        report = None if update is None else (lambda o, b, s: update(_Shown(o, b, s)))
        try:
            with deadline:
                result = max_layout(
                    player,
                    objective,
                    position=game.to_position(),
                    time_limit=time_limit,
                    workers=workers,
                    seed=0 if seed is None else seed,  # reproducible by default
                    progress=report,
                )
        except KeyboardInterrupt:  # pragma: no cover - the runner keeps the best found
            if deadline.fired:  # still building the model when the limit ran out
                click.echo(f"cityblocks-max {player}: no layout found in the time limit "
                           "(it ran out while the model was being built)", err=True)  # fmt: skip
                sys.exit(1)
            click.echo("interrupted before a layout was found", err=True)
            sys.exit(130)
    if result.solution is None:
        click.echo(
            f"cityblocks-max {player}: no layout found in the time limit (bound {result.bound})",
            err=True,
        )
        sys.exit(1)
    # The rules engine replays the layout and scores it before anything is printed.
    check = replay_layout(game, player, result.solution.placements)
    got = check.score().colors[player]
    measured = {"score": got.total, "area": got.area, "free": got.free}
    if measured[objective] != result.value:
        raise SolverError(
            f"the layout's {objective} is {measured[objective]} by the rules engine, "
            f"the model said {result.value}"
        )
    sol = formats.Solution(
        puzzle="cityblocks-max",
        rows=result.solution.rows,
        cols=result.solution.cols,
        placements=result.solution.placements,
        status=result.status,
        extra={
            "color": player,
            "objective": objective,
            "value": result.value,
            "bound": result.bound,
            "proof": result.proof,
            "theoretical_bound": result.theoretical.of(objective),
            **measured,
            "board": list(check.board_rows()),
        },
    )
    if output:
        if output.lower().endswith(".json"):
            formats.save(sol, output)
            click.echo(f"saved {output}", err=True)
        else:
            save_score_picture(check.board_rows(), check.score(), output)
            click.echo(f"saved {output} (a picture: no command reads it back; -o with .json "
                       "saves a file that validate and render read)", err=True)  # fmt: skip
    if as_json:
        click.echo(formats.dumps(sol))
        return
    text = score_text(check.board_rows(), check.score(), color=color)
    click.echo(text, nl=False, color="\x1b[" in text)
    proven = "proven optimal" if result.status == "optimal" else "not proven optimal"
    how = {"bound": ": it meets the closed-form bound", "search": ": CP-SAT closed the gap"}
    click.echo(
        f"{player}: {objective} {result.value} ({proven}{how.get(result.proof or '', '')}); "
        f"bound {result.bound}; score {got.total} = area {got.area} + free {got.free}"
    )
