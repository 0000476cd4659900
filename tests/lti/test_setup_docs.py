"""What docs/lti.md tells an LMS administrator to paste is checked: the Canvas developer key's
JSON parses and names the tool's own URLs, and the Moodle table's URLs are the tool's."""

import json
import re
from pathlib import Path

from django.urls import resolve

DOC = Path(__file__).resolve().parents[2] / "docs" / "lti.md"
HOST = "https://HOST"


def _canvas_json() -> dict:
    text = DOC.read_text()
    section = text[text.index("### Canvas") : text.index("### Moodle")]
    (block,) = re.findall(r"```json\n(.*?)```", section, flags=re.S)
    return json.loads(block)


def _view(url: str) -> str:
    assert url.startswith(HOST + "/"), url
    return resolve(url.removeprefix(HOST)).view_name


def test_the_canvas_key_names_the_tools_login_launch_and_keys():
    config = _canvas_json()
    assert _view(config["oidc_initiation_url"]) == "lti:login"
    assert _view(config["target_link_uri"]) == "lti:launch"
    assert _view(config["public_jwk_url"]) == "lti:jwks"
    (canvas,) = config["extensions"]
    placements = {p["placement"]: p for p in canvas["settings"]["placements"]}
    assert {_view(p["target_link_uri"]) for p in placements.values()} == {"lti:launch"}
    # Deep linking from assignments and modules; the course menu's entry is a plain link.
    assert placements["assignment_selection"]["message_type"] == "LtiDeepLinkingRequest"
    assert placements["link_selection"]["message_type"] == "LtiDeepLinkingRequest"
    assert placements["course_navigation"]["message_type"] == "LtiResourceLinkRequest"
    scopes = set(config["scopes"])
    assert "https://purl.imsglobal.org/spec/lti-ags/scope/score" in scopes
    assert "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem" in scopes


def test_the_redirect_uri_canvas_and_moodle_need_is_the_launch():
    text = DOC.read_text()
    canvas = text[text.index("### Canvas") : text.index("### Moodle")]
    (redirect,) = re.findall(r"\*\*Redirect URIs\*\*: `([^`]+)`", canvas)
    assert _view(redirect) == "lti:launch"
    moodle = text[text.index("### Moodle") : text.index("## Plain links")]
    rows = dict(re.findall(r"^\| ([^|]+?) \| `(https://HOST/[^`]*)` \|$", moodle, flags=re.M))
    assert _view(rows["Redirection URI(s)"]) == "lti:launch"
    assert _view(rows["Initiate login URL"]) == "lti:login"
    assert _view(rows["Public keyset"]) == "lti:jwks"
    assert _view(rows["Tool URL"]) == _view(rows["Content Selection URL"]) == "lti:launch"
