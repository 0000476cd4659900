"""The site's URLs: home, accounts, the learner's course copy, practice, and the admin."""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("accounts/", include("basislab.accounts.urls")),
    path("course/", include("courses.urls")),
    path("", include("practice.urls")),
    path("review/", include("practice.review.urls")),
    path("admin/", admin.site.urls),
]
