"""``polytile solve cityblocks-max``: the best layout of one City Blocks colour, with its
proof (:data:`MAX`, as :data:`polytile.faces.registry.PUZZLES` names it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from polytile.colors import COLORS
from polytile.errors import SolverError
from polytile.faces.face import Console, Option
from polytile.faces.puzzle import (
    TIME_NOTE,
    WORKERS_OPTION,
    AnswerCheck,
    SolveRequest,
    save_solution,
)

__all__ = ["MAX", "CityBlocksMax", "check_layout"]

_COLORS = tuple(COLORS)


class _Shown:
    """What the progress display shows of CP-SAT's progress: the best and the bound."""

    def __init__(self, best: float | None, bound: float | None, seconds: float) -> None:
        self.done, self.total, self.seconds = 0, 1, seconds
        self.count = "-" if best is None else f"{best:g}"
        self.nodes = "-" if bound is None else f"{bound:g}"


class CityBlocksMax(AnswerCheck):
    """One City Blocks colour's 20 pieces laid out for the best score, area or free cells."""

    name = "cityblocks-max"
    label = "cityblocks-max"
    help = ("the best layout of one City Blocks colour's 20 pieces (on the starting board or "
            "--from a position), by CP-SAT with a proof of optimality")  # fmt: skip
    examples = ("polytile solve cityblocks-max --color red --objective area",
                "polytile solve cityblocks-max --from game.json --color yellow --json")  # fmt: skip
    options = (
        Option("player", "The colour to lay out (blue, yellow, red, green) [default: blue].",
               _COLORS, flag="--color"),
        Option("objective", "What to maximise [default: score].", ("score", "area", "free")),
        Option("start_from", "Lay out the colour's remaining pieces on this position instead "
               "of the starting board.", flag="--from", metavar="POSITION"),
        WORKERS_OPTION,
    )  # fmt: skip
    notes: ClassVar[Mapping[str, str]] = {
        "seed": "{name}: searched with CP-SAT.",
        "time_limit": TIME_NOTE,
    }
    output_note: ClassVar[str] = (" (.json: the layout, read back by render and by validate, "
                                  "which replays it by the rules on the board it was laid out "
                                  "on and checks its score; the others: a picture)")  # fmt: skip

    def check_answer(self, solution: Any, against: str,
                     recorded: bool) -> tuple[str, list[str]] | None:  # fmt: skip
        """A layout replayed by the rules engine on the board it was laid out on, its
        recorded score, area, free cells and board checked against the engine's."""
        if against != self.name:
            return None
        return f"{self.name} (replayed by the rules)", check_layout(solution)

    def drawn(self, solution: Any) -> Any:
        """A layout with the board it was laid out on: the four centre squares (and, for
        one made ``--from`` a position, that position's pieces), as every other City Blocks
        picture draws them (#48: render left them out). A layout on a board of another size
        draws as it is."""
        from dataclasses import replace

        from polytile.formats import PlacedPiece
        from polytile.puzzles.cityblocks.rules import CityBlocks
        from polytile.regions import color_components

        try:
            start = _start_position(solution.extra)
        except ValueError:  # drawn on the starting board; validate says what is wrong
            start = None
        rows = list(CityBlocks().board_rows() if start is None else start.board)
        if (solution.rows, solution.cols) != (len(rows), len(rows[0])):
            return solution
        under = [PlacedPiece("centre" if len(cells) == 1 else "placed", tuple(sorted(cells)),
                             name)
                 for name, letter in COLORS.items()
                 for cells in color_components(rows, letter)]  # fmt: skip
        return replace(solution, placements=(*under, *solution.placements))

    def solve(self, console: Console, request: SolveRequest) -> None:
        """Lay out the colour's pieces for the best objective; print the result checked by
        the rules engine.

        Exit 0 with a layout (``"optimal"`` only when proven), 1 when none was found in time,
        130 after Ctrl-C without a layout.
        """
        player = request.option("player", "blue")
        objective = request.option("objective", "score")
        whole = 60.0 if request.time_limit is None else request.time_limit
        time_limit = request.clock.left(whole, reserve=0.25)
        if time_limit is not None and time_limit <= 0.05:  # start-up took the limit: no CP-SAT
            console.err(f"cityblocks-max {player}: no layout found in the time limit (start-up "
                        "used it; OR-tools alone takes half a second to load)")  # fmt: skip
            raise SystemExit(1)
        from polytile.puzzles.cityblocks.maximum import max_layout

        game = _start(request.option("start_from"))

        def describe(p: Any) -> str:
            return f"best {p.count}, bound {p.nodes}"

        # time_limit is what is left of the whole command's limit: building the model does
        # not watch it, so a deadline stops that too, as a Ctrl-C would (CP-SAT keeps its best
        # layout).
        deadline = request.clock.deadline(whole)
        progress = console.progress(f"cityblocks-max {player}", True, describe)
        with progress as update:
            report = None if update is None else (lambda o, b, s: update(_Shown(o, b, s)))
            try:
                with deadline:
                    result = max_layout(player, objective, position=game.to_position(),
                                        time_limit=time_limit,
                                        workers=request.option("workers", 2),
                                        seed=0 if request.seed is None else request.seed,
                                        progress=report)  # fmt: skip
            except KeyboardInterrupt:  # pragma: no cover - the runner keeps the best found
                if deadline.fired:  # still building the model when the limit ran out
                    console.err(f"cityblocks-max {player}: no layout found in the time limit "
                                "(it ran out while the model was being built)")  # fmt: skip
                    raise SystemExit(1) from None
                console.err("interrupted before a layout was found")
                raise SystemExit(130) from None
        if result.solution is None:
            console.err(f"cityblocks-max {player}: no layout found in the time limit (bound "
                        f"{result.bound})")  # fmt: skip
            raise SystemExit(1)
        _report(console, request, game, player, objective, result)


