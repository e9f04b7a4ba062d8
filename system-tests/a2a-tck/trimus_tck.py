"""Trimus's pytest plugin for the A2A conformance kit (a2aproject/a2a-tck, 0.3.x line, vendored unchanged in kit/).

The kit sends no credentials and looks for the agent card only at the host's root. A Trimus agent's card lives at
its own path, and its endpoint needs a bearer token. This plugin, loaded with ``-p trimus_tck`` (scripts/a2a-tck.sh
puts this directory on PYTHONPATH and sets the two variables below):

- answers a request for ``/.well-known/agent-card.json`` (or ``agent.json``) at the SUT host's root with the
  agent's card (TRIMUS_TCK_CARD_URL);
- adds ``Authorization: Bearer $TRIMUS_TCK_TOKEN`` to requests to the SUT host that carry no Authorization header,
  as a configured A2A client would, except in the kit's authentication test modules (``*auth*``): those probe how
  missing and wrong credentials are refused, so their requests go out exactly as the test wrote them.
"""

import os
import urllib.parse

import httpx
import requests

CARD_URL = os.environ["TRIMUS_TCK_CARD_URL"]
TOKEN = os.environ["TRIMUS_TCK_TOKEN"]
_card = urllib.parse.urlsplit(CARD_URL)
HOST = _card.netloc
ROOT_CARDS = ("/.well-known/agent-card.json", "/.well-known/agent.json")


_current_test = {"module": ""}


def pytest_runtest_setup(item):
    _current_test["module"] = item.module.__name__ if item.module else ""


def _authorize() -> bool:
    """The kit's authentication tests probe refusals: their requests go out as written. Every other test acts as
    a configured client of the agent."""
    return "auth" not in _current_test["module"].rsplit(".", 1)[-1]


def _rewrite(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    if parts.netloc == HOST and parts.path in ROOT_CARDS:
        return CARD_URL
    return url


_requests_send = requests.Session.send


def _send(self, request, **kwargs):
    if urllib.parse.urlsplit(request.url).netloc == HOST:
        request.url = _rewrite(request.url)
        if "Authorization" not in request.headers and _authorize():
            request.headers["Authorization"] = f"Bearer {TOKEN}"
    return _requests_send(self, request, **kwargs)


requests.Session.send = _send


def _prepare_httpx(request: httpx.Request) -> None:
    if request.url.netloc.decode() == HOST:
        rewritten = _rewrite(str(request.url))
        if rewritten != str(request.url):
            request.url = httpx.URL(rewritten)
        if "authorization" not in request.headers and _authorize():
            request.headers["Authorization"] = f"Bearer {TOKEN}"


_httpx_send = httpx.Client.send
_httpx_async_send = httpx.AsyncClient.send


def _client_send(self, request, **kwargs):
    _prepare_httpx(request)
    return _httpx_send(self, request, **kwargs)


async def _async_client_send(self, request, **kwargs):
    _prepare_httpx(request)
    return await _httpx_async_send(self, request, **kwargs)


httpx.Client.send = _client_send
httpx.AsyncClient.send = _async_client_send
