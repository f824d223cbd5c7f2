"""Admin for clubs and leagues. Seasons are run through the organiser pages and
``hanseweb.leagues.services``; the admin is for looking and small corrections. The organiser log
is read-only."""
from django.contrib import admin

from . import models


class MembershipInline(admin.TabularInline):
    model = models.Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(models.Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_by", "created_at"]
    prepopulated_fields = {"slug": ["name"]}
    raw_id_fields = ["created_by"]
    inlines = [MembershipInline]


@admin.register(models.ClubInvite)
class ClubInviteAdmin(admin.ModelAdmin):
    list_display = ["club", "code", "created_by", "expires"]
    raw_id_fields = ["created_by"]


@admin.register(models.League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "engine", "table_size", "rated"]


class DivisionInline(admin.TabularInline):
    model = models.Division
    extra = 0


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["__str__", "league", "number", "status", "starts_at", "rounds"]
    list_filter = ["status"]
    readonly_fields = ["plan"]
    inlines = [DivisionInline]


@admin.register(models.Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["user", "season", "division", "status", "seed_rating"]
    list_filter = ["status"]
    raw_id_fields = ["user"]


@admin.register(models.Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["season", "number", "starts_at", "created_at"]


@admin.register(models.Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "division", "index", "game", "seat_order"]
    readonly_fields = ["round", "division", "index", "game", "seat_order"]


@admin.register(models.OrganiserAction)
class OrganiserActionAdmin(admin.ModelAdmin):
    list_display = ["at", "club", "season", "actor", "action"]
    readonly_fields = ["club", "season", "actor", "action", "details", "at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["user", "engine", "mu", "sigma", "games"]
    list_filter = ["engine"]
    raw_id_fields = ["user"]
    readonly_fields = ["mu", "sigma", "games"]
