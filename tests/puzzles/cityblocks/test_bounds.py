"""City Blocks endgame bounds: the builders alone, hand-made endgames, brute force, play-outs.

Most positions here are tiny endgames on the 20x20 board: every cell is blocked (``#``)
except a few empty cells and the cells given by hand, and each colour that has started
holds a few pieces, the rest of its 88 squares filled in as one blob grown from its start
corner, kept away from the empty cells (so it adds area but no free edges). Brute force runs
the rules engine's game tree directly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from polytile import Board, piece
from polytile.board import placements
from polytile.errors import FormatError, SolverError, UnknownNameError
from polytile.formats import COLORS, Position, dumps, loads
from polytile.geometry import Cell
from polytile.models.cityblocks_lower import (
    CoverModel,
    add_first_pieces,
    add_opening,
    covered_weight,
    free_edge_weights,
)
from polytile.models.cpsat import add_cover_at_most, add_piece_at_most_once
from polytile.puzzles.cityblocks.bounds import (
    ExactSearchRefused,
    bounds,
    exact_endgame,
    lower_bound,
    placeable_pieces,
    upper_bound,
)
from polytile.puzzles.cityblocks.rules import (
    CENTRE_CELLS,
    COLOR_NAMES,
    PIECE_NAMES,
    START_CELLS,
    CityBlocks,
    Move,
)
from polytile.solvers.cpsat import solve

_SIZE = {p.name: p.size for p in map(piece, PIECE_NAMES)}
_SMALL = ("I2", "I3", "V3", "I4", "O4", "T4", "L4", "Z4")
_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))
FAST: dict[str, Any] = {"time_limit": 10.0, "workers": 1, "seed": 0}


# -- positions -------------------------------------------------------------------------------
def endgame(
    cells: Mapping[Cell, str],
    hands: Mapping[str, Sequence[str]],
    to_move: str = "blue",
    passes: int = 0,
    players: int = 4,
) -> Position:
    """A tiny endgame: ``cells`` as given (``.`` empty or a colour letter), all else blocked
    but the centre squares and each started colour's filler blob (see the module notes).

    A colour whose hand is the full set has not started: it gets no filler.
    """
    grid = [["#"] * 20 for _ in range(20)]
    for name, (r, c) in CENTRE_CELLS.items():
        grid[r][c] = COLORS[name]
    for (r, c), ch in cells.items():
        grid[r][c] = ch
    near = {(r + dr, c + dc) for (r, c) in [*cells, *CENTRE_CELLS.values()] for dr, dc in _STEPS}
    taken = set(cells) | set(CENTRE_CELLS.values()) | near
    for name, hand in hands.items():
        if len(hand) == len(PIECE_NAMES):
            continue
        letter = COLORS[name]
        have = 1 + sum(ch == letter for ch in cells.values())
        need = 89 - sum(_SIZE[p] for p in hand) - have
        sr, sc = START_CELLS[name]
        blob: list[Cell] = []
        seen: set[Cell] = set()
        while len(blob) < need:  # breadth first from the free cell nearest the corner
            rest = [(r, c) for r in range(20) for c in range(20)
                    if (r, c) not in taken and (r, c) not in seen]  # fmt: skip
            if not rest:
                raise ValueError(f"no room for {name}'s {need} filler cells")
            queue = [min(rest, key=lambda cell: abs(cell[0] - sr) + abs(cell[1] - sc))]
            seen.add(queue[0])
            for r, c in queue:
                blob.append((r, c))
                for dr, dc in _STEPS:
                    nb = (r + dr, c + dc)
                    if 0 <= nb[0] < 20 and 0 <= nb[1] < 20 and nb not in seen and nb not in taken:
                        seen.add(nb)
                        queue.append(nb)
        for r, c in blob[:need]:
            grid[r][c] = letter
            taken.add((r, c))
    rows = tuple("".join(row) for row in grid)
    full = {name: tuple(hands.get(name, PIECE_NAMES)) for name in COLOR_NAMES}
    extra = {"players": players, "consecutive_passes": passes}
    return Position("cityblocks", rows, to_move, full, extra)


def random_endgame(rng: random.Random, cells: int = 6, players: int = 4) -> Position:
    """A random tiny endgame: a blob of empty cells with random colour cells around it."""
    centre = set(CENTRE_CELLS.values())
    seed = rng.choice([*START_CELLS.values(), (rng.randrange(2, 8), rng.randrange(2, 18))])
    blob, seen = [seed], {seed}
    while len(blob) < cells:
        r, c = rng.choice(blob)
        dr, dc = rng.choice(_STEPS)
        nb = (r + dr, c + dc)
        if 0 <= nb[0] < 20 and 0 <= nb[1] < 20 and nb not in seen and nb not in centre:
            seen.add(nb)
            blob.append(nb)
    given: dict[Cell, str] = {cell: "." for cell in blob}
    hands: dict[str, tuple[str, ...]] = {}
    for name in COLOR_NAMES:
        start = START_CELLS[name]
        if start in seen and rng.random() < 0.5:
            hands[name] = PIECE_NAMES  # not started, its corner still open
        else:
            given[start] = COLORS[name]
            k = rng.randint(0, 2)
            hands[name] = tuple(sorted(rng.sample(_SMALL, k), key=PIECE_NAMES.index))
    letters = [COLORS[n] for n in COLOR_NAMES if len(hands[n]) < len(PIECE_NAMES)] + ["#"] * 2
    for r, c in blob:
        for dr, dc in _STEPS:
            nb = (r + dr, c + dc)
            if nb not in given and nb not in centre and 0 <= nb[0] < 20 and 0 <= nb[1] < 20:
                given[nb] = rng.choice(letters)
    seats = COLOR_NAMES[:3] if players == 3 else COLOR_NAMES
    return endgame(
        given, hands, rng.choice(seats), rng.choice([0, 0, 1, 2, len(seats) - 1]), players
    )


def play(moves: Sequence[str], players: int = 4) -> CityBlocks:
    game = CityBlocks(players)
    for text in moves:
        game.push(Move.parse(text))
    return game


def mid_game(seed: int, turns: int = 40) -> CityBlocks:
    rng = random.Random(seed)
    game = CityBlocks()
    for _ in range(turns):
        moves = game.legal_placements()
        game.push(rng.choice(moves) if moves else Move.pass_turn(game.to_move))
    return game


# -- brute force, straight from the rules engine ----------------------------------------------
def total(game: CityBlocks, color: str) -> int:
    return game.score().colors[color].total


def brute_upper(game: CityBlocks, color: str) -> int:
    """Best final score of ``color`` when only it places (from a state where it may place)."""
    if game.is_game_over():
        return total(game, color)
    moves = [Move.pass_turn(game.to_move)]
    if color in game.colors_to_move():
        moves += [m for m in game.legal_placements() if m.color == color]
    return max(_after(game, m, brute_upper, color) for m in moves)


def brute_lower(game: CityBlocks, color: str) -> int:
    """Least final score of ``color`` when it passes throughout and the others do anything."""
    if game.is_game_over():
        return total(game, color)
    moves = [Move.pass_turn(game.to_move)]
    if game.to_move != color:
        moves += [m for m in game.legal_placements() if m.color != color]
    return min(_after(game, m, brute_lower, color) for m in moves)


def brute_exact(game: CityBlocks, color: str) -> int:
    """Plain minimax over every legal move, ``color``'s seat maximising."""
    if game.is_game_over():
        return total(game, color)
    values = [_after(game, m, brute_exact, color) for m in game.legal_moves()]
    return max(values) if game.to_move == color else min(values)


