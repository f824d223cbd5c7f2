from django import template
from django.utils.html import format_html

register = template.Library()


@register.filter
def goods_tile(tile: str):
    """'orange/2' -> a coloured chip showing the barrel value (Hansa goods tiles)."""
    colour, _, value = str(tile).partition("/")
    return format_html('<span class="tile tile-{}" title="{} tile, {} barrel(s)">{}</span>', colour, colour, value, value)


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
