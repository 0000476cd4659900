"""Headers and refusals: Content-Security-Policy, file uploads, private exports, paths."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from basislab.middleware import RefuseFilesHandler

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"

pytestmark = pytest.mark.django_db


def test_every_page_carries_a_content_security_policy_without_unsafe_inline(client):
    response = client.get(reverse("home"))

    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy


def test_no_template_has_an_inline_script_or_style():
    inline = re.compile(
        r"style\s*=|<style|\son[a-z]+\s*=|javascript:|<script(?![^>]*\bsrc=)[^>]*>", re.I
    )
    offenders = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = re.sub(r"{#.*?#}|{% comment %}.*?{% endcomment %}", "", path.read_text(), flags=re.S)
        offenders += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in inline.finditer(text)]

    assert offenders == []


def test_a_file_upload_is_refused_with_415_and_nothing_is_stored_or_written(
    client, settings, tmp_path, monkeypatch
):
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 0  # any file Django kept would go to tmp_path
    started = []
    monkeypatch.setattr(
        RefuseFilesHandler, "receive_data_chunk", lambda self, data, start: started.append(data)
    )
    payload = {
        "username": "uploader",
        "email": "uploader@example.org",
        "password1": "quiet-lantern-orbit-77",
        "password2": "quiet-lantern-orbit-77",
        "avatar": SimpleUploadedFile("big.bin", b"x" * 300_000, "application/octet-stream"),
    }

    response = client.post(reverse("signup"), payload)

    assert response.status_code == 415
    assert "takes no file uploads" in response.content.decode()
    assert not get_user_model().objects.filter(username="uploader").exists()
    assert started == []  # not one byte of the file was read
    assert list(tmp_path.iterdir()) == []


def test_a_multipart_form_without_a_file_still_works(client):
    payload = {
        "username": "plainform",
        "email": "plainform@example.org",
        "password1": "quiet-lantern-orbit-77",
        "password2": "quiet-lantern-orbit-77",
    }
    # Django's test client sends multipart/form-data by default.
    response = client.post(reverse("signup"), payload)

    assert response.status_code == 302
    assert get_user_model().objects.filter(username="plainform").exists()


def test_the_copy_export_is_private_and_not_stored(learner_client, course_copy):
    response = learner_client.get(reverse("practice:export", kwargs={"copy_id": course_copy.pk}))

    assert response.status_code == 200
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= directives


def test_the_review_export_is_private_and_not_stored(learner_client, course_copy):
    response = learner_client.get(reverse("review:export", kwargs={"copy_id": course_copy.pk}))

    assert response.status_code == 200
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= directives


def test_static_root_is_read_from_the_environment(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DJANGO_SETTINGS_MODULE="basislab.settings",
        BASISLAB_VAR_DIR=str(tmp_path / "var"),
        STATIC_ROOT=str(tmp_path / "static-here"),
    )
    result = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.STATIC_ROOT)"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(tmp_path / "static-here")


def test_the_generators_pictures_use_no_style_attribute_or_element():
    from grading.kinds import ProblemKind
    from practice.generators import GENERATORS, generate, render_svg

    pictures = []
    for kind in GENERATORS:
        spec = generate(ProblemKind(kind), seed=3, level=1)
        pictures += [render_svg(spec), render_svg(spec, solution=True)]
    pictures = [svg for svg in pictures if svg]

    assert pictures
    for svg in pictures:
        assert not re.search(r"\sstyle\s*=|<style", svg)
        assert 'font-family="system-ui, sans-serif"' in svg


def test_a_refused_form_gets_the_sites_own_page_with_what_to_do(learner):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("login"),
        {"username": learner.username, "password": "whatever"},
        HTTP_REFERER="http://testserver/accounts/login/",
    )

    assert response.status_code == 403
    html = response.content.decode()
    assert "This form has expired" in html
    assert 'href="http://testserver/accounts/login/"' in html  # reload where it came from
    assert f'href="{reverse("login")}"' in html and "sign in again" in html
    assert not re.search(r"\sstyle\s*=|<style", html)  # Django's page has both
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert "_auth_user_id" not in client.session


def test_the_csrf_page_never_links_to_another_site(client_for, learner):
    client = client_for(learner)
    client.handler.enforce_csrf_checks = True

    response = client.post(reverse("logout"), HTTP_REFERER="https://evil.example/phish")

    assert response.status_code == 403
    html = response.content.decode()
    assert "evil.example" not in html
    assert "Go back and reload the page" in html
    assert "sign in again" not in html  # still signed in: no point saying so