def _after(game: CityBlocks, move: Move, fn: Callable[[CityBlocks, str], int], color: str) -> int:
    game.push(move)
    try:
        return fn(game, color)
    finally:
        game.pop()


def placing(game: CityBlocks, color: str) -> CityBlocks:
    """The same board with ``color`` free to place now (the relaxation the upper bound uses)."""
    pos = game.to_position()
    seat = color if color in game.seats else game.to_move
    return CityBlocks.from_position(
        replace(pos, to_move=seat, extra={**pos.extra, "consecutive_passes": 0})
    )


# -- the builders alone ------------------------------------------------------------------------
def _strip_model(colors: Sequence[int], starts: Mapping[int, Cell] | None = None) -> CoverModel:
    """A 1x4 strip: blue on (0,0), dominoes (one per colour given) on the other three cells."""
    board = Board(1, 4, frozenset({(0, 0)}))
    pl = placements(board, [piece("I2")] * len(colors))
    cm = CoverModel(pl, colors, free_edge_weights(["B..."], "B"), starts)
    add_piece_at_most_once(cm)
    add_cover_at_most(cm)
    return cm


def test_free_edge_weights_sum_to_free_edges() -> None:
    game = mid_game(3)
    rows = game.board_rows()
    for name in COLOR_NAMES:
        assert sum(free_edge_weights(rows, COLORS[name]).values()) == game.score().colors[name].free


