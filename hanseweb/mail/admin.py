from django.contrib import admin

from .models import InboundEmail, OutboundEmail


class DeliveryFilter(admin.SimpleListFilter):
    """Where a mail stands: the operator's view after an ESP outage (also ``manage.py mail_status``)."""
    title = "delivery"
    parameter_name = "delivery"

    def lookups(self, request, model_admin):
        return [("waiting", "waiting"), ("delayed", "delayed (a failed attempt)"), ("failed", "failed (given up)"),
                ("obsolete", "obsolete (given up)"), ("duplicates", "possible duplicates"), ("sent", "sent")]

    def queryset(self, request, queryset):
        unsent = {"sent_at__isnull": True, "given_up_at__isnull": True}
        return {
            "waiting": lambda: queryset.filter(**unsent),
            "delayed": lambda: queryset.filter(**unsent, attempts__gt=0),
            "failed": lambda: queryset.filter(given_up_reason=OutboundEmail.FAILED),
            "obsolete": lambda: queryset.filter(given_up_reason=OutboundEmail.OBSOLETE),
            "duplicates": lambda: queryset.filter(possible_duplicates__gt=0),
            "sent": lambda: queryset.filter(sent_at__isnull=False),
        }.get(self.value(), lambda: queryset)()


@admin.register(OutboundEmail)
class OutboundEmailAdmin(admin.ModelAdmin):
    list_display = ["created_at", "kind", "to", "subject", "delivery", "attempts", "next_attempt_at",
                    "possible_duplicates", "last_error_start"]
    list_filter = [DeliveryFilter, "kind"]
    search_fields = ["to", "subject", "message_id"]
    readonly_fields = [f.name for f in OutboundEmail._meta.fields]

    def has_add_permission(self, request):
        return False

    @admin.display(description="delivery")
    def delivery(self, obj):
        if obj.sent_at:
            return f"sent {obj.sent_at:%Y-%m-%d %H:%M}"
        if obj.given_up_at:
            return f"{obj.given_up_reason} (given up {obj.given_up_at:%Y-%m-%d %H:%M})"
        if obj.sending_since:
            return "being sent"
        return "delayed" if obj.attempts else "waiting"

    @admin.display(description="last error")
    def last_error_start(self, obj):
        return obj.last_error[:120]


@admin.register(InboundEmail)
class InboundEmailAdmin(admin.ModelAdmin):
    list_display = ["received_at", "sender", "subject", "status", "repeat_of", "spam_detected", "processed_at"]
    list_filter = ["status", "esp", "spam_detected"]
    search_fields = ["sender", "subject", "outcome"]
    exclude = ["raw"]
    readonly_fields = [f.name for f in InboundEmail._meta.fields if f.name != "raw"] + ["raw_size", "raw_start"]

    @admin.display(description="raw size (bytes)")
    def raw_size(self, obj):
        return len(obj.raw or b"")

    @admin.display(description="raw post (start, bytes that are not UTF-8 shown as \\x..)")
    def raw_start(self, obj):
        return bytes(obj.raw or b"")[:4000].decode("utf-8", "backslashreplace").replace("\x00", "\\x00")

    def has_add_permission(self, request):
        return False
