/**
 * The example app of compose.yaml (docs/ci.md "Docker Compose"): once the `esign` service is healthy, it gets a
 * platform token with the sandbox's demo credentials, creates a contract, prints its key and exits 0.
 */
const url = process.env.CONTRACT_API_URL ?? 'http://esign:4010';

async function post(path, body, headers = {}) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const token = await post('/api/token', { data: { action: 'create', apiKey: 'sandboxApiKey', secret: 'sandboxSecret' } });
const created = await post(
  '/api/contract',
  { data: { action: 'create', clientKey: 'demoClient', contract: { name: 'Compose agreement', value: '<p>Terms</p>' } } },
  { authorization: `Bearer ${token.access_token}` },
);
console.log(`contract created: ${created.contract.contractKey}`);