def test_covered_weight_tiny() -> None:
    cm = _strip_model([1])
    cm.model.maximize(covered_weight(cm))
    r = solve(cm, workers=1)
    assert r.objective == 1.0 and r.status == "optimal"


def test_first_pieces_feasible_and_infeasible() -> None:
    # Yellow has not started and its start cell is (0,3): a domino on (0,1),(0,2) alone is
    # impossible, together with one on (0,3) it cannot fit either (three cells, two dominoes).
    cm = _strip_model([1, 1], starts={1: (0, 3)})
    add_first_pieces(cm)
    on_12 = [i for i in cm.x if set(cm.placements.cells_of(i).tolist()) == {1, 2}]
    on_23 = [i for i in cm.x if set(cm.placements.cells_of(i).tolist()) == {2, 3}]
    cm.model.add(cm.x[on_12[0]] == 1)
    assert solve(cm, workers=1).status == "infeasible"
    cm = _strip_model([1, 1], starts={1: (0, 3)})
    add_first_pieces(cm)
    cm.model.add(cm.x[on_23[0]] == 1)
    assert solve(cm, workers=1).status == "feasible"


def test_opening_feasible_and_infeasible() -> None:
    cm = _strip_model([1, 2])  # a yellow and a red domino
    add_opening(cm, [2])  # only red may open
    cm.model.add(sum(cm.x[i] for i in cm.x if cm.color_of(i) == 1) == 1)
    cm.model.add(sum(cm.x[i] for i in cm.x if cm.color_of(i) == 2) == 0)
    assert solve(cm, workers=1).status == "infeasible"
    cm = _strip_model([1, 2])
    add_opening(cm, [1])
    cm.model.add(sum(cm.x[i] for i in cm.x if cm.color_of(i) == 1) == 1)
    assert solve(cm, workers=1).status == "feasible"


# -- a hand-made endgame -----------------------------------------------------------------------
#: Row 5: ``B . . . Y``; blue and yellow hold a domino each, red and green are done.
CORRIDOR = {(5, 8): "B", (5, 9): ".", (5, 10): ".", (5, 11): ".", (5, 12): "Y"}
CORRIDOR_HANDS = {"blue": ["I2"], "yellow": ["I2"], "red": [], "green": []}


def test_corridor_by_hand() -> None:
    """Blue now: filler 85 (its area) + 1 free edge. Its domino on (5,10),(5,11) keeps that
    edge and adds one: 87. Yellow's domino on (5,9),(5,10) takes the edge: 85. Blue to move
    gets 87 (yellow's domino no longer fits); yellow to move holds blue to 85."""
    pos = endgame(CORRIDOR, CORRIDOR_HANDS)
    b = bounds(pos, "blue", **FAST)
    assert (b.score_now, b.lower.value, b.upper.value) == (86, 85, 87)
    assert b.lower.proven and b.upper.proven
    assert [(p.piece, p.cells) for p in b.upper.placements] == [("I2", ((5, 10), (5, 11)))]
    assert [(p.color, p.cells) for p in b.lower.placements] == [("yellow", ((5, 9), (5, 10)))]
    assert b.best_next == Move("blue", "I2", [(5, 10), (5, 11)])
    assert b.exact is not None and b.exact.value == 87 and b.exact.move == b.best_next
    yellow_first = bounds(replace(pos, to_move="yellow"), "blue", **FAST)
    assert yellow_first.exact is not None and yellow_first.exact.value == 85
    assert yellow_first.upper.value == 87  # the upper bound ignores whose turn it is


@pytest.mark.parametrize(
    ("to_move", "passes", "lower", "exact"),
    [
        ("red", 3, 86, 86),  # red's pass ends the game
        ("red", 2, 86, 86),  # red's and green's passes end the game
        ("red", 1, 86, 87),  # blue moves before the end, yellow only if blue places first
        ("yellow", 3, 85, 85),  # yellow places at once
    ],
)
def test_corridor_passes_before(to_move: str, passes: int, lower: int, exact: int) -> None:
    """Passes already made end the game early: only seats that move before then may open."""
    game = CityBlocks.from_position(endgame(CORRIDOR, CORRIDOR_HANDS, to_move, passes))
    b = bounds(game, "blue", **FAST)
    assert (b.lower.value, b.lower.proven) == (lower, True)
    assert b.exact is not None and b.exact.value == exact
    assert brute_lower(game.copy(), "blue") == lower
    assert brute_exact(game.copy(), "blue") == exact


