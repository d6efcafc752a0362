"""How ``polytile bounds`` shares a whole command's time limit out among the City Blocks
colours and their searches (:mod:`polytile.puzzles.cityblocks.bounds_verb`, and
:func:`~polytile.puzzles.cityblocks.bounds.bounds` for one colour), with the clock stood in
for: every search is taken to spend the time it is given, so no real time passes and none
is measured."""

from __future__ import annotations

from typing import Any

import pytest

from polytile.puzzles.cityblocks.rules import COLOR_NAMES

from .test_bounds import CORRIDOR, CORRIDOR_HANDS, endgame


class _Clock:
    """A clock stood in for: :func:`time.perf_counter` of the bounds module and the front
    end's :class:`~polytile.faces.puzzle.Clock` at once. Only :meth:`spend` moves it:
    no real time passes, and none is measured."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now

    def spend(self, seconds: float) -> None:
        self.now += seconds

    def left(self, limit: float | None, reserve: float = 0.0) -> float | None:
        return None if limit is None else max(limit - self.now - reserve, 0.01)

    def deadline(self, limit: float | None) -> Any:
        return _NoDeadline()

    def stop_flag(self) -> Any:
        raise AssertionError("bounds polls no stop flag")


class _NoDeadline:
    fired = False

    def __enter__(self) -> _NoDeadline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def check(self) -> None:
        return None


class _Quiet:
    """A console that prints nothing."""

    def out(self, text: str = "", *, nl: bool = True, color: bool | None = None) -> None:
        return None

    def err(self, text: str) -> None:
        return None

    def progress(self, label: str, enabled: bool, describe: Any = None) -> Any:
        from contextlib import nullcontext

        return nullcontext(None)


#: Each colour's share of the limit, and the seconds each of its searches spent.
_Shares = tuple[dict[str, float], dict[str, dict[str, float]]]


def _shared_out(monkeypatch: pytest.MonkeyPatch, used: float, build: float,
                limit: float = 60.0, exact_pieces: int = 6) -> _Shares:  # fmt: skip
    """Run ``polytile bounds --color all`` on the corridor with the clock stood in for:
    each CP-SAT search spends ``used`` of the seconds it is given (1: all, the worst case),
    building the lower bound's model ``build`` of its colour's share, the exact search all
    it is given. The searches themselves run (they end once proven, on so small a
    position). Returns each colour's share (what each of its searches was given) and the
    seconds each of its searches spent."""
    import polytile.puzzles.cityblocks.bounds as mod
    from polytile.faces.bounds import BoundsRequest
    from polytile.puzzles.cityblocks.bounds_verb import bounds as verb

    clock = _Clock()
    shares: dict[str, float] = {}
    spent: dict[str, dict[str, float]] = {}
    now = {"color": ""}
    real = {name: getattr(mod, name) for name in ("bounds", "upper_bound", "covered_weight",
                                                   "solve", "exact_endgame",
                                                   "estimate_score")}  # fmt: skip

    def spend(stage: str, seconds: float) -> None:
        clock.spend(seconds)
        color = spent[now["color"]]
        color[stage] = color.get(stage, 0.0) + seconds

    def shared(position: Any, color: str, **kw: Any) -> Any:
        now["color"], shares[color], spent[color] = color, kw["time_limit"], {}
        return real["bounds"](position, color, **kw)

    def upper(*args: Any, **kw: Any) -> Any:
        found = real["upper_bound"](*args, **kw)
        spend("upper", used * kw["time_limit"])
        return found

    def model(*args: Any) -> Any:  # building the lower bound's model takes time
        spend("lower", build * shares[now["color"]])
        return real["covered_weight"](*args)

    def lower(*args: Any, **kw: Any) -> Any:
        found = real["solve"](*args, **kw)
        spend("lower", used * kw["time_limit"])
        return found

    def exact(*args: Any, **kw: Any) -> Any:
        found = real["exact_endgame"](*args, **kw)
        spend("exact", kw["time_limit"])
        return found

    def estimate(*args: Any, **kw: Any) -> Any:  # the playouts take all they are given
        found = real["estimate_score"](*args, **{**kw, "seconds": None, "playouts": 1})
        spend("estimate", kw["seconds"])
        return found

    for name, fake in (("time", clock), ("bounds", shared), ("upper_bound", upper),
                       ("covered_weight", model), ("solve", lower), ("exact_endgame", exact),
                       ("estimate_score", estimate)):
        monkeypatch.setattr(mod, name, fake)
    request = BoundsRequest(clock, "all", as_json=True, time_limit=limit, workers=1,
                            exact_pieces=exact_pieces)  # fmt: skip
    verb(_Quiet(), endgame(CORRIDOR, CORRIDOR_HANDS), "corridor", request)
    assert list(shares) == list(COLOR_NAMES) and "lower" in spent["blue"]  # a model was built
    assert clock.now <= limit
    return shares, spent


@pytest.mark.parametrize("used", [1.0, 0.25])
def test_each_colour_keeps_to_its_share_of_the_limit(monkeypatch: pytest.MonkeyPatch,
                                                     used: float) -> None:  # fmt: skip
    """#48: building the lower bound's model was not counted against its search's share,
    and the exact search got a whole share whatever the others had spent. Each CP-SAT
    search keeps to its share, model included; the exact search gets what they left of
    three; and the shares of all four colours stay within the command's limit."""
    limit = 60.0
    shares, spent = _shared_out(monkeypatch, used, build=0.4, limit=limit)
    for color, share in shares.items():
        assert spent[color].get("upper", 0.0) <= share + 1e-9
        assert spent[color].get("lower", 0.0) <= share + 1e-9
        assert sum(spent[color].values()) <= 3 * share + 1e-9
    assert sum(3 * share for share in shares.values()) <= limit


@pytest.mark.parametrize("used", [1.0, 0.25])
def test_without_the_exact_search_the_estimate_has_a_share_of_its_own(
    monkeypatch: pytest.MonkeyPatch, used: float
) -> None:
    """With --exact-pieces 0 a colour has two searches' shares and the estimate's: the
    estimate (which runs where the bounds do not meet: blue, yellow, green on the
    corridor) keeps to what the searches left of them, and the colours to the limit."""
    from polytile.puzzles.cityblocks.bounds import ESTIMATE_SHARE, shares

    limit = 60.0
    got, spent = _shared_out(monkeypatch, used, build=0.4, limit=limit, exact_pieces=0)
    assert shares(0) == 2 + ESTIMATE_SHARE and shares(6) == 3
    assert "estimate" in spent["blue"] and "estimate" not in spent["red"]  # red: 88 to 88
    for color, share in got.items():
        assert "exact" not in spent[color]
        assert sum(spent[color].values()) <= shares(0) * share + 1e-9
    # what a colour leaves (the estimate stops at 2 s) goes to the next ones; that all of
    # them end within the limit is _shared_out's check of the clock


def test_searches_past_their_shares_leave_the_exact_one_a_tenth(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Building a model cannot be cut short: when it ran past its share, the exact search
    gets a tenth of a share, not a whole one taken from the next colours' time."""
    shares, spent = _shared_out(monkeypatch, used=1.0, build=2.5)
    share = shares["blue"]
    assert spent["blue"]["upper"] + spent["blue"]["lower"] > 3 * share
    assert spent["blue"]["exact"] == pytest.approx(0.1 * share)
