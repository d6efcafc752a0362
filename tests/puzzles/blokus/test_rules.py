"""Blokus rules engine: move generation against a slow reference written from the rules
(perft-style counts), push/pop, forced passes, the end, scoring, variants, positions."""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np
import pytest

from polytile.errors import FormatError, IllegalMoveError, UnknownNameError
from polytile.formats import COLORS, Position, dumps, loads
from polytile.geometry import piece
from polytile.puzzles.blokus.rules import (
    PIECE_NAMES,
    PIECE_SIZES,
    VARIANTS,
    Blokus,
    Move,
    player_names,
    score_hands,
)

Cell = tuple[int, int]
Placement = tuple[str, frozenset[Cell]]
EDGE = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))


# -- the slow reference, straight from seeds/blokus.md section 4 -------------------------------
def orientations(name: str) -> list[tuple[Cell, ...]]:
    """Every rotation and reflection of a piece, normalised to the origin, without repeats."""
    found: set[tuple[Cell, ...]] = set()
    cells = list(piece(name).cells)
    for _ in range(4):
        cells = [(c, -r) for r, c in cells]  # a quarter turn
        for shape in (cells, [(r, -c) for r, c in cells]):  # and its mirror image
            r0 = min(r for r, _ in shape)
            c0 = min(c for _, c in shape)
            found.add(tuple(sorted((r - r0, c - c0) for r, c in shape)))
    return sorted(found)


SHAPES = {name: orientations(name) for name in PIECE_NAMES}


class Reference:
    """A Blokus position kept as a dict of cells, with every rule checked cell by cell."""

    def __init__(self, variant: str = "classic") -> None:
        v = VARIANTS[variant]
        self.n, self.colors, self.starts = v.size, v.colors, dict(v.starts)
        self.board: dict[Cell, str] = {}
        self.hands = {c: set(PIECE_NAMES) for c in self.colors}

    def play(self, move: Move) -> None:
        if move.piece is not None:
            for cell in move.cells:
                self.board[cell] = move.color
            self.hands[move.color].remove(move.piece)

    def legal(self, color: str, cells: Iterable[Cell]) -> bool:
        cells = list(cells)
        first = len(self.hands[color]) == len(PIECE_NAMES)
        touches = False
        for r, c in cells:
            if not (0 <= r < self.n and 0 <= c < self.n):  # 4.1
                return False
            if (r, c) in self.board:  # 4.2
                return False
            if any(self.board.get((r + dr, c + dc)) == color for dr, dc in EDGE):  # 4.4b
                return False
            if any(self.board.get((r + dr, c + dc)) == color for dr, dc in DIAGONAL):
                touches = True
        if first:
            return self.starts[color] in cells  # 4.3
        return touches  # 4.4a

    def placements(self, color: str) -> set[Placement]:
        out = set()
        for name in self.hands[color]:
            for shape in SHAPES[name]:
                for dr in range(self.n):
                    for dc in range(self.n):
                        cells = [(r + dr, c + dc) for r, c in shape]
                        if self.legal(color, cells):
                            out.add((name, frozenset(cells)))
        return out


def fast(game: Blokus, color: str | None = None) -> set[Placement]:
    moves = game.legal_placements(color)
    found = {(m.piece or "", frozenset(m.cells)) for m in moves}
    assert len(found) == len(moves), "a placement was generated twice"
    return found


def random_line(variant: str, players: int | str | None, plies: int, seed: int) -> Blokus:
    game = Blokus(variant, players)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[int(rng.integers(len(moves)))])
    return game


def reference_of(game: Blokus) -> Reference:
    ref = Reference(game.variant.name)
    for move in game.move_stack:
        ref.play(move)
    return ref


# -- perft: move counts against the reference ---------------------------------------------------
# Start positions: 58 placements cover a corner cell (blue on (0, 0)); Duo's start cells are
# inside the board, so every orientation of every piece may cover it with any of its cells:
# sum(size x orientations) = 414.
START_COUNTS = {"classic": 58, "duo": 414}


@pytest.mark.parametrize("variant", ["classic", "duo"])
def test_start_position_counts_agree_with_the_reference(variant: str) -> None:
    game = Blokus(variant)
    ref = Reference(variant)
    assert game.count_legal_moves() == START_COUNTS[variant]
    for color in game.colors:
        assert fast(game, color) == ref.placements(color)
        assert game.count_legal_placements(color) == START_COUNTS[variant]


