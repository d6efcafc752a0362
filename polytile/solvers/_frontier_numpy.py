"""The frontier engine's layer step in plain numpy, for layers of a few thousand keys.

The compiled kernel (:mod:`polytile.solvers._frontier_kernel`) is the fast way through a
large layer, but numba takes about a second to start in a new process (importing it and
its compiler, loading the cached code). A count whose layers stay small (a T-tetromino
rectangle never has more than a few hundred keys) is done in numpy in less than that, and
the engine goes over to the kernel only when a layer grows past :data:`NUMPY_KEYS`.

A layer here is a sorted array of distinct keys and their values as four 32-bit limbs in
``uint64`` (a 128-bit count): a sum of up to 2**32 values never overflows a limb before
the carries are pushed up.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from polytile.solvers.frontier_layout import FrontierLayout

__all__ = ["LIMBS", "NUMPY_KEYS", "forward", "start", "to_int", "to_words"]

#: Keys above which a layer goes to the compiled kernel.
NUMPY_KEYS = 20_000
#: 32-bit limbs of a value.
LIMBS = 4
_M32 = np.uint64(0xFFFF_FFFF)

Layer = tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]


def start(key: int) -> Layer:
    """The layer of one key whose value is 1."""
    values = np.zeros((1, LIMBS), dtype=np.uint64)
    values[0, 0] = 1
    return np.array([key], dtype=np.uint64), values


def forward(keys: npt.NDArray[np.uint64], values: npt.NDArray[np.uint64], cell: int,
            layout: FrontierLayout) -> Layer:  # fmt: skip
    """The layer after ``cell`` (the kernel's :func:`~polytile.solvers._frontier_kernel.forward`
    on the whole layer, in one part)."""
    bits = np.uint64(layout.bits)
    low = np.uint64((1 << layout.bits) - 1)
    one = np.uint64(1)
    mask = (keys & low) | (np.uint64(int(layout.blocked[cell + layout.bits])) << bits)
    code = keys >> bits
    full = (mask & one) != 0
    out_keys = [(code[full] << bits) | (mask[full] >> one)]
    out_values = [values[full]]
    empty = ~full
    mask, code, vals = mask[empty], code[empty], values[empty]
    digits: dict[int, npt.NDArray[np.uint64]] = {}
    for o in range(int(layout.opt_ptr[cell]), int(layout.opt_ptr[cell + 1])):
        t = int(layout.opt_type[o])
        if t not in digits:
            digits[t] = (code // layout.radix[t]) % (layout.cap[t] + one)
        m = layout.opt_mask[o]
        use = layout.opt_use[o]
        fits = ((mask & m) == 0) & (digits[t] + use <= layout.cap[t])
        out_keys.append(((code[fits] + use * layout.radix[t]) << bits)
                        | ((mask[fits] | m) >> one))  # fmt: skip
        out_values.append(vals[fits])
    new_keys = np.concatenate(out_keys)
    new_values = np.concatenate(out_values)
    order = np.argsort(new_keys, kind="stable")
    new_keys, new_values = new_keys[order], new_values[order]
    starts = np.flatnonzero(np.concatenate(([True], new_keys[1:] != new_keys[:-1])))
    if len(new_keys) == 0:
        return new_keys, new_values
    summed = np.add.reduceat(new_values, starts, axis=0)
    for limb in range(LIMBS - 1):  # carry into the next limb
        summed[:, limb + 1] += summed[:, limb] >> np.uint64(32)
        summed[:, limb] &= _M32
    return new_keys[starts], summed


def to_int(limbs: npt.NDArray[np.uint64]) -> int:
    """A value's limbs as a Python integer."""
    return sum(int(x) << (32 * i) for i, x in enumerate(limbs))


def to_words(values: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.uint64], ...]:
    """Values' limbs as the kernel's (low word, high word) arrays."""
    s32 = np.uint64(32)
    return values[:, 0] | (values[:, 1] << s32), values[:, 2] | (values[:, 3] << s32)
