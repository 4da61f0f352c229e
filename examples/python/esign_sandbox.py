"""A small client for esign-sandbox, Python standard library only (docs/python.md).

- ``Sandbox``: the API (``/api``, authenticated with a platform's API key) and the control API (``/__sandbox``:
  health, tenants, clock, recipients who act, emails, webhook deliveries);
- ``WebhookReceiver``: a local HTTP server that verifies Standard Webhooks signatures, as your handler should;
- ``verify_webhook``: the signature check alone, for your own web framework.

Copy this file into your tests; it needs nothing from PyPI.
"""

import base64
import hashlib
import hmac
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class SandboxError(Exception):
    """An answer that was not 2xx: ``status`` and the sandbox's JSON error body (``{"code", "message", ...}``)."""

    def __init__(self, status, body):
        self.status = status
        self.body = body
        message = body.get("message") if isinstance(body, dict) else body
        super().__init__(f"{status}: {message}")


class Sandbox:
    """One sandbox, one platform (tenant): ``api_key`` authenticates /api calls as that platform."""

    def __init__(self, url, api_key="sandboxApiKey", client_key="demoClient", timeout=10):
        self.url = url.rstrip("/")
        self.api_key = api_key
        self.client_key = client_key
        self.timeout = timeout

    def _request(self, method, path, body=None, headers=None, raw_text=False):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                answer_text = answer.read().decode()
        except urllib.error.HTTPError as error:
            answer_text = error.read().decode()
            try:
                raise SandboxError(error.code, json.loads(answer_text)) from None
            except ValueError:
                raise SandboxError(error.code, answer_text) from None
        if raw_text:
            return answer_text
        return json.loads(answer_text) if answer_text else None

    # The API: every resource is one POST with {"data": {"action": ..., ...}} (docs/lifecycle.md).

    def api(self, resource, action, bearer=None, **fields):
        """``POST /api/<resource>`` as this platform (or with a ``bearer`` token), for its client ``client_key``."""
        data = {"action": action, "clientKey": self.client_key, **fields}
        credentials = {"Authorization": f"Bearer {bearer}"} if bearer else {"X-Service-Key": self.api_key}
        return self._request("POST", f"/api/{resource}", {"data": data}, credentials)

    def token(self, secret):
        """A platform token from this platform's API key and its secret (it expires after 30 minutes)."""
        body = {"data": {"action": "create", "apiKey": self.api_key, "secret": secret}}
        return self._request("POST", "/api/token", body)["access_token"]

    def create_contract(self, name, value):
        return self.api("contract", "create", contract={"name": name, "value": value})["contract"]

    def read_contract(self, contract_key):
        # A read names the contract inside "contract"; recipient calls take "contractKey" beside it.
        return self.api("contract", "read", contract={"contractKey": contract_key})["contract"]

    def send(self, contract_key, recipients):
        return self.api("recipient", "send", contractKey=contract_key, recipients=recipients)

    def create_webhook(self, url, **events):
        flags = events or {"created": True, "sent": True, "signed": True, "fullySigned": True}
        return self.api("webhook", "create", webhooks=[{"url": url, **flags}])["webhooks"][0]

    # The control API (docs/lifecycle.md, docs/library.md): no credentials, the sandbox's own switches.

    def control(self, method, path, body=None):
        return self._request(method, f"/__sandbox{path}", body)

    def health(self):
        return self.control("GET", "/health")

    def create_platform(self, name=None):
        """A new tenant: ``{"platformId", "apiKey", "secret"}``; it sees nothing of any other platform."""
        return self.control("POST", "/platforms", {"name": name} if name else {})

    def reset(self, api_key=None):
        """Everything back to the fixtures, or only that tenant's records."""
        return self.control("POST", "/reset", {"apiKey": api_key} if api_key else {})

    def advance_clock(self, by):
        return self.control("POST", "/clock/advance", {"by": by})

    def contract(self, contract_key):
        """The contract as the sandbox holds it, with its recipients and their keys."""
        return self.control("GET", f"/contracts/{urllib.parse.quote(contract_key)}")

    def sign(self, recipient_key):
        """The recipient signs, as if they had clicked through the signing page."""
        return self.control("POST", f"/recipients/{urllib.parse.quote(recipient_key)}/sign", {})

    def emails(self, contract_key=None):
        query = f"?contractKey={urllib.parse.quote(contract_key)}" if contract_key else ""
        return self.control("GET", f"/emails{query}")

    # Readiness (docs/readiness.md): scoped to a tenant with its API key, else the whole sandbox.

    def settle(self, tenant=None):
        """Waits until nothing is due now: deliveries in flight and reactions finish; the time does not move."""
        return self.control("POST", f"{_scope(tenant)}/settle", {})

    def report(self, tenant=None, fmt="json", **options):
        """The readiness report: a dict, or with ``fmt="junit"`` or ``"markdown"`` its text; ``options`` are its
        thresholds and ``ignore`` (``pollingReads=5``, ``ignore="client-errors"``)."""
        query = urllib.parse.urlencode({**options, **({"format": fmt} if fmt != "json" else {})})
        path = f"/__sandbox{_scope(tenant)}/report" + (f"?{query}" if query else "")
        return self._request("GET", path, raw_text=fmt != "json")

    def wait_until_ready(self, timeout=10.0):
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self.health()
            except (OSError, SandboxError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)


