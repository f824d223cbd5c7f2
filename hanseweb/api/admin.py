from django.contrib import admin

from .models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "hint", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "user__email", "hint")
    readonly_fields = ("user", "name", "hint", "created_at", "last_used_at", "revoked_at")

    def has_add_permission(self, request):  # tokens are made by their owner, on the profile page
        return False
