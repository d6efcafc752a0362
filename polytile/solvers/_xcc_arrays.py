"""The input of :mod:`polytile.solvers.xcc`: validated flat arrays, and what can give them.

Private: import :class:`XCCArrays` and :class:`SupportsXCC` from :mod:`polytile.solvers.xcc`,
whose names they carry (so pickles and reprs are unchanged by where the code lives).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from polytile.errors import FormatError
from polytile.solvers._xcc_kernel import _INT32_MAX

__all__ = ["SupportsXCC", "XCCArrays"]

_SOURCE = "<exact cover problem>"


def _int_array(values: object, what: str) -> npt.NDArray[np.int64]:
    arr = np.asarray(values)
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if arr.ndim != 1:
        raise FormatError(f"{what} must be one-dimensional, got shape {arr.shape}", _SOURCE, what)
    if arr.dtype.kind not in "iu":
        raise FormatError(f"{what} must hold integers, got dtype {arr.dtype}", _SOURCE, what)
    return arr.astype(np.int64)


@dataclass(frozen=True, eq=False)
class XCCArrays:
    """An exact-cover-with-colours problem as the flat arrays the kernel reads.

    Parameters
    ----------
    options
        Item index of every option entry, option after option.
    options_ptr
        ``n_options + 1`` offsets: option ``k`` is ``options[options_ptr[k]:options_ptr[k+1]]``.
    colors
        Colour of every entry (parallel to ``options``): ``0`` for none, else ``>= 1``.
    n_items
        Number of items; entries must lie in ``0 .. n_items - 1``.
    n_primary
        Items ``0 .. n_primary - 1`` are primary, the rest secondary.

    Raises
    ------
    FormatError
        If the arrays are inconsistent: offsets not running from 0 to ``len(options)`` without
        going down, an item index out of range, an empty option, an option without a primary
        item (Algorithm C would never choose it), an item repeated in an option, a negative
        colour, or a colour on a primary item. The message names the option.
    """

    options: npt.NDArray[np.int32]
    options_ptr: npt.NDArray[np.int64]
    colors: npt.NDArray[np.int32]
    n_items: int
    n_primary: int

    def __post_init__(self) -> None:
        n_items = operator.index(self.n_items)
        n_primary = operator.index(self.n_primary)
        if n_items < 0 or n_items > _INT32_MAX // 2:
            raise FormatError(
                f"n_items must be from 0 to {_INT32_MAX // 2}, got {n_items}", _SOURCE, "n_items"
            )
        if not 0 <= n_primary <= n_items:
            raise FormatError(
                f"n_primary must be from 0 to n_items={n_items}, got {n_primary}",
                _SOURCE,
                "n_primary",
            )
        options = _int_array(self.options, "options")
        ptr = _int_array(self.options_ptr, "options_ptr")
        colors = _int_array(self.colors, "colors")
        if ptr.size == 0 or ptr[0] != 0 or ptr[-1] != options.size:
            raise FormatError(
                f"options_ptr must start at 0 and end at len(options)={options.size}",
                _SOURCE,
                "options_ptr",
            )
        lengths = np.diff(ptr)
        if lengths.size and lengths.min() <= 0:
            k = int(np.flatnonzero(lengths <= 0)[0])
            why = "is empty" if lengths[k] == 0 else "has a negative length (options_ptr decreases)"
            raise FormatError(f"option {k} {why}", _SOURCE, f"options[{k}]")
        if colors.shape != options.shape:
            raise FormatError(
                f"colors must have one entry per option entry ({options.size}), got {colors.size}",
                _SOURCE,
                "colors",
            )
        n_options = lengths.size
        if options.size + n_options + n_items + 2 > _INT32_MAX:
            raise FormatError("problem too large for 32-bit node indices", _SOURCE)
        owner = np.repeat(np.arange(n_options), lengths)

        def fail(mask: npt.NDArray[np.bool_], message: str) -> None:
            if mask.any():
                e = int(np.flatnonzero(mask)[0])
                k = int(owner[e])
                raise FormatError(
                    message.format(item=int(options[e]), k=k, c=int(colors[e])),
                    _SOURCE,
                    f"options[{k}]",
                )

        fail(
            (options < 0) | (options >= n_items),
            f"option {{k}} names item {{item}}, outside 0..{n_items - 1}",
        )
        fail(colors < 0, "option {k} gives item {item} the negative colour {c}")
        fail(
            (colors > 0) & (options < n_primary),
            "option {k} gives a colour to primary item {item}; only secondary items have colours",
        )
        fail(colors > _INT32_MAX, "option {k} gives item {item} a colour beyond 32 bits")
        if n_options:
            has_primary = np.zeros(n_options, dtype=bool)
            np.logical_or.at(has_primary, owner, options < n_primary)
            if not has_primary.all():
                k = int(np.flatnonzero(~has_primary)[0])
                raise FormatError(
                    f"option {k} has no primary item; Algorithm C never chooses such an option",
                    _SOURCE,
                    f"options[{k}]",
                )
            keys = owner * max(n_items, 1) + options
            order = np.argsort(keys, kind="stable")
            repeated = np.zeros(options.size, dtype=bool)
            repeated[order[1:]] = keys[order[1:]] == keys[order[:-1]]
            fail(repeated, "option {k} names item {item} more than once")
        object.__setattr__(self, "options", options.astype(np.int32))
        object.__setattr__(self, "options_ptr", ptr)
        object.__setattr__(self, "colors", colors.astype(np.int32))
        object.__setattr__(self, "n_items", n_items)
        object.__setattr__(self, "n_primary", n_primary)
        for arr in (self.options, self.options_ptr, self.colors):
            arr.flags.writeable = False

    @classmethod
    def from_lists(
        cls,
        options: Sequence[Sequence[int]],
        n_items: int,
        n_primary: int,
        colors: Sequence[Sequence[int]] | None = None,
    ) -> XCCArrays:
        """Arrays from a list of options, each a list of item indices (colours parallel).

        Raises
        ------
        FormatError
            As the constructor, or if ``colors`` is not parallel to ``options``.
        """
        lengths = [len(o) for o in options]
        ptr = np.zeros(len(options) + 1, dtype=np.int64)
        np.cumsum(lengths, out=ptr[1:])
        flat = [i for o in options for i in o]
        if colors is None:
            flat_colors: list[int] = [0] * len(flat)
        else:
            if [len(c) for c in colors] != lengths:
                raise FormatError(
                    "colors must have one entry per item of each option", _SOURCE, "colors"
                )
            flat_colors = [c for cs in colors for c in cs]
        return cls(np.array(flat), ptr, np.array(flat_colors), n_items, n_primary)

    @property
    def n_options(self) -> int:
        """Number of options."""
        return int(self.options_ptr.shape[0] - 1)

    def option(self, k: int) -> tuple[list[int], list[int]]:
        """Items and colours of option ``k``."""
        a, b = int(self.options_ptr[k]), int(self.options_ptr[k + 1])
        return self.options[a:b].tolist(), self.colors[a:b].tolist()

    def to_arrays(self) -> XCCArrays:
        """Itself, so that the arrays are a problem too."""
        return self


@runtime_checkable
class SupportsXCC(Protocol):
    """Anything that can give the kernel's arrays, such as an ``ExactCoverProblem``."""

    def to_arrays(self) -> XCCArrays:
        """The problem as validated flat arrays."""
        ...


# Public as polytile.solvers.xcc.XCCArrays and .SupportsXCC: pickles (process pools, Dask)
# and reprs name that module, as they did before the code moved here.
XCCArrays.__module__ = "polytile.solvers.xcc"
SupportsXCC.__module__ = "polytile.solvers.xcc"