def test_perft_numbers() -> None:
    # Until the colours meet, each colour's first move does not depend on the others'.
    assert [Blokus().perft(d) for d in range(4)] == [1, 58, 58**2, 58**3]
    assert Blokus("duo").perft(2) == 414**2  # blue's piece cannot reach yellow's start area


def test_worked_example_second_piece_counts() -> None:
    # 9.1: blue V3 on its corner; then the other three colours open, and blue moves again.
    game = Blokus()
    game.push(Move("blue", "V3", [(0, 0), (1, 0), (1, 1)]))
    for color in ("yellow", "red", "green"):
        game.push(game.legal_moves()[0])
        assert game.peek().color == color
    assert Move("blue", "I2", [(2, 2), (2, 3)]) in game.legal_moves()
    assert Move("blue", "I2", [(2, 1), (2, 2)]) not in game.legal_moves()
    assert fast(game) == reference_of(game).placements("blue")
    assert game.count_legal_moves() == BLUE_AFTER_V3


BLUE_AFTER_V3 = 140  # blue's second moves after V3 on (0,0),(1,0),(1,1), by the reference


@pytest.mark.parametrize(
    ("variant", "players", "plies", "seed"),
    [("classic", 4, 9, 1), ("classic", 4, 17, 2), ("classic", 3, 30, 3), ("duo", 2, 6, 4)],
)
def test_counts_after_random_moves_agree_with_the_reference(
    variant: str, players: int, plies: int, seed: int
) -> None:
    game = random_line(variant, players, plies, seed)
    ref = reference_of(game)
    for color in game.colors:
        assert fast(game, color) == ref.placements(color), color
    assert game.count_legal_moves() == max(len(fast(game)), 1)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "duo"])
def test_every_position_of_random_games_agrees_with_the_reference(
    variant: str, slow_scale: str
) -> None:
    games = 3 if slow_scale == "full" else 1
    step = 1 if slow_scale == "full" else 4
    for seed in range(games):
        game = random_line(variant, None, 0, 0)
        ref = Reference(variant)
        rng = np.random.default_rng(100 + seed)
        ply = 0
        while not game.is_game_over():
            if ply % step == 0:
                assert fast(game) == ref.placements(game.to_move)
            moves = game.legal_moves()
            move = moves[int(rng.integers(len(moves)))]
            game.push(move)
            ref.play(move)
            ply += 1
        assert all(not ref.placements(c) for c in ref.colors)


# -- push and pop --------------------------------------------------------------------------------
def snapshot(game: Blokus) -> tuple[object, ...]:
    return (
        game.to_position(),
        game.to_position().extra,
        game.to_position().hands,
        [str(m) for m in game.legal_moves()],
        game.is_game_over(),
        game.player_to_move,
    )


def reference_attach_points(ref: Reference, color: str) -> list[Cell]:
    """Empty cells diagonal to ``color`` and not beside it; the start cell before its first
    piece; nothing once it has placed everything."""
    if not ref.hands[color]:
        return []
    if len(ref.hands[color]) == len(PIECE_NAMES):
        return [ref.starts[color]] if ref.starts[color] not in ref.board else []
    return [
        (r, c)
        for r in range(ref.n)
        for c in range(ref.n)
        if (r, c) not in ref.board
        and any(ref.board.get((r + dr, c + dc)) == color for dr, dc in DIAGONAL)
        and not any(ref.board.get((r + dr, c + dc)) == color for dr, dc in EDGE)
    ]


@pytest.mark.parametrize(
    ("variant", "plies", "seed"),
    [("duo", 0, 0), ("duo", 9, 1), ("classic", 30, 2), ("classic", 70, 3)],
)
def test_attach_points_agree_with_the_reference(variant: str, plies: int, seed: int) -> None:
    game = random_line(variant, None, plies, seed)
    ref = reference_of(game)
    for color in game.colors:
        assert game.attach_points(color) == reference_attach_points(ref, color)
    assert game.attach_points() == game.attach_points(game.to_move)


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("classic", 3), ("duo", 2)])
def test_push_pop_round_trips_restore_everything(variant: str, players: int) -> None:
    game = Blokus(variant, players)
    rng = np.random.default_rng(7)
    snaps = {0: snapshot(game)}
    while not game.is_game_over():
        moves = game.legal_moves()
        game.push(moves[int(rng.integers(len(moves)))])
        if len(game.move_stack) % 5 == 0 or game.is_game_over():
            snaps[len(game.move_stack)] = snapshot(game)
    stack = game.move_stack
    while game.move_stack:
        if len(game.move_stack) in snaps:
            assert snapshot(game) == snaps.pop(len(game.move_stack))
        game.pop()
    assert snapshot(game) == snaps.pop(0) == snapshot(Blokus(variant, players))
    assert not snaps
    with pytest.raises(IndexError):
        game.pop()
    for move in stack:  # the same line replays
        game.push(move)
    assert game.is_game_over()


