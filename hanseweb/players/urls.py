from django.urls import path

from . import views

app_name = "players"

urlpatterns = [
    path("players/<int:pk>/", views.player, name="player"),
    path("archive/", views.archive, name="archive"),
]
