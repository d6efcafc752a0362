"""Gridblock as the front ends see it: :data:`FACE`."""

from __future__ import annotations

from typing import Any, ClassVar

from polytile.errors import OptionError
from polytile.faces.analysis import AnalyseFace, AnalyseRequest, Review
from polytile.faces.face import (
    Console,
    EndgameFace,
    EndgameRequest,
    Legal,
    MoveCells,
    Option,
    SelfplayFace,
    engine_option,
)
from polytile.puzzles.engine import DEFAULT_MOVE_TIME
from polytile.text import counted

__all__ = ["FACE", "GridblockFace"]


_RULES = (
    Option("players", "How many players; with 2, each plays two colours [default: 4].",
           ("2", "3", "4")),
    Option("deal", "'shuffle' draws 3 of 6 cards every round; 'split' plays the other 3 in "
           "rounds 2, 4, 6, open to all [default: shuffle].", ("shuffle", "split")),
    Option("two_player_score", "With 2 players: a player's points are its two colours' sum, "
           "or only the weaker colour's [default: sum].", ("sum", "weaker"), flag="--score"),
    Option("instant_win", "3 corners of a tile whose 4th is not another colour's win at once.",
           switch=True),
)  # fmt: skip


def _rules(options: dict[str, Any]) -> Any:
    """The rule options given (the defaults for the others)."""
    from polytile.puzzles.gridblock.rules import Options

    players = options.get("players")
    if players == "teams":
        raise OptionError("Gridblock takes 2, 3 or 4 players (with 2, each plays two colours: "
                          "blue+red against yellow+green)", "--players")  # fmt: skip
    count = int(players or 4)
    two = options.get("two_player_score")
    if two is not None and count != 2:
        raise OptionError("--score chooses how a player's two colours count: only with "
                          "--players 2", "--score")  # fmt: skip
    return Options(count, two or "sum", options.get("deal") or "shuffle",
                   bool(options.get("instant_win")))  # fmt: skip


