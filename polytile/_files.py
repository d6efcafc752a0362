"""Low-level reading and writing behind :mod:`polytile.formats`.

Decoding with located errors, JSON parsing that refuses what JSON should not hold (duplicate
keys, NaN, numbers out of range) and says where, typed field access whose errors carry the
field path, and atomic file writes. Everything raises :class:`~polytile.errors.FormatError`
naming the source and the place.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

from polytile.board import MAX_SIDE
from polytile.errors import FormatError
from polytile.geometry import Cell

__all__ = [
    "MAX_DEPTH",
    "decode_text",
    "explain_unread",
    "get_cell",
    "get_list",
    "get_side",
    "get_string",
    "kind_of",
    "open_game_document",
    "output_kind",
    "output_suffix",
    "parse_json",
    "require",
    "require_in",
    "short",
    "sniff",
    "too_deep",
    "write_atomic",
]


def short(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for messages about untrusted input (a
    JSON ``null``, ``true`` or ``false`` written so, not as Python writes them)."""
    if value is None or isinstance(value, bool):
        text = "null" if value is None else str(value).lower()
    else:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def decode_text(text: str | bytes, source: str) -> str:
    """Text of a document given as text or bytes: UTF-8 only, a leading BOM dropped.

    Raises
    ------
    FormatError
        Naming the line and column of the first byte that is not UTF-8.
    """
    if isinstance(text, str):
        return text.removeprefix("\ufeff")
    try:
        return text.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = text.count(b"\n", 0, exc.start) + 1
        col = exc.start - (text.rfind(b"\n", 0, exc.start) + 1) + 1
        raise FormatError(
            f"not UTF-8 text: byte 0x{text[exc.start]:02x} cannot be decoded",
            source,
            f"line {line}, column {col}",
        ) from None


class _Marker:
    """Stands in for a JSON value we refuse (NaN, huge numbers); found later by path."""

    def __init__(self, problem: str) -> None:
        self.problem = problem


class _DupDict(dict[str, Any]):
    """A JSON object in which ``duplicate`` appeared twice."""

    duplicate: str = ""


