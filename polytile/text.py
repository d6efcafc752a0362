"""Names read from files, made safe to print and to put in XML.

A puzzle, piece or player name comes from a file someone else wrote. Printed raw, a name
holding ``ESC[2J`` clears the terminal and ``ESC]0;...BEL`` retitles it; put raw in an SVG,
a control character makes the document invalid XML. :func:`printable` is what every command
applies to such a name before it prints it, :func:`xml_safe` what the SVG writer applies.

Examples
--------
>>> printable("F5")
'F5'
>>> printable("x\\x1b[2Jy\\x07")
'x\\\\x1b[2Jy\\\\x07'
>>> xml_safe("a\\x00b\\x1bc")
'abc'
"""

from __future__ import annotations

import os
import re
import sys

__all__ = ["counted", "listed", "printable", "want_color", "wrote", "xml_safe"]

# C0 controls but tab and newline, DEL, the C1 controls (U+0085 NEL and U+009B CSI among
# them: some terminals act on these alone), and the line and paragraph separators.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
# Characters XML 1.0 does not allow at all (lone surrogates included), or allows only to be
# discouraged (the C1 controls): dropped from SVG text and attributes.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, newlines: bool = False) -> str:
    """``text`` with every control character written as a visible escape (``\\x1b``).

    Parameters
    ----------
    text
        A name or message that may hold text read from a file.
    newlines
        Keep newlines (and tabs) as they are, for multi-line text; otherwise they are
        escaped too, so one name stays on one line.

    Notes
    -----
    Linear in the length of ``text``. Printable characters, non-ASCII letters included, are
    left alone; so is a backslash, so the result is for eyes, not for parsing back.
    """
    if not newlines:
        text = text.replace("\t", "\\x09").replace("\n", "\\x0a")
    return _UNSAFE.sub(_escape, text)


def xml_safe(text: str) -> str:
    """``text`` without the characters XML 1.0 forbids, ready for :func:`xml.sax.saxutils.escape`.

    Notes
    -----
    Tab, newline and carriage return are kept: XML allows them.
    """
    return _NOT_XML.sub("", text)


def wrote(path: object, verb: str = "wrote") -> str:
    """What a command says once it has written its file ``path``: ``wrote NAME`` (or another
    ``verb``), the name escaped as :func:`printable` escapes it (a file name can hold
    control characters), or ``wrote to standard output`` for ``-``.

    >>> wrote("out.svg"), wrote("-", "saved")
    ('wrote out.svg', 'saved to standard output')
    """
    name = str(path)
    return f"{verb} to standard output" if name == "-" else f"{verb} {printable(name)}"


def counted(n: int, noun: str) -> str:
    """``n`` (with thousands separators) and ``noun``, with an s unless ``n`` is 1.

    >>> counted(1, "move"), counted(0, "move"), counted(2339, "solution")
    ('1 move', '0 moves', '2,339 solutions')
    """
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def listed(words: list[str]) -> str:
    """``words`` (one at least) as a sentence lists them: commas, and "and" before the last.

    >>> listed(["red"]), listed(["red", "blue"]), listed(["a", "b", "c"])
    ('red', 'red and blue', 'a, b and c')
    """
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def want_color(color: bool | None) -> bool:
    """Whether a terminal picture is coloured: ``color`` when said, else on for a terminal
    unless ``NO_COLOR`` is set or the terminal is dumb."""
    if color is not None:
        return color
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())
