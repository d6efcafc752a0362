"""Parameter types shared by the commands."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any, ClassVar

import click

__all__ = [
    "PICTURES",
    "RECORD_MOVE",
    "SECONDS",
    "Finite",
    "GameDefault",
    "Seconds",
    "Workers",
    "check_output",
    "game_options",
    "given_options",
    "picture_options",
    "refuse_undeclared",
]

#: ``--move N`` of the commands that read a game record at one of its positions.
RECORD_MOVE = click.option(
    "--move",
    type=click.IntRange(0),
    default=None,
    metavar="N",
    help="For a game record: the position after move N (Walkable Cities: after N rounds) "
    "[default: the end].",
)

#: The picture suffixes ``-o`` takes (``polytile.render.save_picture``).
PICTURES = (".svg", ".png", ".txt")


#: The longest time limit taken: 30 days. The clocks behind a limit cannot be set much
#: beyond it (an alarm of 1e11 s ended in an OverflowError), and no run lasts that long.
MAX_SECONDS = 30 * 86400


class Seconds(click.FloatRange):
    """A positive, finite number of seconds, at most :data:`MAX_SECONDS` (``nan`` and
    ``inf`` are refused)."""

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(min=0, min_open=True, max=MAX_SECONDS)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return seconds


#: The type of every time limit option.
SECONDS = Seconds()


class ByteSize(click.ParamType):
    """An amount of memory: bytes, or a number with K, M, G or T (powers of 1024; a
    trailing B and lower case are taken too): ``500M``, ``2.5G``."""

    name = "size"
    _UNITS: ClassVar[dict[str, int]] = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30,
                                        "T": 1 << 40}  # fmt: skip

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, int):
            return value
        text = str(value).strip().upper().removesuffix("B")
        unit = text[-1:] if text[-1:] in "KMGT" and text[-1:] else ""
        number = text[: len(text) - len(unit)]
        try:
            amount = float(number) * self._UNITS[unit]
        except ValueError:
            self.fail(f"{value!r} is not an amount of memory (say 500M or 4G)", param, ctx)
        if not math.isfinite(amount) or amount < 1 << 20:
            self.fail(f"{value!r} is less than a megabyte, or not a finite amount", param, ctx)
        return int(amount)


#: The type of ``--memory``.
BYTES = ByteSize()


class Finite(click.FloatRange):
    """A finite number within a range (``nan`` and ``inf`` are refused)."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number

    def _describe_range(self) -> str:
        """No range in the help when there is none (click would print ``[x<=None]``)."""
        return "" if self.min is None and self.max is None else super()._describe_range()


class Workers(click.IntRange):
    """A number of worker processes or CP-SAT threads: at least 1 (and at most ``max``),
    and never more than the cores this process may use
    (:func:`polytile.solvers.parallel.usable_workers`). A larger number given on the
    command line is lowered to that, and said once on standard error; a default silently.

    Lowered rather than refused: a command line written for a larger machine still runs
    here, with the same results (no result depends on the worker count), using the cores
    there are instead of processes that would only wait for them and hold memory.
    """

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from polytile.solvers.parallel import usable_workers

        wanted = super().convert(value, param, ctx)
        used = usable_workers(wanted)
        if used < wanted and isinstance(value, str):  # from the command line, not a default
            name = param.opts[0] if param is not None and param.opts else "--workers"
            cores = f"{used} core" + ("s" if used != 1 else "")
            click.echo(f"{name} {wanted}: this process may use {cores}; using {used}", err=True)
        return used


def check_output(output: str | Path | None, suffixes: tuple[str, ...] | None = None,
                 what: str = "") -> None:  # fmt: skip
    """Refuse a bad ``-o`` before any work whose answer it would lose (exit 2): a folder
    that is missing or not writable, or (given ``suffixes``) a suffix not among them;
    ``what`` says what each suffix writes, for the message."""
    if output is None:
        return
    from polytile._files import output_kind

    path = Path(output)
    try:
        kind = output_kind(path)
    except OSError as exc:
        raise click.BadParameter(f"{output}: {exc.strerror}", param_hint="-o") from None
    if kind != "file":  # written as it is (standard output, /dev/null, a FIFO)
        if kind == "direct" and not os.access(path, os.W_OK):
            raise click.BadParameter(f"{output}: not writable", param_hint="-o")
        return
    if suffixes is not None and path.suffix.lower() not in suffixes:
        raise click.BadParameter(f"{output}: the suffix must be {', '.join(suffixes)}{what}",
                                 param_hint="-o")  # fmt: skip
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise click.BadParameter(f"{output}: no folder {folder}", param_hint="-o")
    if not os.access(folder, os.W_OK):
        raise click.BadParameter(f"{output}: cannot write in {folder}", param_hint="-o")
    if path.is_dir():
        raise click.BadParameter(f"{output} is a folder; give a file name", param_hint="-o")


# -- the games' own options, declared as data by their faces ---------------------------------

#: A table of options declared outside the faces: game name -> (title, options).
Declared = dict[str, tuple[str, tuple[Any, ...]]]


def _declarations(attr: str, extra: Declared) -> list[tuple[str, str, Any]]:
    """Every (game, title, option) of ``attr`` (``new_options``, ``selfplay_options``) among
    the faces, then those of ``extra``."""
    from polytile.faces.registry import FACES, face

    out = []
    for name in FACES if attr else ():  # no attribute: the options of ``extra`` alone
        f = face(name)
        out += [(name, f.title, option) for option in getattr(f, attr, ())]
    for name, (title, options) in extra.items():
        out += [(name, title, option) for option in options]
    return out


