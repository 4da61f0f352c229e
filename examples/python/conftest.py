"""pytest fixtures for esign-sandbox (docs/python.md): one sandbox for the run, a tenant of its own for each test.

- ``ESIGN_SANDBOX_URL`` set (a CI service, a container, one you started): the tests use that sandbox;
- otherwise the run starts one with ``ESIGN_SANDBOX_COMMAND`` (default ``npx esign-sandbox``) on a free port and
  stops it at the end.
For webhooks from a sandbox in a container, set ``ESIGN_SANDBOX_WEBHOOK_HOST=0.0.0.0`` (listen where the container
can reach) and ``ESIGN_SANDBOX_WEBHOOK_URL_HOST`` to the name the container knows this machine by
(``host.docker.internal``, ``host.containers.internal``, or the job's service alias: docs/ci.md).
"""

import os
import shlex
import signal
import subprocess
import tempfile
import time
import uuid

import pytest

from esign_sandbox import Sandbox, WebhookReceiver, assert_ready


def pytest_configure(config):
    config.addinivalue_line("markers", "ready: fail the test when its tenant's readiness report has an error finding")


@pytest.fixture(scope="session")
def sandbox_url():
    url = os.environ.get("ESIGN_SANDBOX_URL")
    if url:
        Sandbox(url).wait_until_ready()
        yield url
        return
    command = shlex.split(os.environ.get("ESIGN_SANDBOX_COMMAND", "npx esign-sandbox"))
    with tempfile.TemporaryDirectory(prefix="esign-pytest-") as folder:
        ready = os.path.join(folder, "ready")
        process = subprocess.Popen(
            [*command, "--port", "0", "--ready-file", ready, "--quiet"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            # The sandbox writes its URL to the ready file once it listens.
            deadline = time.monotonic() + 30
            while not os.path.exists(ready):
                if process.poll() is not None:
                    raise RuntimeError(f"esign-sandbox exited {process.returncode}: {process.stderr.read().decode()}")
                if time.monotonic() > deadline:
                    raise TimeoutError("esign-sandbox did not start within 30 s")
                time.sleep(0.05)
            with open(ready) as file:
                yield file.read().strip()
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=10)
            process.stderr.close()


@pytest.fixture
def tenant(sandbox_url, request):
    """A platform of this test's own (POST /__sandbox/platforms) with one client: nothing else can see its data."""
    platform = Sandbox(sandbox_url).create_platform(f"{request.node.name}-{uuid.uuid4().hex[:8]}")
    sandbox = Sandbox(sandbox_url, api_key=platform["apiKey"], client_key=None)
    answer = sandbox._request(
        "POST",
        "/api/client",
        {"data": {"action": "create", "client": {"fullname": "Test Client", "email": "client@example.com"}}},
        {"X-Service-Key": platform["apiKey"]},
    )
    sandbox.client_key = answer["client"]["clientKey"]
    yield sandbox
    # With @pytest.mark.ready, the test also fails when what it did is not ready to go live (docs/readiness.md).
    report = sandbox.report(tenant=platform["apiKey"]) if request.node.get_closest_marker("ready") else None
    sandbox.reset(api_key=platform["apiKey"])
    if report is not None:
        assert_ready(report)


@pytest.fixture
def webhooks():
    host = os.environ.get("ESIGN_SANDBOX_WEBHOOK_HOST", "127.0.0.1")
    receiver = WebhookReceiver(host=host, url_host=os.environ.get("ESIGN_SANDBOX_WEBHOOK_URL_HOST"))
    yield receiver
    receiver.close()