def test_copy_is_independent() -> None:
    game = random_line("classic", 4, 8, 5)
    other = game.copy()
    other.push(other.legal_moves()[0])
    assert len(other.move_stack) == len(game.move_stack) + 1
    assert game.board_rows() != other.board_rows()
    other.pop()
    assert snapshot(other) == snapshot(game)


# -- passes and the end --------------------------------------------------------------------------
def play_until(game: Blokus, seed: int, stop: object) -> None:
    rng = np.random.default_rng(seed)
    while not game.is_game_over() and not stop(game):  # type: ignore[operator]
        moves = game.legal_moves()
        game.push(moves[int(rng.integers(len(moves)))])


def test_forced_pass() -> None:
    game = Blokus()
    play_until(game, 11, lambda g: g.must_pass())
    assert not game.is_game_over()
    color = game.to_move
    assert game.legal_moves() == [Move.pass_turn(color)]
    assert game.count_legal_moves() == 1 and game.count_legal_placements() == 0
    assert not reference_of(game).placements(color)
    game.push(Move.pass_turn(color))
    assert game.passes(color) == 1 and game.to_move != color
    game.pop()
    assert game.passes(color) == 0


def test_pass_with_a_placement_is_illegal() -> None:
    game = Blokus()
    with pytest.raises(IllegalMoveError, match="blue has 58 legal placements; passing"):
        game.push(Move.pass_turn("blue"))


def test_game_ends_when_no_colour_can_move() -> None:
    for variant, seed in (("classic", 1), ("duo", 2)):
        game = Blokus(variant)
        assert game.play_random(seed) == len(game.move_stack) > 20
        assert game.is_game_over()
        assert game.legal_moves() == [] and game.count_legal_moves() == 0
        ref = reference_of(game)
        assert all(not ref.placements(c) for c in game.colors)
        with pytest.raises(IllegalMoveError, match="the game is over"):
            game.push(Move.pass_turn(game.to_move))
        game.pop()  # one placement back, someone can move again
        assert not game.is_game_over()


def test_empty_hand_passes() -> None:
    pos = Blokus().to_position()
    rows = list(pos.board)
    rows[0] = "B" + rows[0][1:]
    hand = tuple(n for n in PIECE_NAMES if n != "I1")
    game = Blokus.from_position(
        Position("blokus", tuple(rows), "blue", {"blue": hand}, {"last_piece": {"blue": "I1"}})
    )
    assert game.count_legal_placements() > 0
    # a blue hand holding nothing must pass, however much room there is
    game._hand[0] = 0  # a direct state edit: no legal game empties a hand this fast
    assert game.legal_moves() == [Move.pass_turn("blue")]


# -- scoring -------------------------------------------------------------------------------------
def full_board_position(last: dict[str, str | None], players: int | str = 4) -> Position:
    """Blue and red have placed everything (89 cells each), yellow and green nothing."""
    text = "B" * 89 + "." * (400 - 2 * 89) + "R" * 89
    rows = [text[i : i + 20] for i in range(0, 400, 20)]
    return Position(
        "blokus",
        tuple(rows),
        "yellow",
        {"blue": (), "red": ()},
        {"last_piece": last, "players": players},
    )


def test_scoring_bonuses() -> None:
    game = Blokus.from_position(full_board_position({"blue": "I1", "red": "O4"}))
    sheet = game.score()
    assert {c: s.total for c, s in sheet.colors.items()} == {
        "blue": 20,
        "yellow": -89,
        "red": 15,
        "green": -89,
    }
    assert sheet.colors["blue"].bonus == 20 and sheet.colors["red"].bonus == 15
    assert sheet.winners() == ("blue",)
    unknown = Blokus.from_position(full_board_position({}))
    assert unknown.score().colors["blue"].total == 15  # last piece not recorded: no +5