def game_options(attr: str, extra: Declared | None = None, *, same_help: bool = False) -> Any:
    """A decorator adding one click option for each option the games declare in ``attr``
    (and ``extra``): the choices of every game that takes it, its help from each, and None
    when not given (the game fills in its default). With ``same_help``, games whose help of
    an option is the same are named together before it ("Blokus, City Blocks (Ritchie): ...")."""
    merged: dict[str, list[tuple[str, Any]]] = {}
    for _, title, option in _declarations(attr, extra or {}):
        merged.setdefault(option.name, []).append((title, option))

    def helps_of(owners: list[tuple[str, Any]]) -> str:
        said: dict[tuple[str, str], list[str]] = {}
        for title, o in owners:
            said.setdefault(("" if same_help else title, o.help), []).append(title)
        return " ".join(f"{', '.join(titles)}: {text[:1].lower()}{text[1:]}"
                        for (_, text), titles in said.items())  # fmt: skip

    def decorate(f: Any) -> Any:
        for name, owners in reversed(merged.items()):
            first = owners[0][1]
            helps = helps_of(owners)
            if first.switch:
                f = click.option(first.spelling, name, is_flag=True, default=None, help=helps)(f)
                continue
            if first.metavar:
                f = click.option(first.spelling, name, metavar=first.metavar, default=None,
                                 help=helps)(f)  # fmt: skip
                continue
            if first.choices:
                choices = list(dict.fromkeys(c for _, o in owners for c in o.choices))
                kind: Any = click.Choice(choices)
            elif name == "workers":  # capped at the usable cores, as every --workers
                kind = Workers(first.low, first.high)
            else:
                kind = click.IntRange(first.low, first.high)
            f = click.option(first.spelling, name, type=kind, default=None, help=helps)(f)
        return f

    return decorate


class GameDefault(click.Option):
    """An option whose default the game of the file fills in itself: its value is None
    when not given, and its help shows the default a face declares in
    :attr:`~polytile.faces.face.Face.option_defaults`, looked up among the faces only
    when the help is shown (so a command that runs loads no other game's face)."""

    def get_help_extra(self, ctx: click.Context) -> Any:
        """Click's help extras, with the declared default first."""
        from polytile.faces.registry import FACES, face

        extra = super().get_help_extra(ctx)
        for name in FACES:
            declared = face(name).option_defaults
            if self.name in declared:
                return {"default": str(declared[self.name]), **extra}
        return extra


def given_options(game: str, options: dict[str, Any], attr: str,
                  extra: Declared | None = None, shown: str = "") -> dict[str, Any]:  # fmt: skip
    """The options given on the command line (not None) that ``game`` declares; any other
    given is refused naming the games that take it (a usage error, exit 2), and ``game`` as
    ``shown`` when given."""
    given = {name: value for name, value in options.items() if value is not None}
    owners: dict[str, list[str]] = {}
    spelling: dict[str, str] = {}
    for name, title, option in _declarations(attr, extra or {}):
        owners.setdefault(option.name, []).append(name if name == game else title)
        spelling[option.name] = option.spelling
    refused = [n for n in given if game not in owners.get(n, [])]
    if refused:
        who = owners[refused[0]]
        same = [n for n in refused if owners[n] == who]
        flags = ", ".join(spelling[n] for n in same)
        games = " and ".join(filter(None, [", ".join(who[:-1]), who[-1]]))
        raise click.UsageError(f"{flags}: {games} options, not {shown or game}'s")
    return given


def refuse_undeclared(names: tuple[str, ...], given: frozenset[str], takes: frozenset[str],
                      attr: str, flags: dict[str, str] | None = None,
                      why: dict[str, str] | None = None) -> None:  # fmt: skip
    """Refuse the options ``given`` that the file's game does not take (``takes``), naming
    the games whose faces declare them in ``attr`` (``endgame_options``), in the order of
    their titles: a usage error, exit 2. ``names`` are the command's options that only
    some games take, in the order they are refused; ``flags`` spells those that are not
    ``--`` and the name with dashes, and ``why`` adds a note after an option's refusal."""
    from polytile.faces.registry import FACES, face

    refused = [n for n in names if n in given and n not in takes]
    if not refused:
        return

    def owners(name: str) -> list[str]:
        return sorted(f.title for f in map(face, FACES) if name in getattr(f, attr, ()))

    who = owners(refused[0])
    same = [n for n in refused if owners(n) == who]
    spelled = ", ".join((flags or {}).get(n, "--" + n.replace("_", "-")) for n in same)
    games = " and ".join(filter(None, [", ".join(who[:-1]), who[-1]]))
    raise click.UsageError(f"{spelled}: only for {games} files{(why or {}).get(same[0], '')}")


_PICTURE_HELP = "Write the picture here (.svg, .png or .txt) instead of printing it."


def picture_options(f: Any, output_help: str = _PICTURE_HELP) -> Any:
    """The picture options shared by commands that draw: ``-o``, ``--color/--no-color``,
    ``--cell``; ``output_help`` says what ``-o`` writes."""
    f = click.option(
        "--cell",
        type=click.IntRange(4, 200),
        default=24,
        show_default=True,
        help="Cell size in pixels for .svg and .png.",
    )(f)
    f = click.option(
        "--color/--no-color",
        default=None,
        help="Force colours on or off in the terminal picture [default: on for a terminal, "
        "unless NO_COLOR is set].",
    )(f)
    return click.option(
        "-o",
        "--output",
        type=click.Path(dir_okay=False, writable=True, path_type=Path),
        help=output_help,
    )(f)
