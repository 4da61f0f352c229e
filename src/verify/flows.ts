/**
 * The probe flows of `esign-sandbox verify` (docs/verify.md, "The flows"): one table of steps, each a request to
 * /api built from what earlier steps answered on the same side. The same table runs against the target and against
 * the sandbox, so both get the same requests, keys apart.
 */

/** The resources a user may pick with `--only`; `errors` are the documented error answers. */
export const RESOURCES = [
  'token',
  'client',
  'user',
  'template',
  'contract',
  'placeholder',
  'webhook',
  'settings',
  'errors',
  'recipient',
] as const;
export type Resource = (typeof RESOURCES)[number];

/** What a side knows while it runs: credentials, the keys its answers gave, the run's name and email. */
export type Vars = Record<string, string | undefined>;

/**
 * How a step authenticates: no credentials, the platform token, the client token, the API key header with
 * `clientKey` in the body, a made-up token, or a client token revoked by an earlier step.
 */
export type Auth = 'none' | 'platform' | 'client' | 'apiKey' | 'badToken' | 'revokedToken';

/** Something a step made on the target, which the run archives or deletes afterwards. */
export type Made = 'contract' | 'template' | 'webhook';

export interface Step {
  name: string;
  resource: Resource;
  /** The path after /api/: `contract`. */
  entity: string;
  /** `data.action` (or `data.type` for settings), as the report shows it. */
  action: string;
  auth: Auth;
  /** The variables the request needs; a side that lacks one (an earlier step failed there) skips the step. */
  needs: string[];
  body(v: Vars): unknown;
  /** Variables to keep from a successful answer. */
  keep?(answer: unknown): Vars;
  /** A thing this step makes (cleaned up afterwards) or removes (no longer to clean), by the variable naming it. */
  makes?: { kind: Made; key: string };
  removes?: { kind: Made; key: string };
  /** Runs after the clean-up (revoking the platform token ends the run). */
  last?: boolean;
}

/** The token of the "bad token" step: made up, so a transcript keeps it as it is. */
export const BAD_TOKEN = 'not-a-valid-token-esign-verify';

/** The string at a path of an answer, if there is one there. */
export function pick(value: unknown, ...path: (string | number)[]): string | undefined {
  let at = value;
  for (const step of path)
    at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[step] : undefined;
  return typeof at === 'string' ? at : undefined;
}

const data = (fields: Record<string, unknown>) => ({ data: fields });
/** A step of the usual `{data: {action, …}}` envelope, authenticated with the client token. */
function envelope(
  resource: Resource,
  entity: string,
  action: string,
  fields: (v: Vars) => Record<string, unknown>,
  extra: Partial<Step> = {},
): Step {
  return {
    name: `${entity} ${action}`,
    resource,
    entity,
    action,
    auth: 'client',
    needs: ['clientToken'],
    body: (v) => data({ action, ...fields(v) }),
    ...extra,
  };
}

/** The variable keeping the contract made for a flow (placeholders, recipients), which its steps act on. */
const flowContract = (resource: Resource) => `${resource}ContractKey`;

const contractFor = (resource: Resource, purpose: string): Step =>
  envelope(
    resource,
    'contract',
    'create',
    () => ({ contract: { name: `esign-sandbox verify: ${purpose}`, value: `<p>A contract for ${purpose}.</p>` } }),
    {
      name: `contract create (for ${purpose})`,
      keep: (a) => ({ [flowContract(resource)]: pick(a, 'contract', 'contractKey') }),
      makes: { kind: 'contract', key: flowContract(resource) },
    },
  );

/** A step of a flow on the contract made for it: `contractKey` in the body, needed before anything else. */
const onContract = (
  resource: Resource,
  action: string,
  fields: (v: Vars) => Record<string, unknown> = () => ({}),
  extra: Partial<Step> = {},
): Step =>
  envelope(resource, resource, action, (v) => ({ contractKey: v[flowContract(resource)], ...fields(v) }), {
    ...extra,
    needs: [flowContract(resource), ...(extra.needs ?? [])],
  });

/** A client token for the run's client, made with the platform token (no envelope: /api/token), kept as `key`. */
const clientTokenStep = (resource: Resource, name: string, key: string): Step => ({
  name,
  resource,
  entity: 'token',
  action: 'create',
  auth: 'platform',
  needs: ['platformToken', 'clientKey'],
  body: (v) => ({ action: 'create', clientKey: v.clientKey }),
  keep: (a) => ({ [key]: pick(a, 'access_token') }),
});