def _start(start_from: str | None) -> Any:
    """The game to lay out on: the position ``--from`` names (a City Blocks position or a
    plain text board), else the starting board."""
    from polytile.puzzles.cityblocks.rules import CityBlocks

    if start_from is None:
        return CityBlocks()
    from polytile._positions import check_game, read_board_or_position, source_of

    source = source_of(start_from)
    obj, is_text = read_board_or_position(start_from)
    doc = check_game(obj, is_text, ("cityblocks",), "solve cityblocks-max --from", source)
    return CityBlocks.from_position(doc, source=start_from)


def _start_position(extra: Mapping[str, Any]) -> Any:
    """The position a layout records as ``"start"`` (one made ``--from`` it), or None when
    it records none.

    Raises
    ------
    ValueError
        If ``"start"`` is not a City Blocks position, saying so as :func:`check_layout`
        reports it.
    """
    import json

    from polytile import formats

    start = extra.get("start")
    if start is None:
        return None
    try:
        position = formats.loads(json.dumps(start), 'its "start"')
    except (TypeError, ValueError) as exc:  # a FormatError, or no JSON at all
        raise ValueError(f'"start" is not a City Blocks position: {exc}') from None
    if not isinstance(position, formats.Position) or position.game != "cityblocks":
        raise ValueError('"start" must be the City Blocks position the layout was made on')
    return position


