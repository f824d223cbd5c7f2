from django import template

from games.engines import get_engine

from ..models import Rating, RatingChange

register = template.Library()


@register.inclusion_tag("leagues/_ratings.html")
def ratings_of(user, history: int = 10):
    """A player's ratings per game title with their latest changes (for the profile page)."""
    rows = []
    for rating in Rating.objects.filter(user=user).order_by("engine"):
        rows.append({"rating": rating, "name": get_engine(rating.engine).name,
                     "changes": RatingChange.objects.filter(rating=rating).select_related("game")[:history]})
    return {"rows": rows}
