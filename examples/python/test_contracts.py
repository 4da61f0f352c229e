"""Example tests a Python team writes against esign-sandbox (docs/python.md): each test has its own tenant."""

import pytest

from esign_sandbox import Sandbox, SandboxError, verify_webhook


def test_a_contract_is_created_read_sent_signed_and_announced_by_signed_webhooks(tenant, webhooks):
    webhooks.secret = tenant.create_webhook(webhooks.url)["secret"]

    created = tenant.create_contract("Service agreement", "<p>Terms</p>")
    contract = tenant.read_contract(created["contractKey"])
    assert contract["name"] == "Service agreement"

    tenant.send(contract["contractKey"], [{"fullname": "Grace Hopper", "email": "grace@example.com", "action": "sign"}])
    (grace,) = tenant.contract(contract["contractKey"])["recipients"]
    assert tenant.sign(grace["recipientKey"])["contract"]["status"] == "Fully signed"

    event = webhooks.wait_for("contract.fully_signed")
    assert event["data"]["contractKey"] == contract["contractKey"]
    assert webhooks.rejected == []


def test_a_tenant_never_sees_another_tenants_contracts(tenant, sandbox_url):
    mine = tenant.create_contract("Mine", "<p>Terms</p>")
    other = Sandbox(sandbox_url, api_key=Sandbox(sandbox_url).create_platform()["apiKey"], client_key=tenant.client_key)
    with pytest.raises(SandboxError) as refused:
        other.read_contract(mine["contractKey"])
    assert refused.value.status in (401, 403, 404)


def test_the_clock_moves_when_told(tenant):
    before = tenant.health()["now"]
    after = tenant.advance_clock("31m")["now"]
    assert after > before


def test_a_forged_webhook_is_refused():
    headers = {"webhook-id": "msg_1", "webhook-timestamp": "1700000000", "webhook-signature": "v1,Zm9yZ2Vk"}
    with pytest.raises(ValueError, match="no matching signature"):
        verify_webhook("whsec_c2VjcmV0", headers, b"{}", now=1700000000)
    with pytest.raises(ValueError, match="timestamp outside tolerance"):
        verify_webhook("whsec_c2VjcmV0", headers, b"{}", now=1700009999)