def test_player_totals() -> None:
    assert Blokus.from_position(full_board_position({"blue": "I1"}, 2)).score().player_totals == {
        "blue+red": 35,
        "yellow+green": -178,
    }
    teams = Blokus.from_position(full_board_position({"blue": "I1"}, "teams")).score()
    assert teams.player_totals == {"blue+red": 35, "yellow+green": -178}
    three = Blokus.from_position(full_board_position({"blue": "I1"}, 3)).score()
    assert three.player_totals == {"blue": 20, "yellow": -89, "red": 15}
    assert "green" in three.colors  # scored but ignored
    assert Blokus("duo").score().player_totals == {"blue": -89, "yellow": -89}
    assert score_hands({"blue": ("I1",), "yellow": ()}, {"yellow": "I1"}, 2, "duo").as_dict()[
        "players"
    ] == {"blue": -1, "yellow": 20}


def test_scores_of_random_games_are_consistent() -> None:
    for variant, players, seed in (("classic", 4, 3), ("classic", 3, 4), ("classic", 2, 5)):
        game = Blokus(variant, players)
        game.play_random(seed)
        sheet = game.score()
        text = "".join(game.board_rows())
        for color, s in sheet.colors.items():
            placed = text.count(COLORS[color])
            held = sum(PIECE_SIZES[PIECE_NAMES.index(n)] for n in game.hand(color))
            assert placed + held == 89 == placed + s.left
            assert s.total == s.bonus - s.left and s.total <= 20
            placements = [m for m in game.move_stack if m.color == color and not m.is_pass]
            assert game.last_piece(color) == placements[-1].piece
        names = player_names(players, variant)
        totals = sheet.player_totals
        assert tuple(totals) == names
        assert sum(totals.values()) == sum(
            sheet.colors[c].total for n in names for c in n.split("+")
        )


def test_three_players_share_green() -> None:
    game = Blokus(players=3)
    seen: list[str] = []
    while len(seen) < 12:
        if game.to_move == "green":
            seen.append(game.player_to_move)
        game.push(game.legal_moves()[-1])
    assert seen[:6] == ["blue", "yellow", "red", "blue", "yellow", "red"]
    assert Blokus(players=2).player_to_move == "blue+red"
    assert Blokus(players="teams").player_to_move == "blue+red"


# -- illegal moves -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("Y I1 0,19", "it is blue's turn, not yellow's"),
        ("B I2 0,19 0,20", "lie outside the 20x20 board"),
        ("B I2 0,0 1,1", "do not form I2"),
        ("B I3 0,0 0,1 1,1", "form V3, not I3"),
        ("B I5 1,0 1,1 1,2 1,3 1,4", r"blue's first piece must cover its start cell \(0, 0\)"),
    ],
)
def test_illegal_first_moves(move: str, message: str) -> None:
    game = Blokus()
    assert not game.is_legal(Move.parse(move))
    with pytest.raises(IllegalMoveError, match=f"illegal move {re.escape(move)}: .*{message}"):
        game.push(Move.parse(move))


def test_illegal_later_moves() -> None:
    game = Blokus()
    for text in ("B V3 0,0 1,0 1,1", "Y I5 0,15 0,16 0,17 0,18 0,19", "R I1 19,19", "G I1 19,0"):
        game.push(Move.parse(text))
    cases = {
        "B I2 2,1 2,2": r"cell \(2, 1\) shares an edge with a blue cell",  # 9.1
        "B I2 5,5 5,6": "no cell touches a blue cell at a corner",
        "B V3 2,2 2,3 3,2": "has already placed its V3",
        "B I2 1,1 2,2": "do not form I2",
        "B I1 0,15": r"cell \(0, 15\) is already covered by yellow",
    }
    for text, message in cases.items():
        with pytest.raises(IllegalMoveError, match=message):
            game.push(Move.parse(text))
    game.push(Move.parse("B I2 2,2 2,3"))  # 9.1, legal
    assert game.to_move == "yellow"


def test_yellow_first_piece_examples() -> None:
    # 9.2: I5 along the top row onto (0, 19) is legal; one row lower is not.
    game = Blokus()
    game.push(Move.parse("B I1 0,0"))
    assert not game.is_legal(Move.parse("Y I5 1,15 1,16 1,17 1,18 1,19"))
    assert game.is_legal(Move.parse("Y I5 0,15 0,16 0,17 0,18 0,19"))


