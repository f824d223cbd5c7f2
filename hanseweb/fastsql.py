"""Lean single-row statements for the hot write path (a move, a queued mail).

For Django's ORM, compiling a statement (``QuerySet`` → SQL) costs more CPU than PostgreSQL
spends running it: a move is five small statements, and players wait for it. These helpers make
each statement's SQL once per process (per model and column list) from the model's metadata and
prepare values exactly as the ORM does (``Field.pre_save`` and ``get_db_prep_save``: JSON, dates,
defaults), so the rows are the same as ``save()`` would write.

What they skip: model signals (``pre_save``/``post_save``; no app connects any to these models)
and ``Model.save`` overrides (callers use them only where a plain insert or update is meant).

Round trips: on PostgreSQL, ``batched()`` sends the inserts and updates made inside it together,
in one round trip, just before the next other statement (or with it, for ``exists``) or when it
ends; ``select_models`` reads several statements' rows in one round trip. A move waits on the
database three times (BEGIN, the lock read, one batch of writes with the COMMIT) instead of twelve.
"""
from __future__ import annotations

import contextlib
import functools
import threading

from django.db import connection

_local = threading.local()


def can_batch() -> bool:
    """Several statements in one ``execute``: PostgreSQL with psycopg's client-side binding (the
    default cursor; not with the ``server_side_binding`` option)."""
    return connection.vendor == "postgresql" and not connection.settings_dict["OPTIONS"].get("server_side_binding")


def _pending() -> dict | None:
    return getattr(_local, "batch", None)


@contextlib.contextmanager
def batched(*, commit: bool = False):
    """Inside, ``insert`` and ``update`` are kept and sent together: just before any other
    statement runs on this connection (so a read always sees them), or at the end. Several
    updates of one row become one. An inserted object has its primary key from then on. Use it
    inside the transaction (it ends before the commit, or with it: ``commit``); on an error the
    kept statements are dropped with the transaction. Elsewhere than PostgreSQL it changes nothing.

    ``commit``: the caller's outermost transaction ends right after this block, with nothing in
    between (``with transaction.atomic(), batched(commit=True):``). Its COMMIT is then sent
    with the last writes, in the same round trip, when nothing can still roll the transaction
    back (the outermost atomic block, no savepoint, not marked for rollback); the atomic block
    finds the transaction committed (psycopg sends no COMMIT on an idle connection), and runs
    its ``on_commit`` hooks as usual. If the COMMIT fails, the error is raised here and the
    atomic block rolls back as for any error."""
    if _pending() is not None or not can_batch():
        yield
        return
    _local.batch = {}
    try:
        with connection.execute_wrapper(_send_pending_first):
            yield
            if commit and _pending() and _commit_is_next():
                flush("COMMIT").close()
            else:
                flush()
    finally:
        _local.batch = None


def _commit_is_next() -> bool:
    """The transaction in progress is the outermost atomic block's, which will commit it when it
    ends (so committing it now changes only when)."""
    return (len(connection.atomic_blocks) == 1 and not connection.savepoint_ids and connection.commit_on_exit
            and not connection.needs_rollback and not connection.closed_in_transaction)


def _send_pending_first(execute, sql, params, many, context):
    if _pending():
        flush()
    return execute(sql, params, many, context)


def flush(then: str | None = None, params=()):
    """Send what ``batched`` kept (with the statement ``then`` last, in the same round trip);
    returns the cursor positioned at ``then``'s result, or None."""
    batch = _pending()
    items = list(batch.values()) if batch else []
    if batch:
        batch.clear()
    if not items and then is None:
        return None
    parts, values = [], []
    for kind, obj, extra in items:
        if kind == "insert":
            parts.append(_insert_sql(type(obj))[0])
            values.extend(extra)
        elif kind == "insert_first":
            parts.append(_insert_first_sql(type(obj), extra[0]))
            values.extend(extra[1])
        else:
            assignments = tuple(extra.items())
            parts.append(_update_sql(type(obj), assignments))
            values.extend(_update_params(obj, assignments))
    if then is not None:
        parts.append(then)
        values.extend(params)
    cursor = connection.cursor()
    try:
        cursor.execute(";\n".join(parts), values)
        for i, (kind, obj, extra) in enumerate(items):
            if i:
                cursor.nextset()
            if kind == "insert":
                _inserted(obj, cursor.fetchone()[0])
            elif kind == "insert_first":
                _inserted_first(obj, extra[2], *cursor.fetchone())
    except BaseException:
        cursor.close()
        raise
    if then is None:
        cursor.close()
        return None
    if items:
        cursor.nextset()
    return cursor


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