def test_unstarted_opponent_must_cover_its_corner() -> None:
    """Green has not started and its corner (19,0) is open, with blue at (17,0) above (18,0).
    Green can take blue's edge only with a first piece covering both (18,0) and (19,0)."""
    cells = {(17, 0): "B", (18, 0): ".", (19, 0): ".", (19, 1): "."}
    hands = {"blue": ["I2"], "yellow": [], "red": []}
    game = CityBlocks.from_position(endgame(cells, hands, "green"))
    assert not game.has_started("green")
    b = bounds(game, "blue", **FAST)
    assert b.lower.value == b.score_now - 1
    assert b.lower.placements[0].color == "green" and (19, 0) in b.lower.placements[0].cells
    assert b.lower.value == brute_lower(game.copy(), "blue")
    assert b.exact is not None and b.exact.value == brute_exact(game.copy(), "blue")


def test_game_over_is_exact() -> None:
    game = CityBlocks.from_position(endgame(CORRIDOR, CORRIDOR_HANDS, "blue", 4))
    b = bounds(game, "blue", **FAST)
    assert b.lower.value == b.upper.value == b.score_now == 86
    assert b.best_next is None and b.upper.placements == () == b.lower.placements
    assert b.exact is not None and b.exact.value == 86


# -- against brute force -----------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_bounds_and_exact_match_brute_force(seed: int) -> None:
    """On tiny endgames the bounds are the brute-force values, proven, and the exact search
    agrees with plain minimax; lower <= exact <= upper."""
    rng = random.Random(seed)
    checked = 0
    while checked < 5:
        players = rng.choice([4, 4, 2, 3])
        game = CityBlocks.from_position(random_endgame(rng, rng.randint(3, 6), players))
        if sum(len(placeable_pieces(game, c)) for c in COLOR_NAMES) > 4:
            continue
        for color in COLOR_NAMES:
            b = bounds(game, color, **FAST)
            assert b.upper.proven and b.lower.proven
            assert b.upper.value == brute_upper(placing(game, color), color)
            assert b.lower.value == brute_lower(game.copy(), color)
            assert b.lower.value <= b.score_now <= b.upper.value
            if players == 3 and color == "green":
                assert b.exact is None and "no seat" in (b.exact_note or "")
                continue
            assert b.exact is not None
            assert b.exact.value == brute_exact(game.copy(), color)
            assert b.lower.value <= b.exact.value <= b.upper.value
        checked += 1


# -- random play-outs --------------------------------------------------------------------------
def _play_out(game: CityBlocks, rng: random.Random, color: str, passing: bool) -> int:
    """Random legal moves to the end (``color`` passing throughout if ``passing``); its score."""
    g = game.copy()
    while not g.is_game_over():
        moves = [m for m in g.legal_placements() if not (passing and m.color == color)]
        if moves and rng.random() < 0.9:
            g.push(rng.choice(moves))
        else:
            g.push(Move.pass_turn(g.to_move))
    return total(g, color)


def _greedy_out(game: CityBlocks, color: str) -> int:
    """``color`` passes; every other seat places the piece that lowers its score most."""
    g = game.copy()
    while not g.is_game_over():
        moves = [m for m in g.legal_placements() if m.color != color]
        if g.to_move == color or not moves:
            g.push(Move.pass_turn(g.to_move))
            continue
        scored = []
        for m in moves:
            g.push(m)
            scored.append((total(g, color), -len(m.cells), str(m), m))
            g.pop()
        g.push(min(scored)[3])
    return total(g, color)


@pytest.mark.parametrize("seed", range(4))
def test_tiny_play_outs_contained(seed: int) -> None:
    """Every continuation ends at most at ``upper``; every continuation where the colour
    places nothing ends at least at ``lower`` (and at most at the score now)."""
    rng = random.Random(100 + seed)
    for _ in range(4):
        game = CityBlocks.from_position(random_endgame(rng, rng.randint(5, 9)))
        color = rng.choice(COLOR_NAMES)
        b = bounds(game, color, exact_pieces=0, **FAST)
        for _ in range(15):
            assert _play_out(game, rng, color, passing=False) <= b.upper.value
            assert b.lower.value <= _play_out(game, rng, color, passing=True) <= b.score_now
        assert b.lower.value <= _greedy_out(game, color) <= b.score_now


