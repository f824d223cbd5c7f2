"""A cached page's exact version (``hanseweb.pagecache``) read in one round trip (issue 26).

A page's version is a digest of the plain values of everything it shows, each part given as a
values-list queryset (the same filters, order and limits as the page's own reads, without the
columns that never change after a row is made). On PostgreSQL the parts are digested by the
database in one statement, one scalar subquery each (``md5`` over the rows' text, which is what
travels back: a few bytes per part however many rows it covers); elsewhere each part is read and
digested here (one query each: the embedded default has no shared cache, so no page is kept).

A repeated view is little more than this statement, so ``digest_of`` makes its SQL once per
process (building and compiling the querysets cost more than PostgreSQL spends running it).
"""
from __future__ import annotations

import hashlib
from typing import Callable

from django.db import connection

# Stand-ins for a page's own values (a viewer's id, a player's id) while its statement is made:
# numbers no row has, found again among the statement's parameters and replaced.
_SENTINEL = -7_310_000_001
_made: dict = {}


def digest(*parts) -> tuple:
    """One value per part (a values-list queryset), equal again only when every part's rows are."""
    if connection.vendor == "postgresql":
        sql, params = _statement(parts)
        return _run(sql, params)
    return tuple(hashlib.blake2b(repr(sorted(map(repr, part))).encode(), digest_size=12).hexdigest() for part in parts)


def digest_of(build: Callable, *values: int) -> tuple:
    """``digest(*build(*values))`` with ``build``'s statement made once per process: ``build`` (a
    module-level function) takes only ids (ints) and returns the parts; the shape of its SQL must
    not depend on their values."""
    if connection.vendor != "postgresql":
        return digest(*build(*values))
    made = _made.get(build)
    if made is None:
        stand_ins = [_SENTINEL - i for i in range(len(values))]
        sql, params = _statement(build(*stand_ins))
        made = _made[build] = (sql, params, stand_ins)
    sql, params, stand_ins = made
    given = dict(zip(stand_ins, values))
    return _run(sql, [given.get(p, p) if type(p) is int else p for p in params])


def _statement(parts) -> tuple[str, list]:
    selects, params = [], []
    for part in parts:
        sql, part_params = part.query.sql_with_params()
        # the rows in their text form, in a fixed order (a page's order comes from the values it
        # is read by, which are among the part's columns when they can change)
        selects.append(f"(SELECT md5(coalesce(string_agg(t::text, ';' ORDER BY t::text), '')) || ':' || count(*)"
                       f" FROM ({sql}) t)")
        params.extend(part_params)
    return "SELECT " + ", ".join(selects), params


def _run(sql: str, params: list) -> tuple:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return tuple(cursor.fetchone())
