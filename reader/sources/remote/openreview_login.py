"""Logging in to OpenReview: credentials from the environment or the OS keyring, a token
from ``POST /login``, and what to say when OpenReview wants a login.

The credentials live only in this process: they are never written to the library, to a
cache file or to the terminal (:class:`Credentials` leaves the password out of its repr).
The token OpenReview gives goes in an ``Authorization: Bearer`` header sent with each
request and never with a redirect.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

from reader.sources.remote import FetchError
from reader.sources.remote.client import ACCEPT_JSON, Client, Failure

#: The name the password is kept under in the OS keyring (``keyring set openreview.net ME``).
KEYRING_SERVICE = "openreview.net"
USERNAME_VARIABLE = "OPENREVIEW_USERNAME"
PASSWORD_VARIABLE = "OPENREVIEW_PASSWORD"


@dataclass(frozen=True)
class Credentials:
    """An OpenReview login; the password never shows in a repr or a message."""

    username: str
    password: str = field(repr=False)
    #: Where they came from, for messages: "the environment" or "the OS keyring".
    origin: str = "the environment"


def keyring_available() -> bool:
    """Whether the optional ``keyring`` package can be imported."""
    try:
        import keyring  # noqa: F401
    except ImportError:
        return False
    return True


def find_credentials(environ: Mapping[str, str] | None = None) -> Credentials | None:
    """``OPENREVIEW_USERNAME`` and ``OPENREVIEW_PASSWORD`` from the environment; else the
    password (or the whole login) kept in the OS keyring under ``openreview.net``, when the
    ``keyring`` package is installed; else None (anonymous requests)."""
    env = os.environ if environ is None else environ
    username = env.get(USERNAME_VARIABLE, "").strip()
    password = env.get(PASSWORD_VARIABLE, "")
    if username and password:
        return Credentials(username, password)
    return _from_keyring(username)


def _from_keyring(username: str) -> Credentials | None:
    """The login kept in the OS keyring, if the package and a backend are there."""
    try:
        import keyring
    except ImportError:
        return None
    try:
        if username:
            password = keyring.get_password(KEYRING_SERVICE, username)
            return Credentials(username, password, "the OS keyring") if password else None
        found = keyring.get_credential(KEYRING_SERVICE, None)
    except Exception:  # no backend, a locked keyring: log in is then not possible this way
        return None
    if found is None or not found.username or not found.password:
        return None
    return Credentials(found.username, found.password, "the OS keyring")


def how_to_log_in() -> str:
    """The ways to give reader a login, in one sentence."""
    keyring_way = f"`keyring set {KEYRING_SERVICE} USERNAME`"
    if not keyring_available():
        keyring_way += ", after `pip install 'reader[keyring]'`"
    return (f"set {USERNAME_VARIABLE} and {PASSWORD_VARIABLE}, or {USERNAME_VARIABLE} with the "
            f"password in the OS keyring ({keyring_way})")


def challenge_message(logged_in: bool) -> str:
    """What to say when OpenReview answered 403 ChallengeRequiredError."""
    if logged_in:
        return ("OpenReview refused the request even when logged in (403 "
                "ChallengeRequiredError): try again later, or sign in once at openreview.net "
                "in a browser")
    return ("OpenReview refused anonymous requests (403 ChallengeRequiredError): log in to "
            f"fetch: {how_to_log_in()}")


def is_challenge(status: int, body: bytes) -> bool:
    """Whether an answer is OpenReview's demand for a challenge (or a login)."""
    return status == 403 and b"ChallengeRequired" in body[:4000]


def login_url(notes_url: str) -> str:
    """``…/login`` beside ``…/notes`` (READER_OPENREVIEW_API names the notes address)."""
    return urljoin(notes_url.split("?", 1)[0].rstrip("/"), "login")


def log_in(client: Client, credentials: Credentials) -> str:
    """The token ``POST /login`` gives for ``credentials``; FetchError when refused."""
    body = json.dumps({"id": credentials.username, "password": credentials.password})
    try:
        answer = client.get(
            login_url(client.endpoints.openreview), ACCEPT_JSON, data=body.encode()
        )
    except Failure as exc:
        raise FetchError(f"OpenReview login: {exc}") from None
    data = _json_object(answer.body)
    if answer.status >= 400:
        # OpenReview explains a refusal in {"name": …, "message": …}; neither holds the
        # password (it is never sent back).
        said = str(data.get("message") or data.get("name") or "").strip()
        reason = f": {said[:200]}" if said else ""
        raise FetchError(
            f"OpenReview refused the login from {credentials.origin} "
            f"({answer.status_line('OpenReview').removeprefix('OpenReview answered ')}"
            f"){reason}"
        )
    if data.get("mfaPending"):
        raise FetchError(
            "this OpenReview account asks for a second factor at login, which reader "
            "cannot give; log in with an account without one"
        )
    token = data.get("token")
    if not isinstance(token, str) or not token.strip():
        raise FetchError("OpenReview's answer to the login holds no token")
    return token.strip()


def _json_object(body: bytes) -> dict[str, Any]:
    """The body as a JSON object, or an empty one."""
    try:
        data = json.loads(body.decode("utf-8", errors="replace") or "{}")
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}
