"""The entries of a Berkeley DB hash file, read without Berkeley DB.

ROUGE-1.5.5.pl reads WordNet's exceptions from ``WordNet-2.0.exc.db``, which
``buildExeptionDB.pl`` writes through Perl's ``DB_File`` (``$DB_HASH``).
Python's standard library has no reader for it (``bsddb`` left with Python
3), so this module reads the file format itself: the hash access method of
Berkeley DB 3.x to 18.x (hash versions 7 to 10), either byte order.

The file is a sequence of pages of one size.  Page 0 is the metadata page
(magic ``0x061561``, the version, the page size); every bucket page
(``P_HASH`` or ``P_HASH_UNSORTED``) holds an offset table, after a 26-byte
header, of alternating key and data items stored from the page's end
downward; an item is one type byte followed by its bytes (``H_KEYDATA``), or
points to a chain of overflow pages (``H_OFFPAGE``).  A hash holds each key
once, so the entries are the mapping the database holds, whatever order its
builder wrote them in.  Sorted duplicates (``H_OFFDUP``, ``H_DUPLICATE``) are
not written by ``DB_File``'s plain hash and are refused.
"""

from __future__ import annotations

import struct
from pathlib import Path

__all__ = ["BerkeleyError", "read_hash"]

_MAGIC = 0x061561
_VERSIONS = range(7, 11)
_HEADER = 26  # lsn 8, pgno 4, prev 4, next 4, entries 2, hf_offset 2, level 1, type 1
_P_HASH_UNSORTED, _P_OVERFLOW, _P_HASHMETA, _P_HASH = 2, 7, 8, 13
_H_KEYDATA, _H_OFFPAGE = 1, 3


class BerkeleyError(ValueError):
    """The file is not a Berkeley DB hash file this reader knows."""


def read_hash(path: Path) -> dict[bytes, bytes]:
    """Every key and its data in the hash database at ``path``."""
    data = path.read_bytes()
    order = _byte_order(data)
    version, pagesize = struct.unpack_from(order + "II", data, 16)
    if version not in _VERSIONS:
        raise BerkeleyError(f"hash version {version} (this reader knows 7 to 10)")
    if pagesize < 512 or pagesize & (pagesize - 1) or len(data) % pagesize:
        raise BerkeleyError(f"a page size of {pagesize} bytes in a file of {len(data)}")
    if data[24] or data[26] & 1:  # encrypt_alg, and metaflags' DBMETA_CHKSUM
        raise BerkeleyError("an encrypted or checksummed database")
    table: dict[bytes, bytes] = {}
    for start in range(pagesize, len(data), pagesize):
        page = memoryview(data)[start : start + pagesize]
        if page[25] in (_P_HASH, _P_HASH_UNSORTED):
            items = _items(page, order, pagesize)
            if len(items) % 2:
                raise BerkeleyError(f"page {start // pagesize} holds a key without data")
            for key, value in zip(items[::2], items[1::2]):
                table[_item(key, data, order, pagesize)] = _item(value, data, order, pagesize)
    return table


def _byte_order(data: bytes) -> str:
    if len(data) < 512:
        raise BerkeleyError("shorter than a metadata page")
    for order in ("<", ">"):
        (magic,) = struct.unpack_from(order + "I", data, 12)
        if magic == _MAGIC and data[25] == _P_HASHMETA:
            return order
    raise BerkeleyError("no hash metadata page (not a Berkeley DB hash file)")


def _items(page: memoryview, order: str, pagesize: int) -> list[memoryview]:
    """A bucket page's items, in its offset table's order."""
    (count,) = struct.unpack_from(order + "H", page, 20)
    offsets = struct.unpack_from(order + f"{count}H", page, _HEADER)
    items, end = [], pagesize
    for offset in offsets:
        if not _HEADER + 2 * count <= offset < end:
            raise BerkeleyError(f"an item at offset {offset} of a {pagesize}-byte page")
        items.append(page[offset:end])
        end = offset
    return items


def _item(item: memoryview, data: bytes, order: str, pagesize: int) -> bytes:
    kind = item[0]
    if kind == _H_KEYDATA:
        return bytes(item[1:])
    if kind == _H_OFFPAGE:
        pgno, length = struct.unpack_from(order + "II", item, 4)
        return _overflow(data, order, pagesize, pgno, length)
    raise BerkeleyError(f"an item of type {kind} (duplicates are not read)")


def _overflow(data: bytes, order: str, pagesize: int, pgno: int, length: int) -> bytes:
    """The ``length`` bytes stored on the chain of overflow pages from ``pgno``."""
    pieces, left, seen = [], length, set()
    while left > 0:
        start = pgno * pagesize
        if pgno in seen or start + pagesize > len(data) or data[start + 25] != _P_OVERFLOW:
            raise BerkeleyError(f"a broken overflow chain at page {pgno}")
        seen.add(pgno)
        (next_pgno,) = struct.unpack_from(order + "I", data, start + 16)
        (used,) = struct.unpack_from(order + "H", data, start + 22)
        pieces.append(data[start + _HEADER : start + _HEADER + min(used, left)])
        left -= used
        pgno = next_pgno
    return b"".join(pieces)