def _scope(tenant):
    return f"/platforms/{urllib.parse.quote(tenant)}" if tenant else ""


def report_text(report):
    """The readiness report for a person, as ``esign-sandbox report`` prints it: findings with their evidence."""
    summary = report["summary"]
    lines = [f"Readiness: {report['verdict']} ({summary['errors']} errors, {summary['warnings']} warnings)"]
    for finding in report["findings"]:
        if finding["severity"] == "info":
            continue
        lines.append(f"{finding['severity'].upper():8}{finding['id']}: {finding['title']} ({finding['count']})")
        for e in finding["evidence"]:
            what = (
                f"request {e['id']}: {e['method']} {e['path']} ({e.get('action', '')}) -> {e['status']}"
                if e["type"] == "request"
                else f"delivery {e['id']} attempt {e['attempt']} ({e['trigger']}) {e['event']}"
                f" -> {e.get('status', e.get('error'))}"
            )
            lines.append(f"        {what} at {e['at']}: {e.get('detail', '')}")
        lines.append(f"        Advice: {finding['advice']}")
    return "\n".join(lines)


def assert_ready(report, fail_on="error"):
    """Fails the test with the evidence when the readiness report has an error finding (or a warning, with
    ``fail_on="warning"``): the pytest twin of the library's ``assertReady``."""
    judged = ("error", "warning") if fail_on == "warning" else ("error",)
    failing = [f["id"] for f in report["findings"] if f["severity"] in judged]
    if failing:
        raise AssertionError(f"the integration is not ready ({', '.join(failing)}):\n{report_text(report)}")


def assert_expectations_met(*scenarios):
    """Fails unless every ``expect:`` entry of each scenario summary is met, naming the others with their evidence."""
    unmet = [(s["name"], e) for s in scenarios for e in s["expectations"] if e["status"] != "met"]
    if unmet:
        lines = [f"  {name}: {e['id']} is {e['status']}: {e['evidence']}" for name, e in unmet]
        raise AssertionError(f"{len(unmet)} scenario expectation(s) not met:\n" + "\n".join(lines))


def verify_webhook(secret, headers, body, tolerance=300, now=None):
    """Standard Webhooks: HMAC-SHA256 of ``id.timestamp.body`` with the base64 key after ``whsec_``.

    ``headers`` maps lower-case names to values; ``body`` is the raw bytes as received. Raises ``ValueError``
    when the signature or the timestamp does not hold; returns the parsed payload when they do.
    """
    msg_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not (msg_id and timestamp and signatures):
        raise ValueError("missing webhook-id, webhook-timestamp or webhook-signature")
    if abs((now if now is not None else time.time()) - int(timestamp)) > tolerance:
        raise ValueError("timestamp outside tolerance")
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    # The header may carry several signatures ("v1,<sig> v1,<sig>"), e.g. while a secret is rotated.
    for candidate in signatures.split(" "):
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            return json.loads(body)
    raise ValueError("no matching signature")


class WebhookReceiver:
    """A webhook endpoint for tests: verifies each delivery, answers 204 (401 when it does not verify).

    ``host`` is where it listens (``0.0.0.0`` to be reached from a container); ``url_host`` the name the sandbox
    uses for it (``host.docker.internal`` or ``host.containers.internal`` from a container: docs/ci.md).
    """

    def __init__(self, secret=None, host="127.0.0.1", url_host=None, path="/webhooks"):
        self.secret = secret
        self.path = path
        self.deliveries = []  # every verified payload, in arrival order
        self.rejected = []  # (reason, raw body) of each delivery that failed verification
        self._arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {name.lower(): value for name, value in self.headers.items()}
                try:
                    if self.path != receiver.path:
                        raise ValueError(f"unknown path {self.path}")
                    payload = verify_webhook(receiver.secret or "", headers, body)
                    status = 204
                except ValueError as error:
                    payload, status = None, 401
                    receiver.rejected.append((str(error), body))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                with receiver._arrived:
                    if payload is not None:
                        receiver.deliveries.append(payload)
                    receiver._arrived.notify_all()

            def log_message(self, *args):
                pass

        self._server = ThreadingHTTPServer((host, 0), Handler)
        self.port = self._server.server_address[1]
        self.url = f"http://{url_host or host}:{self.port}{path}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def wait_for(self, event_type, timeout=10.0):
        """The first verified delivery of this event type (``contract.sent``, ...), waiting for it to arrive."""
        with self._arrived:
            found = self._arrived.wait_for(
                lambda: next((d for d in self.deliveries if d.get("type") == event_type), None), timeout
            )
        if not found:
            raise TimeoutError(f"no {event_type} delivery within {timeout}s (rejected: {self.rejected})")
        return found

    def close(self):
        self._server.shutdown()
        self._server.server_close()
