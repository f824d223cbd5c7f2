"""A cached page's exact version (``hanseweb.pagecache``) read in one round trip (issue 26).

A page's version is a digest of the plain values of everything it shows, each part given as a
values-list queryset (the same filters, order and limits as the page's own reads, without the
columns that never change after a row is made). On PostgreSQL the parts are digested by the
database in one statement, one scalar subquery each (``md5`` over the rows' text, which is what
travels back: a few bytes per part however many rows it covers); elsewhere each part is read and
digested here (one query each: the embedded default has no shared cache, so no page is kept).
"""
from __future__ import annotations

import hashlib

from django.db import connection


def digest(*parts) -> tuple:
    """One value per part (a values-list queryset), equal again only when every part's rows are."""
    if connection.vendor == "postgresql":
        selects, params = [], []
        for part in parts:
            sql, part_params = part.query.sql_with_params()
            # the rows in their text form, in a fixed order (a page's order comes from the values
            # it is read by, which are among the part's columns when they can change)
            selects.append(f"(SELECT md5(coalesce(string_agg(t::text, ';' ORDER BY t::text), '')) || ':' || count(*)"
                           f" FROM ({sql}) t)")
            params.extend(part_params)
        with connection.cursor() as cursor:
            cursor.execute("SELECT " + ", ".join(selects), params)
            return tuple(cursor.fetchone())
    return tuple(hashlib.blake2b(repr(sorted(map(repr, part))).encode(), digest_size=12).hexdigest() for part in parts)