def insert(obj, *, now: bool = False):
    """Insert the unsaved model instance ``obj`` (all its concrete fields, defaults and
    ``auto_now_add`` applied as by ``save()``); sets its primary key (inside ``batched``, when
    it is sent, unless ``now``). Returns ``obj``."""
    sql, fields = _insert_sql(type(obj))
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    batch = _pending()
    if batch is not None and not now:
        batch[("insert", id(obj))] = ("insert", obj, params)
        return obj
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        pk = cursor.fetchone()[0] if connection.features.can_return_columns_from_insert else cursor.lastrowid
    return _inserted(obj, pk)


def insert_first(obj, unique: str, otherwise: dict):
    """Insert ``obj``, or, when a row with its value of the unique column ``unique`` exists
    already (or is inserted by a concurrent transaction meanwhile), ``obj`` changed by
    ``otherwise`` (field name -> value; it must give ``unique`` a new value): one statement, no
    savepoint, batched like ``insert``. ``obj`` ends up as the row inserted. PostgreSQL only
    (``can_batch``). E.g. the first mail of a thread takes the thread's Message-ID, later ones
    their own with a reference to it."""
    model = type(obj)
    _sql, fields = _insert_sql(model)
    first = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    other_obj = model(**{f.attname: getattr(obj, f.attname) for f in fields})
    for name, value in otherwise.items():
        setattr(other_obj, name, value)
    other = [f.get_db_prep_save(f.pre_save(other_obj, True), connection) for f in fields]
    params = first + other
    batch = _pending()
    if batch is not None:
        batch[("insert", id(obj))] = ("insert_first", obj, (unique, params, otherwise))
        return obj
    with connection.cursor() as cursor:
        cursor.execute(_insert_first_sql(model, unique), params)
        return _inserted_first(obj, otherwise, *cursor.fetchone())


def _inserted_first(obj, otherwise: dict, pk, was_first: bool):
    if not was_first:
        for name, value in otherwise.items():
            setattr(obj, name, value)
    return _inserted(obj, pk)


@functools.cache
def _insert_first_sql(model, unique: str) -> str:
    _sql, fields = _insert_sql(model)
    table, pk = _quote(model._meta.db_table), _quote(model._meta.pk.column)
    columns = ", ".join(_quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    typed = ", ".join(f"%s::{f.db_type(connection)}" for f in fields)  # a SELECT list has no target types
    return (f"WITH first AS (INSERT INTO {table} ({columns}) VALUES ({marks}) "
            f"ON CONFLICT ({_quote(model._meta.get_field(unique).column)}) DO NOTHING RETURNING {pk}), "
            f"other AS (INSERT INTO {table} ({columns}) SELECT {typed} "
            f"WHERE NOT EXISTS (SELECT 1 FROM first) RETURNING {pk}) "
            f"SELECT {pk}, true FROM first UNION ALL SELECT {pk}, false FROM other")


def _inserted(obj, pk):
    obj.pk = pk
    obj._state.adding, obj._state.db = False, connection.alias
    return obj


@functools.cache
def _update_sql(model, assignments: tuple[tuple[str, str | None], ...]) -> str:
    def column(name):
        return _quote(model._meta.get_field(name).column)

    made = ", ".join(f"{column(n)} = {column(source) if source else '%s'}" for n, source in assignments)
    return f"UPDATE {_quote(model._meta.db_table)} SET {made} WHERE {_quote(model._meta.pk.column)} = %s"


def update(obj, names, copied: dict[str, str] | None = None) -> None:
    """``obj.save(update_fields=names)`` for a saved instance (the row must exist). Inside
    ``batched`` the values are read from ``obj`` when the statement is sent.

    ``copied``: fields set to another field's value as the row holds it before this statement
    (``{"undo_state": "state_cache"}``: SET undo_state = state_cache), so a value the row has
    already is neither encoded nor sent again. The caller must know the row still holds it."""
    assignments = {**dict.fromkeys(names), **(copied or {})}
    batch = _pending()
    if batch is not None:
        key = ("update", type(obj), obj.pk)
        kept = batch.get(key)
        if kept is None:
            batch[key] = ("update", obj, assignments)
        else:
            kept[2].update(assignments)
        return
    assignments = tuple(assignments.items())
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(type(obj), assignments), _update_params(obj, assignments))


