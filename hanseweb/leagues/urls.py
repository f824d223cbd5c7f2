from django.urls import path

from . import feeds, views

app_name = "leagues"

urlpatterns = [
    path("clubs/", views.clubs, name="clubs"),
    path("clubs/new/", views.create_club, name="create_club"),
    path("clubs/join/<slug:code>/", views.join, name="join"),
    path("clubs/<slug:slug>/", views.club, name="club"),
    path("clubs/<slug:slug>/invite/", views.invite, name="invite"),
    path("clubs/<slug:slug>/invite/revoke/", views.revoke_invite, name="revoke_invite"),
    path("clubs/<slug:slug>/settings/", views.club_settings, name="club_settings"),
    path("clubs/<slug:slug>/role/", views.set_role, name="set_role"),
    path("clubs/<slug:slug>/leagues/new/", views.create_league, name="create_league"),
    path("leagues/<int:pk>/", views.league, name="league"),
    path("leagues/<int:pk>/seasons/new/", views.create_season, name="create_season"),
    path("leagues/<int:pk>/settings/", views.league_settings, name="league_settings"),
    path("seasons/<int:pk>/", views.season, name="season"),
    path("seasons/<int:pk>/standings.csv", views.standings_csv, name="standings_csv"),
    path("seasons/<int:pk>/signup/", views.sign_up, name="sign_up"),
    path("seasons/<int:pk>/withdraw/", views.withdraw, name="withdraw"),
    path("seasons/<int:pk>/organise/<slug:action>/", views.organise, name="organise"),
    path("feeds/player/<int:pk>/<slug:secret>.ics", feeds.player_calendar, name="player_calendar"),
    path("feeds/league/<int:pk>/<slug:secret>.ics", feeds.league_calendar, name="league_calendar"),
    path("feeds/league/<int:pk>/<slug:secret>/results.atom", feeds.league_results, name="league_results"),
]
