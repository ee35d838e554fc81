"""Dense integer polynomials packed into one big integer (Kronecker substitution).

A distribution over the integers ``lo..hi`` with integer weights is the polynomial
``sum(w_i * z**i)``. Packing its coefficients into fixed-width slots of a single Python ``int``
turns polynomial multiplication (the convolution of independent rolls) into one big-integer
multiplication, done by CPython's C code, and shifting a polynomial into a ``<<``. The results
are exact as long as no coefficient overflows its slot, which the callers guarantee by choosing
the slot width from an upper bound of the final coefficients (all coefficients here are
non-negative, and every intermediate coefficient is at most the final bound).

>>> w = width_for(36)
>>> d6 = pack([1] * 6, w)
>>> unpack(d6 * d6, w, 11)
[1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["pack", "unpack", "width_for"]

_MAX_NUMPY_LIMBS = 4
_NUMPY_DTYPES: dict[int, type[np.unsignedinteger]] = {
    1: np.uint8,
    2: np.uint16,
    4: np.uint32,
    8: np.uint64,
}


def width_for(bound: int) -> int:
    """Bytes per slot so that every coefficient ``<= bound`` fits.

    Widths up to 8 bytes are rounded to 1, 2, 4 or 8 so that numpy can pack and unpack them;
    wider slots keep their exact size, which keeps the big-integer products small.
    """
    nbytes = max(1, (bound.bit_length() + 7) // 8)
    for w in (1, 2, 4, 8):
        if nbytes <= w:
            return w
    return nbytes


def pack(coeffs: Sequence[int], width: int) -> int:
    """Pack non-negative coefficients (lowest power first) into one integer."""
    dtype = _NUMPY_DTYPES.get(width)
    if dtype is not None:
        return int.from_bytes(np.array(coeffs, dtype=dtype).tobytes(), "little")
    return int.from_bytes(b"".join(c.to_bytes(width, "little") for c in coeffs), "little")


def unpack(value: int, width: int, count: int) -> list[int]:
    """The first ``count`` coefficients of a packed polynomial (lowest power first)."""
    buf = value.to_bytes(width * count, "little")
    dtype = _NUMPY_DTYPES.get(width)
    if dtype is not None:
        out: list[int] = np.frombuffer(buf, dtype=dtype).tolist()
        return out
    limbs = (width + 7) // 8
    if limbs <= _MAX_NUMPY_LIMBS:
        # Split every slot into 64-bit limbs with numpy, then join the limbs in Python.
        raw = np.frombuffer(buf, dtype=np.uint8).reshape(count, width)
        padded = np.zeros((count, 8 * limbs), dtype=np.uint8)
        padded[:, :width] = raw
        words = padded.view(np.uint64)
        result: list[int] = words[:, 0].tolist()
        for i in range(1, limbs):
            shift = 64 * i
            column: list[int] = words[:, i].tolist()
            result = [r | (c << shift) for r, c in zip(result, column, strict=True)]
        return result
    view = memoryview(buf)
    return [int.from_bytes(view[i : i + width], "little") for i in range(0, width * count, width)]
