"""Readiness in pytest (docs/python.md, docs/readiness.md): the report, its assertion, settle, the JUnit form."""

import xml.etree.ElementTree as ElementTree

import pytest

from esign_sandbox import Sandbox, SandboxError, assert_expectations_met, assert_ready


@pytest.mark.ready
def test_a_careful_flow_is_ready_to_go_live(tenant, webhooks):
    webhooks.secret = tenant.create_webhook(webhooks.url)["secret"]
    created = tenant.create_contract("Service agreement", "<p>Terms</p>")
    tenant.send(created["contractKey"], [{"fullname": "Grace Hopper", "email": "grace@example.com", "action": "sign"}])
    (grace,) = tenant.contract(created["contractKey"])["recipients"]
    tenant.sign(grace["recipientKey"])
    tenant.settle(tenant=tenant.api_key)  # every delivery the signature caused has been attempted
    assert webhooks.wait_for("contract.fully_signed")["data"]["contractKey"] == created["contractKey"]


def test_a_dead_token_sent_again_fails_with_the_evidence(tenant, sandbox_url):
    platform = tenant.create_platform("dead-token")
    other = Sandbox(sandbox_url, api_key=platform["apiKey"], client_key=None)
    dead = other.token(platform["secret"])
    other.control("POST", f"/platforms/{platform['apiKey']}/tokens/expire", {})
    for _ in range(2):  # the naive client sends its dead token twice
        with pytest.raises(SandboxError, match="Token expired"):
            other.api("client", "list", bearer=dead)
    report = other.report(tenant=platform["apiKey"])
    assert report["verdict"] == "not-ready"
    with pytest.raises(AssertionError, match=r"not ready \(expired-token-reused\)") as failure:
        assert_ready(report)
    assert "token #1 sent again after that 401" in str(failure.value)
    other.reset(api_key=platform["apiKey"])


def test_the_report_as_junit_has_a_test_case_per_check(tenant):
    suite = ElementTree.fromstring(tenant.report(tenant=tenant.api_key, fmt="junit")).find("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == int(suite.get("tests")) > 10
    assert "## Go-live readiness" in tenant.report(tenant=tenant.api_key, fmt="markdown")


def test_expectations_not_met_fail_with_their_evidence(tenant):
    yaml = "name: wants-a-read\nexpect:\n  - { id: read, request: { path: /api/contract, action: read } }\n"
    summary = tenant.control("POST", f"/platforms/{tenant.api_key}/scenarios", {"yaml": yaml})
    with pytest.raises(AssertionError, match="wants-a-read: read is pending"):
        assert_expectations_met(summary)
