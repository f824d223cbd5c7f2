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
    list_display = ["received_at", "sender", "subject", "status", "processed_at"]
    list_filter = ["status"]
    search_fields = ["sender", "subject", "outcome"]
    readonly_fields = [f.name for f in InboundEmail._meta.fields]

    def has_add_permission(self, request):
        return False
