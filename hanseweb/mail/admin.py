from django.contrib import admin

from .models import InboundEmail, OutboundEmail


@admin.register(OutboundEmail)
class OutboundEmailAdmin(admin.ModelAdmin):
    list_display = ["created_at", "kind", "to", "subject", "sent_at", "attempts"]
    list_filter = ["kind", ("sent_at", admin.EmptyFieldListFilter)]
    search_fields = ["to", "subject"]
    readonly_fields = [f.name for f in OutboundEmail._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(InboundEmail)
class InboundEmailAdmin(admin.ModelAdmin):
    list_display = ["received_at", "sender", "subject", "status", "spam_detected", "processed_at"]
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
