"""The site's URLs: home, accounts, the course (open and copies), answers, practice, admin."""

from django.contrib import admin
from django.urls import include, path

from courses import public_views

urlpatterns = [
    path("", public_views.home, name="home"),
    path("accounts/", include("basislab.accounts.urls")),
    path("course/", include("courses.urls")),
    # The open course and its answers (course pages, answers, sitemap, robots.txt).
    path("", include("courses.public_urls")),
    path("", include("practice.urls")),
    path("review/", include("practice.review.urls")),
    path("analytics/", include("practice.analytics.urls")),
    path("lti/", include("lti.urls")),
    path("admin/", admin.site.urls),
]

handler404 = "courses.public_views.not_found"
