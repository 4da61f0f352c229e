/**
 * The baseline: a bare Hono server on @hono/node-server doing the same JSON work as a contract create (read the
 * body, parse it, validate it, store a record in a Map, answer JSON) and a list, with nothing else (no auth, no
 * schema library, no events). Usage: node bench/bare-hono.mjs <port>
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const contracts = new Map();
let seq = 0;
const app = new Hono();

app.get('/__sandbox/health', (c) => c.json({ status: 'ok', counts: { contracts: contracts.size } }));

function store(name, value) {
  const now = Date.now();
  const contractKey = `k${(++seq).toString(36).padStart(19, '0')}`;
  const record = {
    contractKey,
    name,
    value,
    status: 'Created',
    createTime: now,
    changeTime: now,
    history: [{ at: now, event: 'created', status: 'Created' }],
  };
  contracts.set(contractKey, record);
  return record;
}

app.post('/api/contract', async (c) => {
  // The HTTP work any server does for this request: check the content type and that credentials came along.
  if (!(c.req.header('content-type') ?? '').startsWith('application/json'))
    return c.json({ code: 415, message: 'JSON only' }, 415);
  if (!c.req.header('authorization')?.startsWith('Bearer '))
    return c.json({ code: 401, message: 'Missing credentials' }, 401);
  let body;
  try {
    body = await c.req.json();
  } catch {
    return c.json({ code: 400, message: 'Body is not JSON' }, 400);
  }
  const data = body && typeof body === 'object' ? (body.data ?? body) : undefined;
  if (!data || typeof data !== 'object') return c.json({ code: 400, message: 'data must be an object' }, 400);
  if (data.action === 'list') {
    const list = [];
    for (const r of contracts.values()) {
      list.push({
        createTime: new Date(r.createTime).toISOString(),
        changeTime: new Date(r.changeTime).toISOString(),
        contractKey: r.contractKey,
        name: r.name,
        status: r.status,
      });
    }
    return c.json({ code: 200, message: 'Contracts found', contracts: list });
  }
  const contract = data.contract;
  if (
    data.action !== 'create' ||
    !contract ||
    typeof contract !== 'object' ||
    typeof contract.name !== 'string' ||
    contract.name === '' ||
    typeof contract.value !== 'string'
  ) {
    return c.json({ code: 400, message: 'Invalid contract' }, 400);
  }
  const record = store(contract.name, contract.value);
  return c.json(
    {
      code: 201,
      message: 'Contract created',
      contract: { createTime: new Date(record.createTime).toISOString(), contractKey: record.contractKey },
    },
    201,
  );
});

// Bench-only: fill the map without HTTP, for the list figures.
app.post('/__bench/fill', async (c) => {
  const { n } = await c.req.json();
  for (let i = 0; i < n; i++) store(`Contract ${i}`, '<p>Terms</p>');
  return c.json({ contracts: contracts.size });
});

// Bench-only: empty the map, so its create rate can stand for the machine's speed at a constant size.
app.post('/__bench/clear', (c) => {
  contracts.clear();
  return c.json({ contracts: 0 });
});

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.argv[2] ?? 0) }, (info) => {
  console.log(`listening ${info.port}`);
});
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
