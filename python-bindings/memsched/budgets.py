"""Memory budgets as Python values and as ``budget=`` pass options.

``normalize`` turns what a user writes into the one spelling the passes
parse (docs/budget.md): ``12884901888B``, ``12GiB``, ``12GB``, ``12e9``,
``0.5x`` or ``min``, with no spaces, so that the value can stand in a
textual pass pipeline. It refuses, with a ``ValueError`` that says what is
accepted, anything the passes would refuse or, worse, read as something else
(a bare ``0.8`` is not 0 bytes: write ``"0.8x"``).
"""

import math
import numbers
import re

__all__ = ["normalize", "bytes_of", "ACCEPTED"]

# Units are read case-insensitively, as the passes do: budgets are bytes,
# never bits.
_SCALES = {"": 1, "b": 1, "kb": 1000, "mb": 1000**2, "gb": 1000**3,
           "tb": 1000**4, "kib": 1024, "mib": 1024**2, "gib": 1024**3,
           "tib": 1024**4}

ACCEPTED = ("accepted: bytes (12884901888, '12e9'), a size with a unit "
            "('12GiB', '12 GiB', '512MiB', '12GB'; B, KB, MB, GB, TB, KiB, "
            "MiB, GiB, TiB), a fraction of the planned bytes before "
            "memsched ('0.5x') or 'min'")

_FORM = re.compile(r"(?P<number>[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|"
                   r"[0-9]+\.(?:[eE][+-]?[0-9]+)?)\s*(?P<unit>[A-Za-z]*)")


def _not_whole(shown, number):
    return ValueError("budget %s is not a whole number of bytes; write "
                      "'%sx' for a fraction of the planned bytes (or give "
                      "a unit, e.g. '%sGiB')" % (shown, number, number))


def normalize(budget):
    """The ``budget=`` option value for ``budget``, or ``None`` for ``None``.

    ``budget`` is an int (bytes), a float that is a whole number of bytes
    (``12e9``), or a string: ``"12GiB"``, ``"12 GiB"``, ``"12GB"``
    (decimal), ``"12e9"``, ``"4096B"``, ``"0.5x"`` (a fraction of the
    planned bytes before memsched rewrote the function) or ``"min"`` (the
    smallest footprint the allowed levers reach). Raises ``ValueError``
    naming the accepted forms otherwise; a bare fraction (``0.8`` or
    ``"0.8"``) is refused with a hint to write ``"0.8x"``.
    """
    if budget is None:
        return None
    if isinstance(budget, bool):
        raise ValueError("budget %r is not a budget; %s" % (budget, ACCEPTED))
    if isinstance(budget, numbers.Integral):
        if budget < 0:
            raise ValueError("budget %d is negative; %s" % (budget, ACCEPTED))
        return "%dB" % budget
    if isinstance(budget, numbers.Real):
        value = float(budget)
        if not math.isfinite(value) or value < 0:
            raise ValueError("budget %r is not a budget; %s"
                             % (budget, ACCEPTED))
        if value != math.floor(value):
            raise _not_whole("%g" % value, "%g" % value)
        return "%dB" % int(value)
    if not isinstance(budget, str):
        raise ValueError("budget %r (a %s) is not a budget; %s" %
                         (budget, type(budget).__name__, ACCEPTED))
    text = budget.strip()
    if text.lower() == "min":
        return "min"
    match = _FORM.fullmatch(text)
    if not match:
        raise ValueError("'%s' is not a budget; %s" % (budget, ACCEPTED))
    number, unit = match.group("number"), match.group("unit")
    value = float(number)
    if unit.lower() == "x":
        return number + "x"
    if unit.lower() not in _SCALES:
        raise ValueError("unknown budget unit '%s' in '%s'; %s"
                         % (unit, budget, ACCEPTED))
    if not unit and value != math.floor(value):
        raise _not_whole("'%s'" % budget, number)
    if value * _SCALES[unit.lower()] >= 9.2e18:
        raise ValueError("budget '%s' is too large" % budget)
    return number + unit


def bytes_of(budget):
    """The bytes of an absolute budget as ``normalize`` spells it
    (``"12GiB"`` -> 12884901888, rounded down as the passes read it);
    None for ``"min"``, fractions and None."""
    if budget is None or budget == "min" or budget.endswith("x"):
        return None
    match = _FORM.fullmatch(budget)
    return int(float(match.group("number")) *
               _SCALES[match.group("unit").lower()])