def parse_json(text: str, source: str) -> Any:
    """Parse JSON text; syntax errors name line and column, refused values their path (text
    of white space alone: "the file is empty", as :func:`polytile.formats.loads` says). A
    leading byte-order mark is dropped, as editors on Windows write one."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise FormatError("the file is empty", source, "line 1")
    marked = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal marked
        result: dict[str, Any] = {}
        for key, value in items:
            if key in result:
                marked = True
                dup = _DupDict(result)
                dup.duplicate = key
                return dup
            result[key] = value
        return result

    def constant(name: str) -> _Marker:
        nonlocal marked
        marked = True
        return _Marker(f"{name} is not a JSON number")

    def number(kind: type) -> Any:
        def parse(s: str) -> Any:
            nonlocal marked
            if len(s) > 100:
                marked = True
                return _Marker(f"number with {len(s)} characters is too long")
            value = kind(s)
            if isinstance(value, float) and not math.isfinite(value):
                marked = True
                return _Marker(f"number {s} is out of range")
            return value

        return parse

    try:
        doc = json.loads(
            text,
            object_pairs_hook=pairs,
            parse_constant=constant,
            parse_float=number(float),
            parse_int=number(int),
        )
    except json.JSONDecodeError as exc:
        raise FormatError(
            f"not valid JSON: {exc.msg.removesuffix(' at')}",
            source,
            f"line {exc.lineno}, column {exc.colno}",
        ) from None
    except RecursionError:
        raise FormatError("JSON nested too deeply", source, "line 1") from None
    if marked:
        where, problem = _find_marker(doc)
        raise FormatError(problem, source, where)
    deep = too_deep(doc)
    if deep is not None:
        raise FormatError(f"nested more than {MAX_DEPTH} levels deep", source, deep)
    return doc


#: The deepest nesting of lists and objects a document may have: polytile's own need 4 or
#: 5 levels, and a writer that recursed through a deeper one could run out of stack.
MAX_DEPTH = 64


def too_deep(doc: Any) -> str | None:
    """The path of a value nested deeper than :data:`MAX_DEPTH` in ``doc``, or None
    (iterative: the check itself must not recurse)."""
    stack: list[tuple[Any, str, int]] = [(doc, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:  # the start of the path is enough to find it
            return path if len(path) <= 40 else path[:40] + "..."
        if isinstance(value, dict):
            stack.extend(
                (v, f"{path}.{k}" if path else str(k), depth + 1) for k, v in value.items()
            )
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value))
    return None


def _find_marker(doc: Any) -> tuple[str, str]:
    stack: list[tuple[str, Any]] = [("", doc)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, _Marker):
            return path or "(top level)", value.problem
        if isinstance(value, _DupDict):
            return path or "(top level)", f"key {short(value.duplicate)} appears twice"
        if isinstance(value, dict):
            for k, v in reversed(value.items()):
                stack.append((f"{path}.{k}" if path else k, v))
        elif isinstance(value, list):
            for i in reversed(range(len(value))):
                stack.append((f"{path}[{i}]", value[i]))
    return "(top level)", "refused JSON value"  # pragma: no cover - a marker is always found


def kind_of(value: Any) -> str:
    """How a JSON value is described in messages (\"a string\", \"null\", ...)."""
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return names.get(type(value), type(value).__name__)


def require(doc: dict[str, Any], key: str, source: str) -> Any:
    """``doc[key]``, or an error naming the missing top-level field."""
    if key not in doc:
        raise FormatError(f"missing required field {key!r}", source, key)
    return doc[key]


def get_string(value: Any, source: str, where: str, choices: tuple[str, ...] = ()) -> str:
    """``value`` if it is a string (one of ``choices`` when given)."""
    if not isinstance(value, str):
        raise FormatError(f"must be a string, got {kind_of(value)}", source, where)
    if choices and value not in choices:
        raise FormatError(f"{short(value)} is not one of {', '.join(choices)}", source, where)
    return value


def open_game_document(
    text: str | bytes, source: str, fmt: str, game: str, kinds: tuple[str, ...], move: int | None
) -> tuple[dict[str, Any], str]:
    """The top of every game reader: ``text`` parsed as a JSON object whose ``format`` is
    ``fmt``, whose ``game`` (when given) is ``game`` and whose ``kind`` is one of ``kinds``;
    ``move`` is refused but for a ``"record"``. Returns the object and its kind.

    Raises
    ------
    FormatError
        Naming the field at fault.
    """
    doc = parse_json(decode_text(text, source), source)
    if not isinstance(doc, dict):
        raise FormatError(f"must be a JSON object, got {kind_of(doc)}", source)
    found = get_string(require(doc, "format", source), source, "format")
    if found != fmt:
        raise FormatError(f"expected format {fmt!r}, got {found!r}", source, "format")
    if "game" in doc and doc["game"] != game:
        raise FormatError(f"must be {game!r}, got {short(doc['game'])}", source, "game")
    kind = get_string(require(doc, "kind", source), source, "kind", kinds)
    if move is not None and kind != "record":
        raise FormatError("--move needs a game record; this file is a " + kind, source, "kind")
    return doc, kind


def get_list(value: Any, source: str, where: str) -> list[Any]:
    """``value`` if it is a JSON list."""
    if not isinstance(value, list):
        raise FormatError(f"must be a list, got {kind_of(value)}", source, where)
    return value


def get_side(value: Any, source: str, where: str) -> int:
    """``value`` if it is an integer board side from 1 to :data:`~polytile.board.MAX_SIDE`."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise FormatError(f"must be an integer, got {kind_of(value)}", source, where)
    if not 1 <= value <= MAX_SIDE:
        raise FormatError(f"must be from 1 to {MAX_SIDE}, got {value}", source, where)
    return value


def get_cell(value: Any, source: str, where: str, dims: int = 2) -> Cell:
    """``value`` as a cell if it is a pair of integers ``[row, col]`` (with ``dims`` 3, a
    triple ``[layer, row, col]``)."""
    if dims == 3:
        if (not isinstance(value, list) or len(value) != 3
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
            raise FormatError(f"a cell of the cube grid must be three integers [layer, row, "
                              f"col], got {short(value)}", source, where)  # fmt: skip
        return (value[0], value[1], value[2])
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        raise FormatError(
            f"a cell must be a pair of integers [row, col], got {short(value)}", source, where
        )
    return (value[0], value[1])


def require_in(item: dict[str, Any], key: str, source: str, where: str) -> Any:
    """``item[key]``, or an error naming the missing field under ``where``."""
    if key not in item:
        raise FormatError(f"missing required field {key!r}", source, f"{where}.{key}")
    return item[key]


#: The names ``-o`` takes for the standard streams: written to the stream itself, as the
#: shell redirected it (a file opened for appending stays so).
STREAMS = ("-", "/dev/stdout", "/dev/stderr")


def output_kind(path: str | os.PathLike[str]) -> str:
    """How :func:`write_atomic` writes ``path``: ``"stream"`` (standard output or error,
    :data:`STREAMS`), ``"direct"`` (a character device such as ``/dev/null``, or a FIFO:
    written in place, never replaced), or ``"file"`` (a regular file, new or existing:
    replaced atomically).

    Raises
    ------
    OSError
        For anything else that exists there (a block device, a socket, a folder).
    """
    name = os.fspath(path)
    if name in STREAMS:
        return "stream"
    try:
        mode = os.stat(name).st_mode
    except OSError:
        return "file"  # a new file (a folder that is missing is said when it is written)
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "direct"
    what = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
    raise OSError(errno.EINVAL, f"{what}: -o writes regular files, character devices (such "
                  "as /dev/null), FIFOs and - (standard output)", name)  # fmt: skip


def output_suffix(path: str | os.PathLike[str], default: str) -> str:
    """The suffix of ``path`` in lower case, which picks what ``-o`` writes; ``default``
    (the command's usual kind, such as ``".svg"``) for standard output, a character device
    or a FIFO whose name has none (``-o -``, ``-o /dev/null``)."""
    name = os.fspath(path)
    suffix = os.path.splitext(name)[1].lower()
    if suffix:
        return suffix
    try:
        return default if output_kind(name) != "file" else suffix
    except OSError:  # written nowhere: the writer says why
        return suffix


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write a file so that readers see either the old or the new content, never a mix.

    The data goes to a temporary file in the same directory, is flushed to disk, then
    replaces the target with :func:`os.replace`. An existing file keeps its permissions; a new
    one gets the usual ``0o666`` minus the umask. A symbolic link is written through.

    ``-`` and ``/dev/stdout`` (``/dev/stderr``) are written to the standard stream, and a
    character device (``/dev/null``) or a FIFO in place: a file renamed over one would
    replace it (run as root with ``-o /dev/null``, the system's ``/dev/null``).

    Raises
    ------
    OSError
        If the directory is not writable or the disk is full; the target is then unchanged
        and the temporary file removed. For a block device, a socket or a folder.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    kind = output_kind(path)
    if kind == "stream":
        stream = sys.stderr if os.fspath(path) == "/dev/stderr" else sys.stdout
        stream.flush()
        binary = getattr(stream, "buffer", None)
        if binary is None:  # a text stream only (an embedding program's)
            stream.write(payload.decode("utf-8", "replace"))
        else:
            binary.write(payload)
            binary.flush()
        return
    if kind == "direct":
        with open(path, "wb") as f:
            f.write(payload)
        return
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)  # the only portable way to read the umask is to set it
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:  # name the file asked for, not the temporary one
        why = "no such directory" if not target.parent.is_dir() else (exc.strerror or str(exc))
        raise OSError(exc.errno, f"cannot write here ({why})", os.fspath(path)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


#: The largest game file the games' own readers take (City Blocks (Henning), Gridblock,
#: Walkable Cities): a whole game is a few kB, so 10 MB leaves room for comments and
#: analyses while a hostile file is refused before it costs seconds and hundreds of MB.
MAX_GAME_FILE_BYTES = 10_000_000

#: The most standard input any reader takes; each reader refuses more than its own limit.
STDIN_CAP = 64 * 1024 * 1024
_stdin: tuple[Any, bytes] | None = None


def read_stdin() -> bytes:
    """Standard input, read once (at most :data:`STDIN_CAP` + 1 bytes) and kept: a command
    looks at the first bytes to tell which game a document is, then its reader reads it.
    Kept per ``sys.stdin`` object, so a test runner that swaps it reads the new one."""
    global _stdin
    if _stdin is None or _stdin[0] is not sys.stdin:
        _stdin = (sys.stdin, sys.stdin.buffer.read(STDIN_CAP + 1))
    return _stdin[1]


def read_input(path: str | os.PathLike[str], limit: int) -> tuple[bytes, str]:
    """The bytes of ``path`` (``-``: standard input) and the name to report it by, refused
    past ``limit`` bytes before reading more than that."""
    source = os.fspath(path)
    if source == "-":
        data, source = read_stdin(), "<stdin>"
    else:
        if os.path.getsize(source) > limit:
            raise FormatError(f"larger than {limit // 1_000_000} MB", source)
        with open(source, "rb") as f:
            data = f.read(limit + 1)
    if len(data) > limit:
        raise FormatError(f"larger than {limit // 1_000_000} MB", source)
    return data, source


def explain_unread(path: str | os.PathLike[str]) -> None:
    """Raise what keeps ``path`` (``-``: standard input) from being read as any document at
    all: no such file or one that cannot be read (OSError), larger than
    :data:`MAX_GAME_FILE_BYTES`, empty, not UTF-8, or JSON that does not parse
    (FormatError, naming the line and column); return when it reads, so that the caller
    says what it is not. For commands that found no game's reader for a file: "not a file
    of a game" alone hid why."""
    data, source = read_input(path, MAX_GAME_FILE_BYTES)
    text = decode_text(data, source)
    if not text.strip():
        raise FormatError("the file is empty", source, "line 1")
    if text.lstrip()[:1] in ("{", "["):
        parse_json(text, source)


#: How much of a file that does not parse is looked at for a ``format`` tag.
SNIFF_HEAD = 4096


def sniff(path: str) -> tuple[dict[str, Any] | None, bytes | None]:
    """What a command needs to tell which reader a file is for: the top-level JSON object
    of ``path`` (``-``: standard input), parsed whole, so that its ``format`` is found
    wherever it stands; and the file's first :data:`SNIFF_HEAD` bytes.

    The object is None for a file that is not one: not JSON, damaged, not an object, larger
    than :data:`MAX_GAME_FILE_BYTES` (its reader refuses it) or not a regular file (a
    pipe would lose the bytes looked at). Callers then look for a tag among the first
    bytes, so that a damaged file still reaches its own reader, which says where it is
    damaged. Both are None for a file that cannot be read (its reader says why).
    """
    if path == "-":
        data = read_stdin()
    elif not os.path.isfile(path):
        return None, None
    else:
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_GAME_FILE_BYTES + 1)
        except OSError:
            return None, None
    head = data[:SNIFF_HEAD]
    if len(data) > MAX_GAME_FILE_BYTES or data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] != b"{":
        return None, head
    try:
        doc = json.loads(data.decode("utf-8").removeprefix("\ufeff"))
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deep
        return None, head
    return (doc if isinstance(doc, dict) else None), head


def has_tag(path: str, tag: bytes) -> bool:
    """True when ``path`` (``-``: standard input) is a document of format ``tag``, a JSON
    string (``b'"polytile/walkable-path@1"'``): its ``format`` field, or, for a file that
    does not parse (:func:`sniff`), ``tag`` among its first bytes."""
    doc, head = sniff(path)
    if doc is not None:
        return doc.get("format") == json.loads(tag)
    return head is not None and tag in head
