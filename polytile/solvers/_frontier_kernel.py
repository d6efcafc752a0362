"""The compiled layer step of the frontier counting engine (:mod:`polytile.solvers.frontier`).

A *layer* is a hash table of partial tilings keyed by what the rest of the count can see:
the covered cells of a window of ``bits`` cells from the scan line on (a bitmask) and the
copies of each piece type used so far (a mixed-radix code), packed into one 64-bit key
``code << bits | mask``. Its value is how many partial tilings share the key, a 128-bit
number: the low word sits beside the key (one cache line holds both, so an update costs one
miss), the high word in an array of its own that is touched only when a word overflows.
Open addressing with linear probing; the all-ones key marks an empty slot (a real key never
has its top bit set: ``bits`` + code bits <= 63).

A layer may be split into ``2**pbits`` parts by the top bits of the key's hash, each part a
table of its own: :func:`forward` reads every part of a layer and writes only the keys of
one part of the next, so two threads can build the two halves of the next layer at once.

All arithmetic is on ``uint64`` with explicit ``np.uint64`` constants: numba promotes a
``uint64`` mixed with a signed integer to ``float64``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from polytile._jit import njit

__all__ = ["EMPTY", "fill", "forward", "new_table", "value_of"]

#: The key of an empty slot.
EMPTY = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
_GOLDEN = np.uint64(0x9E37_79B9_7F4A_7C15)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


def new_table(log_capacity: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """An empty table of ``2**log_capacity`` slots: (keys and low words interleaved, high
    words)."""
    cap = 1 << log_capacity
    kv = np.zeros(2 * cap, dtype=np.uint64)
    kv[0::2] = EMPTY
    return kv, np.zeros(cap, dtype=np.uint64)


@njit(cache=True, nogil=True)
def _add(kv, hi, shift, pbits, key, vlo, vhi):
    """Add (vlo, vhi) to ``key``'s value; 1 if the key was new, else 0."""
    mask = np.int64((len(kv) >> 1) - 1)
    # Fibonacci hashing: the top bits of key * 2^64/phi, after the part's bits.
    s = np.int64(((key * _GOLDEN) << pbits) >> shift)
    while True:
        k = kv[2 * s]
        if k == key:
            old = kv[2 * s + 1]
            new = old + vlo
            kv[2 * s + 1] = new
            if new < old or vhi != _ZERO:
                hi[s] += vhi + (_ONE if new < old else _ZERO)
            return 0
        if k == EMPTY:
            kv[2 * s] = key
            kv[2 * s + 1] = vlo
            if vhi != _ZERO:
                hi[s] = vhi
            return 1
        s = (s + 1) & mask


@njit(cache=True, nogil=True)
def _grown(kv, hi, shift, pbits):
    """The table rehashed into twice the slots; its new shift."""
    cap = len(hi) * 2
    nkv = np.zeros(2 * cap, dtype=np.uint64)
    for s in range(cap):
        nkv[2 * s] = EMPTY
    nhi = np.zeros(cap, dtype=np.uint64)
    nshift = shift - _ONE
    for s in range(len(hi)):
        if kv[2 * s] != EMPTY:
            _add(nkv, nhi, nshift, pbits, kv[2 * s], kv[2 * s + 1], hi[s])
    return nkv, nhi, nshift


@njit(cache=True, nogil=True)
def forward(ckv, chi, start, budget, nkv, nhi, nshift, nsize, pbits, part,
            cell, bits, enter, opt_ptr, opt_mask, opt_type, opt_use, radix, cap):  # fmt: skip
    """Move part of the layer before ``cell`` past it, into part ``part`` of the next.

    A key's mask has ``bits`` bits: bit k is cell ``cell + k`` (covered, blocked or off the
    board). The cell entering the window at bit ``bits`` is blocked when ``enter`` is 1.
    When bit 0 is clear, a piece whose lowest cell is ``cell`` must cover it: options
    ``opt_ptr[cell] .. opt_ptr[cell + 1]`` (masks relative to ``cell``, piece types, grouped
    by type, copies used). A type may be used ``cap[t]`` times; its count is digit ``t`` of
    the code.

    Works through slots ``start`` .. ``start + budget`` of the table (``ckv``, ``chi``);
    keeps the next keys whose hash's top ``pbits`` bits are ``part``. Returns (next start,
    or -1 when the table is done), the next table, its shift and its size.
    """
    low = (_ONE << np.uint64(bits)) - _ONE
    ub = np.uint64(bits)
    entering = np.uint64(enter) << ub
    ncap = len(chi)
    end = min(start + budget, ncap)
    lo_opt = opt_ptr[cell]
    hi_opt = opt_ptr[cell + 1]
    upart = np.uint64(part)
    keep_all = pbits == 0
    pshift = np.uint64(64 - pbits) if pbits > 0 else _ZERO
    upbits = np.uint64(pbits)
    for s in range(start, end):
        key = ckv[2 * s]
        if key == EMPTY:
            continue
        vlo = ckv[2 * s + 1]
        vhi = chi[s]
        mask = (key & low) | entering
        code = key >> ub
        if mask & _ONE:
            nkey = (code << ub) | (mask >> _ONE)
            if keep_all or ((nkey * _GOLDEN) >> pshift) == upart:
                nsize += _add(nkv, nhi, nshift, upbits, nkey, vlo, vhi)
        else:
            t_seen = -1
            digit = _ZERO
            for o in range(lo_opt, hi_opt):
                t = opt_type[o]
                if t != t_seen:  # options come grouped by type: one digit a group
                    t_seen = t
                    digit = (code // radix[t]) % (cap[t] + _ONE)
                use = opt_use[o]
                if digit + use > cap[t]:
                    continue
                m = opt_mask[o]
                if mask & m:
                    continue
                nkey = ((code + use * radix[t]) << ub) | ((mask | m) >> _ONE)
                if keep_all or ((nkey * _GOLDEN) >> pshift) == upart:
                    nsize += _add(nkv, nhi, nshift, upbits, nkey, vlo, vhi)
        if 2 * nsize > len(nhi):
            nkv, nhi, nshift = _grown(nkv, nhi, nshift, upbits)
    return (end if end < ncap else -1), nkv, nhi, nshift, nsize


@njit(cache=True, nogil=True)
def fill(kv, hi, shift, pbits, part, keys, lo_words, hi_words):
    """Put the keys of part ``part`` (and their values) into an empty table; its size."""
    size = 0
    upbits = np.uint64(pbits)
    pshift = np.uint64(64 - pbits) if pbits > 0 else _ZERO
    upart = np.uint64(part)
    for i in range(len(keys)):
        if pbits == 0 or ((keys[i] * _GOLDEN) >> pshift) == upart:
            size += _add(kv, hi, shift, upbits, keys[i], lo_words[i], hi_words[i])
    return size


@njit(cache=True, nogil=True)
def value_of(kv, hi, shift, pbits, key):
    """The value of ``key`` in a table (part) as (low word, high word); zeros if absent."""
    mask = np.int64(len(hi) - 1)
    s = np.int64(((key * _GOLDEN) << np.uint64(pbits)) >> shift)
    while kv[2 * s] != EMPTY:
        if kv[2 * s] == key:
            return kv[2 * s + 1], hi[s]
        s = (s + 1) & mask
    return _ZERO, _ZERO
