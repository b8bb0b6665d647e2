"""A digest of plain values (tuples, lists, dicts, strings, numbers, dates, dataclasses of them) that depends on
the values only.

``pickle.dumps`` is not such a digest: it writes an object met twice as a reference to the first time, so two
equal values give different bytes when one shares a string where the other holds two equal copies. A page made
from a note loaded from the build cache and the same page made from a note just parsed (or from the opinions
reflect handed over) then got different keys, and the page was made again for nothing. Pickled without its memo
(``Pickler.fast``) a value is written the same way whatever it shares, and faster. Values must be trees: a value
that holds itself cannot be written so (pickle raises).
"""

from __future__ import annotations

import hashlib
import io
import pickle


def value_digest(value: object) -> str:
    """128-bit hex digest of ``value``: equal values (of the same types, dicts in the same order) give equal ones."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True  # no memo: see the module's note
    pickler.dump(value)
    return hashlib.blake2b(buffer.getbuffer(), digest_size=16).hexdigest()
