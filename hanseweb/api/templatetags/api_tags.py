from django import template

from ..models import ApiToken

register = template.Library()


@register.inclusion_tag("api/_tokens.html", takes_context=True)
def api_tokens(context):
    """The profile page's section of API tokens: the account's tokens and the form for a new one."""
    user = context["user"]
    return {"tokens": ApiToken.objects.filter(user=user), "csrf_token": context.get("csrf_token"),
            "form_name_max": 60}