/** Revoking with the platform token the token named by the variable `token`, or the platform token itself. */
const revokeStep = (resource: Resource, name: string, token?: string): Step => ({
  name,
  resource,
  entity: 'token',
  action: 'revoke',
  auth: 'platform',
  needs: token ? ['platformToken', token] : ['platformToken'],
  body: (v) => (token ? { action: 'revoke', access_token: v[token] } : { action: 'revoke' }),
});

/** Always run: every other step needs the platform token, the run's client and its client token. */
const SETUP: Step[] = [
  {
    name: 'token create (platform)',
    resource: 'token',
    entity: 'token',
    action: 'create',
    auth: 'none',
    needs: ['apiKey', 'secret'],
    body: (v) => data({ action: 'create', apiKey: v.apiKey, secret: v.secret }),
    keep: (a) => ({ platformToken: pick(a, 'access_token') }),
  },
  {
    name: 'client create',
    resource: 'client',
    entity: 'client',
    action: 'create',
    auth: 'platform',
    needs: ['platformToken'],
    body: (v) =>
      data({
        action: 'create',
        client: {
          fullname: v.runName,
          email: v.probeEmail,
          organization: 'esign-sandbox verify',
          users: [{ fullname: 'Verify User', email: v.probeEmail }],
        },
      }),
    keep: (a) => ({ clientKey: pick(a, 'client', 'clientKey'), userKey: pick(a, 'client', 'users', 0, 'userKey') }),
  },
  clientTokenStep('token', 'token create (client)', 'clientToken'),
];

