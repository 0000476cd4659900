"""An independent LTI 1.3 platform for the tests, built on PyJWT and jwcrypto (no pylti1p3).

It runs on loopback in a thread: OIDC authorization endpoint, JWKS, OAuth 2 token endpoint
(client-credentials with a JWT assertion, verified against the tool's JWKS), AGS scores,
NRPS memberships, a deep-linking return endpoint, and a course page that frames the tool.
``down = True`` makes the token and score endpoints answer 503 (a platform that is down);
``fail_tokens(status, n)`` makes the token endpoint refuse its next ``n`` requests (400
``invalid_client``, as a platform does before it fetched a rotated key, or 503). Line items are
kept in ``lineitems``: read, listed and created through AGS; a score for one not there is 404.
"""

import html
import json
import secrets
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt
import requests
from jwcrypto.jwk import JWK

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
LINEITEM_READ_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"


class Platform:
    def __init__(
        self,
        *,
        client_id: str = "basislab-tool",
        deployment_id: str = "dep-1",
        host: str = "127.0.0.1",
    ) -> None:
        self.host = host
        self.kid = "platform-key-1"
        self.key = JWK.generate(kty="RSA", size=2048, kid=self.kid)
        self.private_pem = self.key.export_to_pem(private_key=True, password=None)
        self.client_id = client_id
        self.deployment_id = deployment_id
        self.context_id = "course-101"
        self.down = False
        # (status, body) answers the token endpoint gives before it issues tokens again.
        self.token_failures: list[tuple[int, dict[str, str]]] = []
        self.token_requests = 0
        # Seconds the line items endpoint takes to make one (to widen a race).
        self.lineitem_delay = 0.0
        self.jwks_fetches = 0
        self.scores: list[dict[str, Any]] = []
        self.deep_link_items: list[dict[str, Any]] = []
        self.tokens: set[str] = set()
        self.roster: list[dict[str, Any]] = []
        self.tool_jwks: dict | None = None
        self.tool_jwks_url = ""
        self.tool_launch_url = ""
        self.tool_login_url = ""
        # What the authorization endpoint launches, by lti_message_hint.
        self.messages: dict[str, dict[str, Any]] = {}
        self.lineitems: dict[str, dict[str, Any]] = {}
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    # -- lifecycle -----------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://{self.host}:{self._server.server_address[1]}"

    @property
    def issuer(self) -> str:
        return self.url

    def start(self) -> "Platform":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def rotate_key(self, kid: str) -> None:
        """Replace the platform's signing key by a new one named ``kid``."""
        self.kid = kid
        self.key = JWK.generate(kty="RSA", size=2048, kid=kid)
        self.private_pem = self.key.export_to_pem(private_key=True, password=None)

    def jwks(self) -> dict:
        public = json.loads(self.key.export_public())
        public.update({"alg": "RS256", "use": "sig"})
        return {"keys": [public]}

    def lineitem_url(self, name: str = "1", *, score_maximum: float = 1) -> str:
        self.lineitems.setdefault(
            name, {"id": f"{self.url}/lineitems/{name}", "scoreMaximum": score_maximum}
        )
        return f"{self.url}/lineitems/{name}"

    def fail_tokens(self, status: int, count: int) -> None:
        """Refuse the next ``count`` token requests with ``status`` (400: invalid_client)."""
        body = {"error": "invalid_client"} if status == 400 else {"error": "unavailable"}
        self.token_failures = [(status, body)] * count

    # -- id tokens -----------------------------------------------------------------------
    def claims(
        self,
        *,
        sub: str,
        nonce: str,
        roles: tuple[str, ...] = (LEARNER,),
        message_type: str = "LtiResourceLinkRequest",
        link_id: str = "link-1",
        custom: dict[str, str] | None = None,
        lineitem: str | None = None,
        ags_scopes: tuple[str, ...] = (SCORE_SCOPE,),
        name: str = "",
        email: str = "",
    ) -> dict[str, Any]:
        now = int(time.time())
        body: dict[str, Any] = {
            "iss": self.issuer,
            "aud": self.client_id,
            "sub": sub,
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            LTI + "message_type": message_type,
            LTI + "version": "1.3.0",
            LTI + "deployment_id": self.deployment_id,
            LTI + "roles": list(roles),
            LTI + "context": {"id": self.context_id, "title": "Text as numbers 101"},
            "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                "context_memberships_url": f"{self.url}/memberships",
                "service_versions": ["2.0"],
            },
        }
        if name:
            body["name"] = name
        if email:
            body["email"] = email
        if message_type == "LtiResourceLinkRequest":
            body[LTI + "target_link_uri"] = self.tool_launch_url
            body[LTI + "resource_link"] = {"id": link_id, "title": "Practice"}
            body[LTI + "custom"] = custom or {}
            ags = {"scope": list(ags_scopes), "lineitems": f"{self.url}/lineitems"}
            # lineitem="" launches a link without a line item (the tool may create one).
            if lineitem != "":
                ags["lineitem"] = lineitem or self.lineitem_url()
            body["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"] = ags
        else:
            body[LTI + "target_link_uri"] = self.tool_launch_url
            body["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"] = {
                "deep_link_return_url": f"{self.url}/deep_link_return",
                "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["iframe", "window"],
                "accept_lineitem": True,
                "data": "dl-data-1",
            }
        return body

    def sign(self, body: dict[str, Any], *, key_pem: bytes | None = None) -> str:
        """Sign claims as the platform (its current kid), or with another key under that kid."""
        return jwt.encode(
            body, key_pem or self.private_pem, algorithm="RS256", headers={"kid": self.kid}
        )

    # -- checking what the tool sends ------------------------------------------------------
    def _tool_keys(self) -> dict:
        if self.tool_jwks is not None:
            return self.tool_jwks
        return requests.get(self.tool_jwks_url, timeout=5).json()

    def verify_tool_jwt(self, token: str, *, audience: str) -> dict[str, Any]:
        kid = jwt.get_unverified_header(token)["kid"]
        for key in self._tool_keys()["keys"]:
            if key["kid"] == kid:
                public = jwt.PyJWK(key).key
                return jwt.decode(token, public, algorithms=["RS256"], audience=audience)
        raise ValueError(f"unknown tool kid {kid}")

    # -- the HTTP side ---------------------------------------------------------------------
    def _handler(self) -> type[BaseHTTPRequestHandler]:
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _send(
                self, status: int, body: str | bytes, content_type: str = "application/json"
            ) -> None:
                data = body.encode() if isinstance(body, str) else body
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _form(self) -> dict[str, str]:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode()
                if "json" in self.headers.get("Content-Type", ""):
                    return json.loads(raw)
                return {k: v[0] for k, v in parse_qs(raw).items()}

            def _bearer_ok(self) -> bool:
                auth = self.headers.get("Authorization", "")
                return auth.startswith("Bearer ") and auth[7:] in platform.tokens

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                if parts.path == "/jwks":
                    platform.jwks_fetches += 1
                    return self._send(200, json.dumps(platform.jwks()))
                if parts.path == "/auth":
                    return self._authorize(query)
                if parts.path == "/lineitems":
                    if not self._bearer_ok():
                        return self._send(401, "{}")
                    items = list(platform.lineitems.values())
                    if "resource_link_id" in query:
                        items = [
                            i for i in items if i.get("resourceLinkId") == query["resource_link_id"]
                        ]
                    return self._send(
                        200, json.dumps(items), "application/vnd.ims.lis.v2.lineitemcontainer+json"
                    )
                if parts.path.startswith("/lineitems/"):
                    if not self._bearer_ok():
                        return self._send(401, "{}")
                    item = platform.lineitems.get(parts.path.split("/")[2])
                    if item is None:
                        return self._send(404, "{}")
                    return self._send(
                        200, json.dumps(item), "application/vnd.ims.lis.v2.lineitem+json"
                    )
                if parts.path == "/memberships":
                    if not self._bearer_ok():
                        return self._send(401, "{}")
                    body = {"id": f"{platform.url}/memberships", "members": platform.roster}
                    return self._send(
                        200,
                        json.dumps(body),
                        "application/vnd.ims.lti-nrps.v2.membershipcontainer+json",
                    )
                if parts.path == "/course":
                    login = (
                        platform.tool_login_url
                        + "?"
                        + urlencode(
                            {
                                "iss": platform.issuer,
                                "login_hint": query["user"],
                                "target_link_uri": platform.tool_launch_url,
                                "lti_message_hint": query["message"],
                                "client_id": platform.client_id,
                                "lti_deployment_id": platform.deployment_id,
                            }
                        )
                    )
                    page = (
                        "<!doctype html><title>Platform course</title><h1>Platform course page</h1>"
                        f'<iframe id="tool" src="{html.escape(login)}" '
                        'width="1000" height="800"></iframe>'
                    )
                    return self._send(200, page, "text/html")
                return self._send(404, "{}")

            def _authorize(self, query: dict[str, str]) -> None:
                message = platform.messages.get(query.get("lti_message_hint", ""))
                if (
                    message is None
                    or query.get("client_id") != platform.client_id
                    or query.get("redirect_uri") != platform.tool_launch_url
                    or query.get("response_type") != "id_token"
                    or query.get("scope") != "openid"
                ):
                    return self._send(400, "bad authorization request", "text/plain")
                body = platform.claims(nonce=query["nonce"], sub=query["login_hint"], **message)
                token = platform.sign(body)
                page = (
                    "<!doctype html><title>Launching</title>"
                    f'<form id="f" method="post" action="{html.escape(query["redirect_uri"])}">'
                    f'<input type="hidden" name="id_token" value="{token}">'
                    '<input type="hidden" name="state" '
                    f'value="{html.escape(query["state"])}"></form>'
                    "<script>document.getElementById('f').submit()</script>"
                )
                return self._send(200, page, "text/html")

            def do_POST(self) -> None:
                parts = urlsplit(self.path)
                form = self._form()
                if parts.path == "/token":
                    platform.token_requests += 1
                    if platform.down:
                        return self._send(503, "{}")
                    if platform.token_failures:
                        status, answer = platform.token_failures.pop(0)
                        return self._send(status, json.dumps(answer))
                    try:
                        claims = platform.verify_tool_jwt(
                            form["client_assertion"], audience=f"{platform.url}/token"
                        )
                    except Exception as error:
                        return self._send(401, json.dumps({"error": str(error)}))
                    if claims["iss"] != platform.client_id or claims["sub"] != platform.client_id:
                        return self._send(401, "{}")
                    token = secrets.token_hex(16)
                    platform.tokens.add(token)
                    return self._send(
                        200,
                        json.dumps(
                            {"access_token": token, "token_type": "Bearer", "expires_in": 3600}
                        ),
                    )
                if parts.path.startswith("/lineitems/") and parts.path.endswith("/scores"):
                    if platform.down:
                        return self._send(503, "{}")
                    if not self._bearer_ok():
                        return self._send(401, "{}")
                    name = parts.path.split("/")[2]
                    if name not in platform.lineitems:
                        return self._send(404, "{}")  # a deleted line item
                    platform.scores.append({"lineitem": name, **form})
                    return self._send(200, "{}")
                if parts.path == "/lineitems":
                    if not self._bearer_ok():
                        return self._send(401, "{}")
                    time.sleep(platform.lineitem_delay)
                    name = f"made-{len(platform.lineitems) + 1}"
                    item = {**form, "id": f"{platform.url}/lineitems/{name}"}
                    platform.lineitems[name] = item
                    return self._send(
                        201, json.dumps(item), "application/vnd.ims.lis.v2.lineitem+json"
                    )
                if parts.path == "/deep_link_return":
                    claims = platform.verify_tool_jwt(form["JWT"], audience=platform.issuer)
                    items = claims["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
                    platform.deep_link_items.extend(items)
                    return self._send(
                        200,
                        "<!doctype html><title>Placed</title>"
                        f"<h1 id='placed'>Placed {len(items)} link</h1>",
                        "text/html",
                    )
                return self._send(404, "{}")

        return Handler


def new_hint(platform: Platform, **message: Any) -> str:
    """Register what the next browser launch should carry; return its lti_message_hint."""
    hint = uuid.uuid4().hex
    platform.messages[hint] = message
    return hint
