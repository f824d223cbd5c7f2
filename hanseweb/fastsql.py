"""Lean single-row statements for the hot write path (a move, a queued mail).

For Django's ORM, compiling a statement (``QuerySet`` → SQL) costs more CPU than PostgreSQL
spends running it: a move is five small statements, and players wait for it. These helpers make
each statement's SQL once per process (per model and column list) from the model's metadata and
prepare values exactly as the ORM does (``Field.pre_save`` and ``get_db_prep_save``: JSON, dates,
defaults), so the rows are the same as ``save()`` would write.

What they skip: model signals (``pre_save``/``post_save``; no app connects any to these models)
and ``Model.save`` overrides (callers use them only where a plain insert or update is meant).
"""
from __future__ import annotations

import functools

from django.db import connection


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


@functools.cache
def _insert_sql(model) -> tuple[str, tuple]:
    fields = tuple(f for f in model._meta.concrete_fields if f is not model._meta.auto_field)
    columns = ", ".join(_quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {_quote(model._meta.db_table)} ({columns}) VALUES ({marks})"
    if connection.features.can_return_columns_from_insert:
        sql += f" RETURNING {_quote(model._meta.pk.column)}"
    return sql, fields


def insert(obj):
    """Insert the unsaved model instance ``obj`` (all its concrete fields, defaults and
    ``auto_now_add`` applied as by ``save()``); sets its primary key. Returns ``obj``."""
    sql, fields = _insert_sql(type(obj))
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        pk = cursor.fetchone()[0] if connection.features.can_return_columns_from_insert else cursor.lastrowid
    obj.pk = pk
    obj._state.adding, obj._state.db = False, connection.alias
    return obj


@functools.cache
def _update_sql(model, names: tuple[str, ...]) -> str:
    assignments = ", ".join(f"{_quote(model._meta.get_field(n).column)} = %s" for n in names)
    return f"UPDATE {_quote(model._meta.db_table)} SET {assignments} WHERE {_quote(model._meta.pk.column)} = %s"


def update(obj, names) -> None:
    """``obj.save(update_fields=names)`` for a saved instance (the row must exist)."""
    names = tuple(names)
    fields = [obj._meta.get_field(n) for n in names]
    params = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields] + [obj.pk]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(type(obj), names), params)


@functools.cache
def _exists_sql(model, name: str) -> str:
    return (f"SELECT 1 FROM {_quote(model._meta.db_table)} "
            f"WHERE {_quote(model._meta.get_field(name).column)} = %s LIMIT 1")


def exists(model, name: str, value) -> bool:
    """Whether a row of ``model`` has ``name`` = ``value``."""
    with connection.cursor() as cursor:
        cursor.execute(_exists_sql(model, name), [value])
        return cursor.fetchone() is not None