const FLOWS: Step[] = [
  envelope('token', 'user', 'list', (v) => ({ clientKey: v.clientKey }), {
    name: 'user list (API key header)',
    auth: 'apiKey',
    needs: ['apiKey', 'clientKey'],
  }),
  envelope('client', 'client', 'read', (v) => ({ client: { clientKey: v.clientKey } }), { auth: 'platform' }),
  envelope('client', 'client', 'list', () => ({}), { auth: 'platform', needs: ['platformToken'] }),
  envelope('client', 'client', 'update', (v) => ({ client: { clientKey: v.clientKey, organization: 'verified' } }), {
    auth: 'platform',
  }),
  envelope('user', 'user', 'list', () => ({})),
  envelope('user', 'user', 'create', (v) => ({ user: { fullname: 'Second User', email: v.probeEmail } }), {
    keep: (a) => ({ newUserKey: pick(a, 'user', 'userKey') }),
  }),
  envelope('user', 'user', 'read', (v) => ({ user: { userKey: v.newUserKey } }), { needs: ['newUserKey'] }),
  envelope('user', 'user', 'update', (v) => ({ user: { userKey: v.newUserKey, fullname: 'Renamed User' } }), {
    needs: ['newUserKey'],
  }),
  envelope('template', 'template', 'create', () => ({ template: { name: 'Verify template', value: '<p>Hello</p>' } }), {
    keep: (a) => ({ templateKey: pick(a, 'template', 'templateKey') }),
    makes: { kind: 'template', key: 'templateKey' },
  }),
  envelope('template', 'template', 'list', () => ({})),
  envelope('template', 'template', 'read', (v) => ({ template: { templateKey: v.templateKey } }), {
    needs: ['templateKey'],
  }),
  envelope('template', 'template', 'update', (v) => ({ template: { templateKey: v.templateKey, name: 'Renamed' } }), {
    needs: ['templateKey'],
  }),
  envelope('template', 'template', 'delete', (v) => ({ template: { templateKey: v.templateKey } }), {
    needs: ['templateKey'],
    removes: { kind: 'template', key: 'templateKey' },
  }),
  envelope('contract', 'contract', 'create', () => ({ contract: { name: 'Verify contract', value: '<p>Hello</p>' } }), {
    keep: (a) => ({ contractKey: pick(a, 'contract', 'contractKey') }),
    makes: { kind: 'contract', key: 'contractKey' },
  }),
  envelope('contract', 'contract', 'read', (v) => ({ contract: { contractKey: v.contractKey } }), {
    needs: ['contractKey'],
  }),
  envelope('contract', 'contract', 'list', () => ({})),
  envelope('contract', 'contract', 'update', (v) => ({ contract: { contractKey: v.contractKey, name: 'Renamed' } }), {
    needs: ['contractKey'],
  }),
  envelope('contract', 'contract', 'archive', (v) => ({ contract: { contractKey: v.contractKey } }), {
    needs: ['contractKey'],
    removes: { kind: 'contract', key: 'contractKey' },
  }),
  contractFor('placeholder', 'placeholders'),
  onContract('placeholder', 'create', () => ({ placeholder: { name: 'Company', value: 'Acme' } }), {
    keep: (a) => ({ placeholderKey: pick(a, 'placeholder', 'placeholderKey') }),
  }),
  onContract('placeholder', 'list'),
  onContract('placeholder', 'update', (v) => ({ placeholder: { placeholderKey: v.placeholderKey, value: 'Acme 2' } }), {
    needs: ['placeholderKey'],
  }),
  onContract('placeholder', 'delete', (v) => ({ placeholder: { placeholderKey: v.placeholderKey } }), {
    needs: ['placeholderKey'],
  }),
  // Every event flag off: the target never posts to the (unreachable, reserved) example.com address.
  envelope(
    'webhook',
    'webhook',
    'create',
    () => ({
      webhooks: [
        {
          url: 'https://example.com/esign-sandbox-verify',
          created: false,
          seen: false,
          sent: false,
          approved: false,
          signed: false,
          fullySigned: false,
        },
      ],
    }),
    {
      keep: (a) => ({ webhookKey: pick(a, 'webhooks', 0, 'webhookKey') }),
      makes: { kind: 'webhook', key: 'webhookKey' },
    },
  ),
  envelope('webhook', 'webhook', 'list', () => ({})),
  envelope('webhook', 'webhook', 'delete', (v) => ({ webhooks: [{ webhookKey: v.webhookKey }] }), {
    needs: ['webhookKey'],
    removes: { kind: 'webhook', key: 'webhookKey' },
  }),
  {
    name: 'settings email_notifications',
    resource: 'settings',
    entity: 'settings',
    action: 'email_notifications',
    auth: 'client',
    needs: ['clientToken'],
    body: () => data({ type: 'email_notifications', notification: { approved: true, signed: true } }),
  },
  envelope('errors', 'contract', 'frobnicate', () => ({}), { name: 'unknown action' }),
  envelope('errors', 'contract', 'create', () => ({ contract: { value: '<p>No name</p>' } }), {
    name: 'missing required field',
  }),
  envelope('errors', 'contract', 'list', () => ({}), { name: 'bad token', auth: 'badToken', needs: [] }),
  clientTokenStep('errors', 'token create (client, to revoke)', 'revokedToken'),
  revokeStep('errors', 'token revoke (client)', 'revokedToken'),
  envelope('errors', 'contract', 'list', () => ({}), {
    name: 'revoked token',
    auth: 'revokedToken',
    needs: ['revokedToken'],
  }),
  // Only with --send --email: the target emails the recipient.
  contractFor('recipient', 'recipients'),
  onContract(
    'recipient',
    'create',
    (v) => ({ recipients: [{ action: 'sign', fullname: 'Verify Recipient', email: v.email, position: 1 }] }),
    { needs: ['email'] },
  ),
  onContract('recipient', 'list', undefined, {
    keep: (a) => ({ recipientKey: pick(a, 'recipients', 0, 'recipientKey') }),
  }),
  onContract('recipient', 'send'),
  onContract('recipient', 'delete', (v) => ({ recipient: { recipientKey: v.recipientKey } }), {
    needs: ['recipientKey'],
  }),
  { ...revokeStep('token', 'token revoke (platform)'), last: true },
];

/**
 * The steps of one run: the set-up, then the flows of the chosen resources (all but `recipient` by default;
 * `recipient` only when sending is allowed).
 */
export function probeSteps(only: ReadonlySet<Resource> | undefined, send: boolean): Step[] {
  const chosen = (r: Resource) => (r === 'recipient' ? send && (!only || only.has(r)) : !only || only.has(r));
  return [...SETUP, ...FLOWS.filter((s) => chosen(s.resource))];
}

/** The clean-up request for a thing a run made: archive a contract, delete a template or a webhook. */
export function cleanupStep(kind: Made, key: string): Step {
  const fields = {
    contract: { action: 'archive', contract: { contractKey: key } },
    template: { action: 'delete', template: { templateKey: key } },
    webhook: { action: 'delete', webhooks: [{ webhookKey: key }] },
  }[kind];
  return {
    name: `clean-up ${kind} ${fields.action}`,
    resource: 'client',
    entity: kind,
    action: fields.action,
    auth: 'client',
    needs: ['clientToken'],
    body: () => data(fields),
  };
}