class GridblockFace(EndgameFace, SelfplayFace, AnalyseFace):
    """The face of Gridblock by André Heines (files ``polytile/gridblock@1``)."""

    name = "gridblock"
    title = "Gridblock"
    endgame_options = frozenset(
        {"open_analysis", "view", "samples", "max_exact", "seed", "workers", "players", "plan"}
    )
    formats: ClassVar[tuple[str, ...]] = ("polytile/gridblock@1",)
    new_help = (
        "Gridblock by André Heines: a game record with a seeded set-up (the layout, the "
        "set-up draws, every colour's hand in every round) and no moves yet; --players 2|3|4 "
        "(with 2, blue+red play yellow+green), --deal, --score, --instant-win"
    )
    new_options = _RULES
    stop_errors = ("polytile.puzzles.gridblock.endgame:RoundStopped",)
    lead = (
        "with 2 players, blue+red's points minus yellow+green's at the end of the round (as "
        "--score counts them); with 3 or 4, the points the move's player can make sure of at "
        "the end of the round, everyone else against it; estimates (~) to the end of the "
        "game: with 2 players the same lead, with 3 or 4 the move's player's points minus "
        "the best other colour's"
    )
    selfplay_help = (
        "Gridblock (--blue, --yellow, --red, --green; --players, --deal, --score, "
        "--instant-win as for 'polytile new'): greedy takes the most points for its player at "
        "once (its colour's, or with --players 2 its two colours' sum or the weaker one, as "
        "--score says; an instant win above all), then for its own colour; engine solves each "
        "move to the end of the round over the hands it cannot see, and in the set-up "
        "estimates the placements to the end of the game by Monte Carlo tree search. "
        "Both read only their own hands. With --players 2, blue and red are one player's "
        "colours and yellow and green the other's."
    )
    selfplay_options = (
        engine_option("blue"),
        engine_option("yellow"),
        engine_option("red"),
        engine_option("green", " (not with --players 3)"),
        *_RULES,
    )
    move_help = """\
  setup b3 NE                    set-up: the mover onto b3, the first cube on its NE corner
  C3@d4 NE                       play C3, walk 3 steps to d4, put a cube on its NE corner
  C3@d4                          play C3, walk to d4, discard a cube (no cube can go there)
  C3@d4 NE via d2,d3,d4          the same with the walk written out (kept in the record)

A Gridblock move may be given as one quoted word or as several: a new move starts at each
'setup' and each word with '@'."""
    # --cell sizes a Blokus square; a Gridblock tile (3 cells) holds corners and movers
    picture_cells = (6, 170, "a Gridblock tile is 3 cells: --cell 6 to 170")

    def read(self, file: str, move: int | None = None) -> Any:
        from polytile.puzzles.gridblock.files import load_gridblock

        return load_gridblock(file, move)

    def picture(self, doc: Any, kind: str, *, color: bool | None = None, cell: int = 24,
                title: str | None = None) -> str | bytes:  # fmt: skip
        from polytile.puzzles.gridblock.files import last_walk
        from polytile.puzzles.gridblock.picture import to_png, to_svg, to_text

        g = doc.shown_state()
        walk = last_walk(g)
        if kind in ("text", "txt"):
            text = to_text(g, color=color if kind == "text" else False, last=walk)
            return text if kind == "text" else text + "\n"
        draw = to_svg if kind == "svg" else to_png
        return draw(g, 3 * cell, last=walk, title=title)

    def move_cells(self, doc: Any, cell: int = 24) -> MoveCells | None:
        """Each move by the quarter of its end tile around the corner it fills
        (``"tile,corner"``: ``"d4,NE"``); a move that discards its cube covers its tile's
        four quarters. Moves hidden in a view are not listed."""
        from polytile.puzzles.gridblock.files import move_text
        from polytile.puzzles.gridblock.grid import CORNERS, tile_name
        from polytile.puzzles.gridblock.picture import corner_boxes

        def name(t: int, q: int) -> str:
            return f"{tile_name(t)},{CORNERS[q]}"

        listed = set(self.legal(doc).moves)
        moves: dict[str, tuple[str, ...]] = {}
        for m in doc.state.legal_moves():
            text = move_text(m)
            if text in listed:
                corners = range(4) if m.corner is None else (m.corner,)
                moves[text] = tuple(name(m.tile, q) for q in corners)
        boxes = corner_boxes(3 * cell, getattr(doc.shown_state(), "name", None))
        return MoveCells({name(t, q): box for (t, q), box in boxes.items()}, moves)

    def notes(self, doc: Any) -> list[str]:
        note = _view_note(doc)
        return [note] if note else []

    def score_doc(self, doc: Any) -> dict[str, Any]:
        from polytile.puzzles.gridblock.picture import score_doc

        g = doc.shown_state()
        out = score_doc(g)
        if doc.kind == "view":
            from polytile.puzzles.gridblock.game import player_names
            from polytile.puzzles.gridblock.rules import COLOR_NAMES

            hidden = [COLOR_NAMES[g.colors[s]] for s in doc.hidden_hands()]
            for name in hidden:
                out["colors"][name]["hand"] = None  # not known, rather than empty
            out["view"] = {"player": player_names(g.options)[doc.player], "hidden_hands": hidden}
        return out

    def score_text(self, doc: Any, color: bool | None) -> str:
        from polytile.puzzles.gridblock.files import last_walk
        from polytile.puzzles.gridblock.picture import score_table, to_text

        g = doc.shown_state()
        parts = [to_text(g, color=color, last=last_walk(g)), "", score_table(g, color=color)]
        note = _view_note(doc)
        return "\n".join([*parts, note] if note else parts)

    def describe(self, doc: Any) -> str:
        if doc.kind == "record":
            return f"game record, {counted(len(doc.moves), 'move')}, all legal"
        return str(doc.kind)

    def legal(self, doc: Any) -> Legal:
        from polytile.puzzles.gridblock.files import move_text
        from polytile.puzzles.gridblock.grid import card_name
        from polytile.puzzles.gridblock.rules import COLOR_NAMES

        g = doc.state
        if g.is_over():
            return Legal(None, note="the game is over: 'polytile score' shows the result")
        seat = g.to_move_slot
        colour = COLOR_NAMES[g.to_move_color]
        if doc.kind == "view" and seat in doc.hidden_hands():
            hidden = f"this view does not show {colour}'s cards, so not its moves"
            return Legal(colour, {"hand": "hidden in this view"}, note=hidden, known=False)

        def hand(slot: int) -> str:
            return " ".join(card_name(c) for c in g.hand(slot)) or "(none: set-up)"

        sees = {"hand": hand(seat)}
        me = g.options.player_of(g.to_move_color)
        for slot, c in enumerate(g.colors):  # with 2 players, its other colour's cards too
            if slot != seat and g.options.player_of(c) == me:
                sees[f"{COLOR_NAMES[c]}'s hand"] = hand(slot)
        moves = tuple(move_text(m) for m in g.legal_moves())
        how = ("a move is played as 'polytile play FILE MOVE': CARD@TILE CORNER, the tile "
               "its walk ends on, or CARD@TILE to discard the cube")  # fmt: skip
        return Legal(colour, sees, moves, note=how)

    def solve_endgame(self, console: Console, file: str, request: EndgameRequest) -> None:
        from polytile.puzzles.gridblock.report import solve_report

        solve_report(console, file, request)

    def new(self, seed: int, options: dict[str, Any]) -> str:
        from polytile.puzzles.gridblock.files import dumps_record
        from polytile.puzzles.gridblock.rules import Gridblock

        return dumps_record(Gridblock.new(seed, _rules(options)), {"seed": seed})

    def selfplay(self, seed: int, stop_before_end: int, options: dict[str, Any]) -> tuple[str, str]:
        from polytile.puzzles.gridblock.engine import engine_player
        from polytile.puzzles.gridblock.files import dumps_record
        from polytile.puzzles.gridblock.game import player_names
        from polytile.puzzles.gridblock.players import self_play
        from polytile.puzzles.gridblock.rules import COLOR_NAMES, INSTANT_WIN, Gridblock

        rules = _rules(options)
        if rules.players == 3 and options.get("green") is not None:
            raise OptionError("green is not in play with 3 players", "--green")
        g = Gridblock.new(seed, rules)
        chosen = {COLOR_NAMES[c]: options.get(COLOR_NAMES[c]) or "greedy" for c in g.colors}
        self_play(g, list(chosen.values()), seed=seed, engine=engine_player,
                  move_time=options.get("move_time"))
        for _ in range(min(stop_before_end, len(g.move_stack))):
            g.pop()
        meta: dict[str, Any] = {"seed": seed, "players": chosen}
        if "engine" in chosen.values():
            meta["move_time"] = options.get("move_time", DEFAULT_MOVE_TIME)
        text = dumps_record(g, meta)
        names = player_names(rules)
        points = [int(r) for r in g.returns()]
        scores = ", ".join(f"{n} {p - (INSTANT_WIN if g.winner == j else 0)}"
                           for j, (n, p) in enumerate(zip(names, points, strict=True)))  # fmt: skip
        if g.winner is not None:
            result = f"{names[g.winner]} won at once"
        elif not g.is_over():
            result = "not finished"
        else:
            best = [n for n, p in zip(names, points, strict=True) if p == max(points)]
            result = f"{best[0]} wins" if len(best) == 1 else "a tie: " + " and ".join(best)
        return text, f"{counted(len(g.move_stack), 'move')}, {scores}: {result}"

    def review(self, file: str, index: int, time_limit: float, cache: dict[Any, Any],
               request: AnalyseRequest) -> Review | None:  # fmt: skip
        from polytile.puzzles.gridblock.report import review_move

        return review_move(self, file, index, time_limit, cache)

    def estimate_review(self, file: str, index: int, seconds: float,
                        cache: dict[Any, Any]) -> Review | None:  # fmt: skip
        from polytile.puzzles.gridblock.estimate_report import estimate_move

        return estimate_move(self, file, index, seconds, cache)

    def play_move(self, doc: Any, text: str) -> None:
        from polytile.puzzles.gridblock.moves import Move

        doc.state.push(Move.parse(text))

    def engine_choice(self, doc: Any, seconds: float) -> tuple[str, Any] | None:
        from polytile.puzzles.gridblock.engine import engine_choice
        from polytile.puzzles.gridblock.files import move_text

        choice = engine_choice(doc.state, seconds)
        return move_text(choice.move), choice

    def record_moves(self, doc: Any) -> tuple[str, ...]:
        from polytile.puzzles.gridblock.files import move_text

        return tuple(move_text(m) for m in doc.moves) if doc.kind == "record" else ()

    def dumps(self, doc: Any) -> str:
        from polytile.puzzles.gridblock.files import dumps_position, dumps_record

        if doc.kind == "position":  # moves played on a position: the position they reach
            return dumps_position(doc.state)
        return dumps_record(doc.state, doc.extra)

    def split_moves(self, words: tuple[str, ...]) -> list[str]:
        from polytile.puzzles.gridblock.files import split_moves

        return split_moves(words)


def _view_note(doc: Any) -> str | None:
    """What a view hides, said under its picture; None for a record or a position."""
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


#: The face the registry finds (:mod:`polytile.faces.registry`).
FACE = GridblockFace()