def test_duo_colours_and_bad_options() -> None:
    game = Blokus("duo")
    assert game.colors == ("blue", "yellow") and game.size == 14
    with pytest.raises(IllegalMoveError, match=r"start cell \(4, 4\)"):
        game.push(Move.parse("B I1 0,0"))
    game.push(Move.parse("B I1 4,4"))
    with pytest.raises(IllegalMoveError, match="not red's"):
        game.push(Move.parse("R I1 9,9"))
    game.push(Move.parse("Y I1 9,9"))
    with pytest.raises(ValueError, match="does not play duo"):
        game.hand("red")
    with pytest.raises(UnknownNameError, match="unknown Blokus variant 'trigon'"):
        Blokus("trigon")
    with pytest.raises(ValueError, match="duo Blokus is played with players = 2"):
        Blokus("duo", 4)
    with pytest.raises(ValueError, match=re.escape("players = 4 | 3 | 2 | teams")):
        Blokus(players=5)


def test_move_values() -> None:
    move = Move("red", "I2", [(19, 19), (18, 19)])
    assert Move.parse(str(move)) == move and str(move) == "R I2 18,19 19,19"
    assert Move.parse("G pass").is_pass
    with pytest.raises(UnknownNameError):
        Move("blue", "Q7", [(0, 0)])
    with pytest.raises(ValueError, match="a move looks like"):
        Move.parse("X I1 0,0")


# -- positions -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "players", "plies"), [("classic", 3, 60), ("duo", 2, 30)])
def test_position_json_round_trip(variant: str, players: int, plies: int) -> None:
    game = random_line(variant, players, plies, 9)
    play_until(game, 3, lambda g: sum(g.passes(c) for c in g.colors) > 0)
    pos = game.to_position()
    again = loads(dumps(pos))
    assert isinstance(again, Position) and again == pos
    loaded = Blokus.from_position(again)
    assert snapshot(loaded) == snapshot(game)
    assert loaded.move_stack == []
    assert [loaded.last_piece(c) for c in game.colors] == [game.last_piece(c) for c in game.colors]
    assert [loaded.passes(c) for c in game.colors] == [game.passes(c) for c in game.colors]
    loaded.play_random(1)
    game.play_random(1)
    assert loaded.board_rows() == game.board_rows()


def test_duo_is_recognised_by_its_board() -> None:
    rows = ("." * 14,) * 14
    assert Blokus.from_position(Position("blokus", rows)).variant.name == "duo"


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        ({"game": "cityblocks"}, "game", 'not "blokus"'),
        ({"extra": {"variant": "trigon"}}, "variant", "unknown Blokus variant"),
        ({"extra": {"players": 5}}, "players", "players = 4"),
        ({"board": ["." * 20] * 19}, "board", "the board has 19 rows"),
        ({"board": ["#" + "." * 19] + ["." * 20] * 19}, r"board\[0\]", "character '#'"),
        ({"to_move": "purple"}, "to_move", "must be one of"),
        ({"hands": {"blue": ("I1", "I1")}}, r"hands.blue\[1\]", "listed twice"),
        ({"hands": {"blue": ("Q9",)}}, r"hands.blue\[0\]", "not a Blokus piece"),
        ({"hands": {"blue": PIECE_NAMES[1:]}}, "hands.blue", "has 0 cells on the board"),
        ({"extra": {"last_piece": {"blue": "I1"}}}, "last_piece.blue", "placed no piece"),
        ({"extra": {"passes": {"blue": -1}}}, "passes.blue", "a count >= 0"),
        ({"extra": {"passes": {"purple": 1}}}, "passes", "'purple' is not one of"),
    ],
)
def test_bad_positions_are_rejected(change: dict[str, object], where: str, message: str) -> None:
    fields: dict[str, object] = {"game": "blokus", "board": ["." * 20] * 20}
    fields.update(change)
    pos = Position(**fields)  # type: ignore[arg-type]
    with pytest.raises(FormatError, match=f"{where}: .*{message}"):
        Blokus.from_position(pos)


def test_pieces_off_their_start_cell_are_rejected() -> None:
    rows = ["." * 20] * 19 + ["." * 10 + "B" + "." * 9]
    hand = PIECE_NAMES[1:]
    with pytest.raises(FormatError, match=r"board\[0\]: .*start cell \(0, 0\)"):
        Blokus.from_position(Position("blokus", tuple(rows), None, {"blue": hand}))


def test_hand_mask_and_grid_codes_follow_the_position() -> None:
    game = random_line("classic", 4, 30, 9)
    for color in game.colors:
        mask = game.hand_mask(color)
        assert [PIECE_NAMES[i] for i in np.flatnonzero(mask)] == list(game.hand(color))
        mask[:] = 0  # a copy: the game keeps its hand
        assert game.hand(color)
    codes = game.grid_codes().reshape(game.size, game.size)
    letters = ".BYRG"
    assert ["".join(letters[v] for v in row) for row in codes] == game.board_rows()
