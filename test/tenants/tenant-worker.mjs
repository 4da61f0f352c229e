// One parallel test worker, run as a child process by parallel-tenants.test.ts: it makes its own tenant with its
// own frozen clock, sets up a client, a webhook that always fails, a token, a scenario and a contract, then advances
// its clock in its own steps while the other workers advance theirs, checking after each step that its tokens,
// webhook retries and scenario follow its time only and that it sees nothing of the others. Prints one JSON line.
// Usage: node tenant-worker.mjs <sandboxUrl> <workerIndex> <rounds>
const [url, indexText, roundsText] = process.argv.slice(2);
const index = Number(indexText);
const rounds = Number(roundsText);
const MINUTE = 60_000;
// Webhook retries after a failed first attempt (src/webhooks/schedule.ts): 5 s, 5 min, 30 min, 2 h … after the last.
const RETRY_AFTER = [5_000, 5 * MINUTE, 30 * MINUTE, 2 * 60 * MINUTE];
const problems = [];
const check = (ok, what) => {
  if (!ok) problems.push(what);
};

async function call(method, path, body, headers = {}) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function round(r) {
  // Each worker's time lies on its own day, so a record dated by another's clock would stand out.
  const startMs = Date.parse('2026-01-01T09:00:00Z') + (index * 10 + r) * 86_400_000;
  const made = await call('POST', '/__sandbox/platforms', {
    name: `worker ${index}`,
    clock: 'frozen',
    start: new Date(startMs).toISOString(),
  });
  if (made.status !== 201) throw new Error(`platform: ${made.status} ${JSON.stringify(made.body)}`);
  const { apiKey, secret } = made.body;
  const scoped = (method, path, body) => call(method, `/__sandbox/platforms/${apiKey}${path}`, body);
  const api = (path, body, bearer) =>
    call('POST', path, body, bearer ? { authorization: `Bearer ${bearer}` } : { 'x-service-key': apiKey });
  const signAfter = (index % 4) * 3 + 4; // minutes of its own time after being notified
  await scoped('POST', '/scenarios', { yaml: `name: steady\nrecipients:\n  - match: {}\n    sign: ${signAfter}m\n` });
  const me = `worker${index}r${r}@example.com`;
  const client = await api('/api/client', { data: { action: 'create', client: { fullname: me } } });
  const clientKey = client.body.client.clientKey;
  await api('/api/webhook', {
    data: { action: 'create', clientKey, webhooks: [{ url: 'http://127.0.0.1:9/down', sent: true }] },
  });
  const token = (await api('/api/token', { data: { action: 'create', apiKey, secret } })).body.access_token;
  const contract = await api('/api/contract', {
    data: {
      action: 'create',
      clientKey,
      contract: { name: `lease ${index}.${r}`, value: '<p>Terms</p>' },
      recipients: [{ fullname: 'Signer', email: me }],
    },
  });
  check(contract.status === 201, `contract create answered ${contract.status}`);
  const contractKey = contract.body.contract.contractKey;

  const step = (index % 4) + 4; // minutes per advance: each worker moves in its own steps
  let elapsed = 0;
  while (elapsed < 40 * MINUTE) {
    const clock = (await scoped('POST', '/clock/advance', { by: `${step}m` })).body;
    elapsed += step * MINUTE;
    const at = `round ${r}, +${elapsed / MINUTE}m`;
    check(clock.now === new Date(startMs + elapsed).toISOString(), `${at}: clock says ${clock.now}`);
    // Tokens live 30 minutes of the tenant's own time.
    const listed = await api('/api/client', { data: { action: 'list' } }, token);
    const live = elapsed < 30 * MINUTE;
    check(listed.status === (live ? 200 : 401), `${at}: token answered ${listed.status}`);
    // Webhook retries fall due on its own clock: the first attempt, then one per schedule point passed.
    let due = 0;
    let sum = 0;
    for (const wait of RETRY_AFTER) {
      sum += wait;
      if (sum <= elapsed) due++;
    }
    const deliveries = (await scoped('GET', '/webhook-deliveries')).body.deliveries;
    check(deliveries.length === 1, `${at}: ${deliveries.length} deliveries`);
    check(deliveries[0]?.contractKey === contractKey, `${at}: a delivery of another contract`);
    check(
      deliveries[0]?.attempts.length === 1 + due,
      `${at}: ${deliveries[0]?.attempts.length} attempts, not ${1 + due}`,
    );
    // The scenario signs on its own timeline.
    const inspected = (await scoped('GET', `/contracts/${contractKey}`)).body;
    const signed = elapsed >= signAfter * MINUTE;
    check(inspected.status === (signed ? 'Fully signed' : 'Sent'), `${at}: contract ${inspected.status}`);
  }
  // Nothing of any other worker: its emails, its journal (by their times), its scenario.
  const at = `round ${r}, end`;
  const emails = (await scoped('GET', '/emails')).body.emails;
  check(
    emails.length > 0 && emails.every((e) => e.to === me || e.contractKey === contractKey),
    `${at}: emails ${emails.map((e) => e.to).join(', ')}`,
  );
  const requests = (await scoped('GET', '/requests')).body.requests;
  check(
    requests.every((q) => Date.parse(q.at) >= startMs && Date.parse(q.at) <= startMs + elapsed),
    `${at}: a journal entry at another time`,
  );
  const scenario = (await scoped('GET', '/scenarios/steady')).body;
  check(scenario.apiKey === apiKey, `${at}: the scenario of another tenant`);
  await scoped('POST', '/reset');
}

try {
  for (let r = 0; r < rounds; r++) await round(r);
  console.log(JSON.stringify({ index, problems }));
} catch (error) {
  console.log(JSON.stringify({ index, problems: [...problems, `crashed: ${error.stack ?? error}`] }));
}