@pytest.mark.parametrize("seed", [0, 1])
def test_mid_game_play_outs_contained(seed: int) -> None:
    """The same containment after 40 random turns, with one-second searches: unproven
    bounds are still bounds."""
    game = mid_game(seed)
    rng = random.Random(seed)
    color = COLOR_NAMES[seed]
    b = bounds(game, color, time_limit=1.0, workers=2, seed=0)
    assert b.exact is None and b.exact_note is not None
    assert b.lower.value <= b.lower.layout_score <= b.score_now
    assert b.score_now <= b.upper.layout_score <= b.upper.value
    for _ in range(3):
        assert _play_out(game, rng, color, passing=False) <= b.upper.value
        assert b.lower.value <= _play_out(game, rng, color, passing=True)


# -- the pieces --------------------------------------------------------------------------------
def test_best_next_is_legal_and_from_the_layout() -> None:
    game = play(["B I3 0,0 0,1 0,2"])
    b = bounds(game, "yellow", time_limit=2.0, workers=2, exact_pieces=0)
    assert b.best_next is not None and START_CELLS["yellow"] in b.best_next.cells
    assert b.best_next.cells in {p.cells for p in b.upper.placements}
    assert game.is_legal(b.best_next)


def test_solutions_round_trip() -> None:
    pos = endgame(CORRIDOR, CORRIDOR_HANDS)
    up = upper_bound(pos, "blue", **FAST)
    low = lower_bound(pos, "blue", **FAST)
    for sol in (up.solution("blue"), low.solution("blue")):
        assert loads(dumps(sol)) == sol and sol.status == "optimal"
    assert up.solution("blue").placements[0].color == "blue"


def test_placeable_pieces() -> None:
    assert len(placeable_pieces(CityBlocks(), "green")) == 20
    game = play(["B I3 0,0 0,1 0,2", "Y pass", "R pass", "G pass", "B I2 18,0 19,0"])
    assert not game.has_started("green")  # and blue holds its corner: it never will
    assert placeable_pieces(game, "green") == ()
    pos = endgame(CORRIDOR, CORRIDOR_HANDS)
    assert placeable_pieces(CityBlocks.from_position(pos), "blue") == ("I2",)


def test_exact_refusals() -> None:
    with pytest.raises(ExactSearchRefused, match="80 pieces"):
        exact_endgame(CityBlocks(), "blue")
    cells = {(5, c): "." for c in range(3, 9)} | {(5, 2): "B"}
    game = CityBlocks.from_position(endgame(cells, {"blue": ["I2", "I3"], "yellow": ["I2"]}))
    with pytest.raises(ExactSearchRefused, match="positions"):
        exact_endgame(game, "blue", node_limit=5)
    with pytest.raises(ExactSearchRefused, match="no seat"):
        exact_endgame(CityBlocks(3), "green")
    b = bounds(game, "blue", node_limit=5, **FAST)
    assert b.exact is None and "positions" in (b.exact_note or "")


def test_bad_input() -> None:
    blokus = Position("blokus", tuple("." * 20 for _ in range(20)), "blue")
    with pytest.raises(FormatError, match="Blokus"):
        bounds(blokus, "blue")
    with pytest.raises(UnknownNameError):
        bounds(CityBlocks(), "purple")


def test_engine_disagreement_is_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A layout the rules engine scores differently is never returned."""
    import polytile.puzzles.cityblocks.bounds as mod

    monkeypatch.setattr(mod, "_total", lambda game, color: -1)
    with pytest.raises(SolverError):
        upper_bound(endgame(CORRIDOR, CORRIDOR_HANDS), "blue", **FAST)


@pytest.mark.slow
def test_brute_force_sweep(slow_scale: str) -> None:
    """More tiny endgames (up to 6 pieces in play) against brute force: bounds always;
    the exact search when at most 4 pieces remain (plain minimax is slow beyond)."""
    rng = random.Random(2024)
    wanted = 60 if slow_scale == "full" else 8
    checked = 0
    while checked < wanted:
        players = rng.choice([4, 2, 3])
        game = CityBlocks.from_position(random_endgame(rng, rng.randint(3, 7), players))
        pieces = sum(len(placeable_pieces(game, c)) for c in COLOR_NAMES)
        if pieces > 6:
            continue
        for color in COLOR_NAMES:
            b = bounds(game, color, exact_pieces=4, **FAST)
            assert (b.upper.value, b.upper.proven) == (
                brute_upper(placing(game, color), color),
                True,
            )
            assert (b.lower.value, b.lower.proven) == (brute_lower(game.copy(), color), True)
            if b.exact is not None:
                assert b.exact.value == brute_exact(game.copy(), color)
        checked += 1
