/** Example answers of the control operations, for the OpenAPI document (openapi/control.ts shows them). */
export const NOW = '2026-03-01T09:00:00.000Z';

export const clockState = { now: NOW, mode: 'frozen', pendingTimers: 0 };

export const delivery = {
  id: 'dlv_1a2b3c',
  webhookId: 'msg_4d5e6f',
  webhookKey: 'W1a2b3c',
  url: 'http://127.0.0.1:9000/hooks',
  event: 'contract.signed',
  status: 'delivered',
  contractKey: 'C1a2b3',
  clientKey: 'demoClient',
  cause: 'api',
  createdAt: NOW,
  attempts: [{ at: NOW, trigger: 'first', statusCode: 200, durationMs: 3.2 }],
  payload: {
    type: 'contract.signed',
    timestamp: NOW,
    data: { contractKey: 'C1a2b3', clientKey: 'demoClient', recipientKey: 'R1a2b3', status: 'Signed' },
  },
};

export const journalEntry = {
  id: 7,
  at: NOW,
  kind: 'api',
  method: 'POST',
  path: '/api/contract',
  action: 'create',
  status: 201,
  durationMs: 1.9,
  request: {
    headers: { authorization: '[redacted]', 'content-type': 'application/json' },
    body: { data: { action: 'create', contract: { name: 'NDA', value: '<p>…</p>' } } },
  },
  response: {
    body: { contract: { createTime: NOW, contractKey: 'C1a2b3' }, code: '201', message: 'Contract created' },
  },
};

export const email = {
  id: 'email-1',
  kind: 'signing_request',
  to: 'grace@example.com',
  toName: 'Grace Hopper',
  subject: 'Please sign: Service agreement',
  text: '…',
  link: 'http://127.0.0.1:4010/sharing/R1a2b3',
  contractKey: 'C1a2b3',
  clientKey: 'demoClient',
  recipientKey: 'R1a2b3',
  sentAt: NOW,
  cause: 'api',
};

export const actResult = {
  recipient: {
    recipientKey: 'R1a2b3',
    id: 1,
    fullname: 'Grace Hopper',
    email: 'grace@example.com',
    action: 'sign',
    state: 'signed',
    notifiedAt: NOW,
    seenAt: NOW,
    actedAt: NOW,
    signature: 'Grace Hopper',
    link: 'http://127.0.0.1:4010/sharing/R1a2b3',
    createTime: NOW,
    changeTime: NOW,
  },
  contract: { contractKey: 'C1a2b3', status: 'Fully signed' },
};

export const receiverFault = {
  id: 'rf_1',
  source: 'control',
  kind: 'duplicate',
  match: { event: 'contract.signed' },
  times: 1,
  seen: 0,
  hits: 0,
  exhausted: false,
};