def _update_params(obj, assignments) -> list:
    fields = [obj._meta.get_field(n) for n, source in assignments if not source]
    return [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields] + [obj.pk]


@functools.cache
def _exists_sql(model, name: str) -> str:
    return (f"SELECT 1 FROM {_quote(model._meta.db_table)} "
            f"WHERE {_quote(model._meta.get_field(name).column)} = %s LIMIT 1")


def exists(model, name: str, value) -> bool:
    """Whether a row of ``model`` has ``name`` = ``value`` (inside ``batched``: sent with the
    kept statements, in one round trip)."""
    if _pending():
        cursor = flush(_exists_sql(model, name), [value])
        with cursor:
            return cursor.fetchone() is not None
    with connection.cursor() as cursor:
        cursor.execute(_exists_sql(model, name), [value])
        return cursor.fetchone() is not None


def select_models(statements: list[tuple]) -> list[list]:
    """Model instances of several ``(model, exclude, sql, params)`` reads, in one round trip where the
    database takes several statements at once (``can_batch``), else one each; in order, so a
    read after a ``FOR UPDATE`` sees what was committed before the lock was granted. Each
    ``sql`` selects the model's concrete columns but ``exclude`` (``columns(model, exclude)``), in
    that order; the excluded fields are left deferred on the instances."""
    results = []
    if can_batch():
        cursor = flush(";\n".join(sql for _m, _e, sql, _p in statements),
                       [p for _m, _e, _sql, params in statements for p in params])
        with cursor:
            for i, (model, exclude, _sql, _params) in enumerate(statements):
                if i:
                    cursor.nextset()
                results.append(_built(model, tuple(exclude), cursor.fetchall()))
        return results
    with connection.cursor() as cursor:
        for model, exclude, sql, params in statements:
            cursor.execute(sql, params)
            results.append(_built(model, tuple(exclude), cursor.fetchall()))
    return results


def columns(model, exclude: tuple = ()) -> str:
    """The quoted column list ``select_models`` expects of ``model`` (without ``exclude``: field
    names left deferred on the instances)."""
    return ", ".join(_quote(f.column) for f in _read_fields(model, tuple(exclude)))


@functools.cache
def _read_fields(model, exclude: tuple) -> tuple:
    return tuple(f for f in model._meta.concrete_fields if f.name not in exclude)


@functools.cache
def _converters(model, exclude: tuple) -> tuple:
    """Per column, the conversions the ORM applies to a value read (e.g. JSON text to Python)."""
    made = []
    for field in _read_fields(model, exclude):
        col = field.get_col(model._meta.db_table)
        made.append(tuple(connection.ops.get_db_converters(col)) + tuple(field.get_db_converters(connection)))
    return tuple(made)


def _built(model, exclude: tuple, rows) -> list:
    fields = _read_fields(model, exclude)
    names = [f.attname for f in fields]
    converters = _converters(model, exclude)
    made = []
    for row in rows:
        values = list(row)
        for i, convs in enumerate(converters):
            for conv in convs:
                values[i] = conv(values[i], fields[i], connection)
        made.append(model.from_db(connection.alias, names, values))
    return made


@functools.cache
def _compiled(build) -> tuple[str, dict]:
    query = build().query
    compiler = query.get_compiler(connection=connection)
    sql, _params = compiler.as_sql()
    return sql, compiler.get_converters([col for col, _sql, _alias in compiler.select])


def rows(build, params) -> list[tuple]:
    """The rows of the values-list queryset ``build()`` (a module-level function, so its SQL is
    compiled once per process) with ``params`` in place of its parameters, converted as the ORM
    converts them. For the few reads every page view makes."""
    sql, converters = _compiled(build)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    if not converters:
        return found
    made = []
    for row in found:
        row = list(row)
        for i, (convs, expression) in converters.items():
            for conv in convs:
                row[i] = conv(row[i], expression, connection)
        made.append(tuple(row))
    return made
