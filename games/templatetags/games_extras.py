import datetime

from django import template
from django.utils import dateformat
from django.utils.dates import MONTHS_3, WEEKDAYS_ABBR
from django.utils.html import format_html
from django.utils.timezone import template_localtime
from django.utils.translation import gettext

register = template.Library()


@register.filter
def goods_tile(tile: str):
    """'orange/2' -> a coloured chip showing the barrel value (Hansa goods tiles)."""
    colour, _sep, value = str(tile).partition("/")
    title = gettext("%(colour)s tile, %(barrels)s barrel(s)") % {"colour": term(colour), "barrels": value}
    return format_html('<span class="tile tile-{}" title="{}">{}</span>', colour, title, value)


@register.filter
def get_item(mapping, key):
    try:
        return mapping.get(key) if hasattr(mapping, "get") else mapping[int(key)]
    except (KeyError, IndexError, TypeError, ValueError):
        return None


@register.filter
def name_of(key, items):
    """The 'name' of the item whose 'id' is ``key`` in a list of dicts (e.g. a view's cities)."""
    for item in items or []:
        if item.get("id") == key:
            return item.get("name", key)
    return key


@register.filter
def term(value):
    """A game term from an engine's view (a good, a colour, a city, a card) in the page's
    language: through the catalogue when it has the term, else as it is (docs/i18n.md)."""
    from games.presentation import tr

    return tr(str(value)) if value not in (None, "") else value


@register.filter
def terms(values):
    """``term`` for each item of a list."""
    return [term(v) for v in values or []]


@register.filter
def log_time(value):
    """``value|date:"j M H:i"`` ("24 Nov 07:15", in the active time zone and language), the way
    log and chat lines show when they were made, at a fraction of the date filter's cost (a game
    page shows up to 40 such lines, made afresh after each move)."""
    if not isinstance(value, datetime.datetime):
        return ""
    value = template_localtime(value)
    fmt = gettext("j M H:i")  # the language's own way: "24 nov 07:15" in Dutch, "24. Nov 07:15" in German
    fast = _LOG_TIME.get(fmt)
    if fast is None:
        return dateformat.format(value, fmt)
    return fast(value, str(MONTHS_3[value.month]), f"{value.hour:02d}:{value.minute:02d}")


_LOG_TIME = {  # the formats of the catalogues, written out without the date filter's parser
    "j M H:i": lambda v, month, hm: f"{v.day} {month.title()} {hm}",
    "j b H:i": lambda v, month, hm: f"{v.day} {month.lower()} {hm}",
    "j. M H:i": lambda v, month, hm: f"{v.day}. {month.title()} {hm}",
}


def deadline_text(value) -> str:
    """``value|date:_("D j M, H:i e")`` ("Thu 26 Nov, 19:00 UTC"; ``value`` already in the
    reader's zone), how lists show a deadline, without the date filter's parser (the lobby shows
    one a running game)."""
    fmt = gettext("D j M, H:i e")
    fast = _DEADLINE.get(fmt)
    if fast is None:
        return dateformat.format(value, fmt)
    # the date filter names no zone for a local time that is ambiguous (the hour a DST change repeats)
    ambiguous = value.replace(fold=not value.fold).utcoffset() != value.utcoffset()
    return fast(value, str(WEEKDAYS_ABBR[value.weekday()]), str(MONTHS_3[value.month]),
                f"{value.hour:02d}:{value.minute:02d}", "" if ambiguous else value.tzname() or "")


_DEADLINE = {  # the formats of the catalogues (en, nl, de), written out
    "D j M, H:i e": lambda v, day, month, hm, zone: f"{day} {v.day} {month.title()}, {hm} {zone}",
    "D j b, H:i e": lambda v, day, month, hm, zone: f"{day} {v.day} {month}, {hm} {zone}",
    "D, j. M, H:i e": lambda v, day, month, hm, zone: f"{day}, {v.day}. {month.title()}, {hm} {zone}",
}


@register.filter
def day_date(value):
    """``value|date:_("j M Y")`` ("24 Nov 2026", the day in the active time zone and language) at a
    fraction of the date filter's cost, as ``log_time``."""
    return day_dates()(value)


def day_dates():
    """``day_date`` for the many dates of a list: the language's format is looked up once."""
    fmt = gettext("j M Y")
    fast = _DAY_DATE.get(fmt)

    def one(value) -> str:
        if not isinstance(value, datetime.datetime):
            return ""
        value = template_localtime(value)
        return dateformat.format(value, fmt) if fast is None else fast(value, str(MONTHS_3[value.month]))

    return one


_DAY_DATE = {
    "j M Y": lambda v, month: f"{v.day} {month.title()} {v.year}",
    "j b Y": lambda v, month: f"{v.day} {month.lower()} {v.year}",
    "j. M Y": lambda v, month: f"{v.day}. {month.title()} {v.year}",
}


def time_left_text(value, now=None) -> str:
    """The time until ``value`` in words: "2 days 3 h left", "5 h 20 min left", "12 min left",
    or "time is up" (issue 24 item 6)."""
    if not isinstance(value, datetime.datetime):
        return ""
    return time_left_texts([value], now)[0]


def time_left_texts(values, now=None) -> list[str]:
    """``time_left_text`` of each of ``values`` (datetimes), each catalogue text asked once (a
    lobby fills in dozens of them as it is served)."""
    from django.utils import timezone
    from django.utils.translation import ngettext

    now = now or timezone.now()
    texts: dict = {}
    made = []
    for value in values:
        seconds = (value - now).total_seconds()
        if seconds <= 0:
            made.append(texts.get("up") or texts.setdefault("up", gettext("time is up")))
            continue
        minutes = int(seconds // 60)
        days, rest = divmod(minutes, 24 * 60)
        hours, minutes = divmod(rest, 60)
        if days:
            text = texts.get(days) or texts.setdefault(days, ngettext(
                "%(days)d day %(hours)d h left", "%(days)d days %(hours)d h left", days))
            made.append(text % {"days": days, "hours": hours})
        elif hours:
            text = texts.get("h") or texts.setdefault("h", gettext("%(hours)d h %(minutes)d min left"))
            made.append(text % {"hours": hours, "minutes": minutes})
        else:
            text = texts.get("m") or texts.setdefault("m", gettext("%(minutes)d min left"))
            made.append(text % {"minutes": max(minutes, 1)})
    return made


@register.filter
def time_left(value):
    return time_left_text(value)


@register.filter
def game_name(slug):
    """A game title's slug (``hansa-teutonica``) as the name its box prints (``Hansa Teutonica``)."""
    from games.engines import get_engine

    try:
        return get_engine(str(slug)).name
    except KeyError:
        return slug
