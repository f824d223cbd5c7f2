from django.contrib.auth import views as auth_views
from django.urls import path
from django_ratelimit.decorators import ratelimit

from hanseweb import throttle

from . import views
from .forms import ConfirmingSetPasswordForm, LoginForm, QueuedPasswordResetForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("confirm/<uidb64>/<token>/", views.confirm, name="confirm"),
    path("login/", auth_views.LoginView.as_view(template_name="accounts/login.html", authentication_form=LoginForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("profile/vacation/", views.vacation_view, name="vacation"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("password/reset/", ratelimit(
        group="password_reset", key="ip", rate=throttle.rate("password_reset_per_ip"), method="POST",
    )(auth_views.PasswordResetView.as_view(
        template_name="accounts/password_reset.html",
        form_class=QueuedPasswordResetForm,
    )), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(template_name="accounts/password_reset_confirm.html", form_class=ConfirmingSetPasswordForm), name="password_reset_confirm"),
    path("password/reset/complete/", auth_views.PasswordResetCompleteView.as_view(template_name="accounts/password_reset_complete.html"), name="password_reset_complete"),
]