def check_layout(solution: Any) -> list[str]:
    """Every way a ``cityblocks-max`` answer (a :class:`~polytile.formats.Solution`) breaks
    the rules or misstates itself; empty when valid.

    Its placements are replayed by the rules engine as ``"color"``'s moves, the others
    passing, on the position recorded as ``"start"`` (a layout made ``--from`` one) or else
    the starting board: every piece must be one the colour holds, the first must cover its
    start cell, none may overlap another or a centre square. The recorded ``"score"``,
    ``"area"``, ``"free"``, ``"value"`` (of ``"objective"``) and ``"board"`` must be what the
    engine finds, and an ``"optimal"`` layout's ``"bound"`` its value. Optimality itself is
    not re-proven here (that takes the search).
    """
    from polytile._files import short
    from polytile.errors import FormatError
    from polytile.puzzles.cityblocks.bounds import replay_layout
    from polytile.puzzles.cityblocks.rules import CityBlocks

    extra = solution.extra
    color = extra.get("color")
    if color not in _COLORS:
        return [f'"color" must be the colour laid out, one of {", ".join(_COLORS)}']
    others = sorted({str(p.color) for p in solution.placements if p.color != color})
    if others:
        return [f"placements of {', '.join(others)}: a {color} layout places {color}'s pieces "
                "only"]  # fmt: skip
    game = CityBlocks()
    if extra.get("start") is None and _others_placed(extra.get("board"), color):
        return ['the layout was made on a position the file does not record (made --from '
                'one before polytile recorded it as "start"): it cannot be replayed']
    try:
        start = _start_position(extra)
    except ValueError as exc:
        return [str(exc)]
    if start is not None:
        try:
            game = CityBlocks.from_position(start, source='its "start"')
        except FormatError as exc:
            return [f'"start" is not a City Blocks position: {exc}']
    rows = game.board_rows()
    if (solution.rows, solution.cols) != (len(rows), len(rows[0])):
        return [f"the board is {solution.rows}x{solution.cols}, City Blocks' is "
                f"{len(rows)}x{len(rows[0])}"]  # fmt: skip
    try:
        check = replay_layout(game, color, solution.placements)
    except SolverError as exc:
        return [str(exc)]
    got = check.score().colors[color]
    measured = {"score": got.total, "area": got.area, "free": got.free}
    reasons = [f'"{key}" is {short(extra[key])}, the rules engine scores the layout '
               f"{value}" for key, value in measured.items()
               if key in extra and extra[key] != value]  # fmt: skip
    objective = extra.get("objective", "score")
    if not isinstance(objective, str) or objective not in measured:
        reasons.append(f'"objective" must be one of {", ".join(measured)}')
        objective = None
    elif "value" in extra and extra["value"] != measured[objective]:
        reasons.append(f'"value" is {short(extra["value"])}, the layout\'s {objective} '
                       f"is {measured[objective]} by the rules engine")  # fmt: skip
    board = extra.get("board")
    if board is not None and board != check.board_rows():
        reasons.append('"board" is not the board the layout makes (replayed by the rules)')
    bound = extra.get("bound")
    if (solution.status == "optimal" and objective is not None and bound is not None
            and bound != measured[objective]):  # fmt: skip
        reasons.append(f'an "optimal" layout\'s "bound" is its {objective} '
                       f"{measured[objective]}, the file says {short(bound)}")  # fmt: skip
    return reasons


def _others_placed(board: Any, color: str) -> bool:
    """Whether a recorded ``board`` (rows of letters) shows pieces of colours other than
    ``color`` beyond their centre squares: a layout made on a position."""
    if not isinstance(board, list) or not all(isinstance(row, str) for row in board):
        return False
    mine = COLORS[color]
    return sum(ch in "BYRG" and ch != mine for row in board for ch in row) > 3


def _report(console: Console, request: SolveRequest, game: Any, player: str, objective: str,
            result: Any) -> None:  # fmt: skip
    """Replay and score the layout by the rules engine, then save and print it."""
    import json

    from polytile import formats
    from polytile.puzzles.cityblocks.bounds import replay_layout
    from polytile.puzzles.cityblocks.picture import save_score_picture, score_text

    check = replay_layout(game, player, result.solution.placements)
    got = check.score().colors[player]
    measured = {"score": got.total, "area": got.area, "free": got.free}
    if measured[objective] != result.value:
        raise SolverError(f"the layout's {objective} is {measured[objective]} by the rules "
                          f"engine, the model said {result.value}")  # fmt: skip
    # a layout made --from a position records it, so that validate replays it there
    start = ({} if request.option("start_from") is None else
             {"start": json.loads(formats.dumps(game.to_position()))})  # fmt: skip
    sol = formats.Solution(
        puzzle="cityblocks-max", rows=result.solution.rows, cols=result.solution.cols,
        placements=result.solution.placements, status=result.status,
        extra={"color": player, "objective": objective, "value": result.value,
               "bound": result.bound, "proof": result.proof,
               "theoretical_bound": result.theoretical.of(objective), **measured,
               "board": list(check.board_rows()), **start},
    )  # fmt: skip
    reasons = check_layout(sol)  # what validate will say of the file
    if reasons:
        raise SolverError(f"the layout failed its own check: {'; '.join(reasons)}")
    rows, score = check.board_rows(), check.score()
    save_solution(console, sol, request.output, lambda path: save_score_picture(rows, score, path))
    if request.as_json:
        console.out(formats.dumps(sol))
        return
    text = score_text(check.board_rows(), check.score(), color=request.color)
    console.out(text, nl=False, color="\x1b[" in text)
    proven = "proven optimal" if result.status == "optimal" else "not proven optimal"
    how = {"bound": ": it meets the closed-form bound", "search": ": CP-SAT closed the gap"}
    console.out(f"{player}: {objective} {result.value} ({proven}"
                f"{how.get(result.proof or '', '')}); bound {result.bound}; score {got.total} = "
                f"area {got.area} + free {got.free}")  # fmt: skip


#: ``polytile solve cityblocks-max``.
MAX = CityBlocksMax()
