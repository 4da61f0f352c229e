/**
 * Seed data. Fixture files (YAML or JSON) describe platforms with their clients, users, templates, contracts
 * and webhooks; keys may be given (stable keys for docs and tests) or left to the sandbox. A client may ask
 * for generated records (`generate: {contracts: 50}`); those come from faker with a fixed seed, and faker is
 * imported only when a fixture asks for generated data, to keep it off the start path.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { z } from 'zod';
import type { OpContext, Services } from '../context.js';
import { systemContext } from '../context.js';
import { createContract } from '../domain/contracts.js';
import { sendContract } from '../domain/lifecycle.js';
import { addRecipient } from '../domain/recipients.js';
import { createWebhook } from '../resources/webhook.js';
import { parseWith } from '../http/validation.js';
import type { ClientRecord, PlatformRecord } from './records.js';
import { checkedFixture, parseYaml } from './yaml-parse.js';
import { lazy } from '../lazy.js';

export const keyPattern = lazy(() => z.string().regex(/^[A-Za-z0-9]+$/, 'Keys are letters and digits only'));

const recipientFixture = lazy(() => z.strictObject({
  fullname: z.string().optional(),
  email: z.email(),
  action: z.enum(['view', 'sign', 'approve', 'lock']).optional(),
  position: z.number().int().min(0).optional(),
  customMessage: z.string().optional(),
}));

export const contractFixture = lazy(() => z.strictObject({
  contractKey: keyPattern().optional(),
  name: z.string().min(1),
  value: z.string().optional(),
  templateKey: keyPattern().optional(),
  recipients: z.array(recipientFixture()).optional(),
  /** Send the contract after seeding (recipients are notified as by `send`). */
  send: z.boolean().optional(),
}));

const webhookFixture = lazy(() => z.strictObject({
  url: z.url(),
  created: z.boolean().optional(),
  seen: z.boolean().optional(),
  sent: z.boolean().optional(),
  approved: z.boolean().optional(),
  signed: z.boolean().optional(),
  fullySigned: z.boolean().optional(),
}));

export const clientFixture = lazy(() => z.strictObject({
  clientKey: keyPattern().optional(),
  fullname: z.string().optional(),
  email: z.string().optional(),
  organization: z.string().optional(),
  customKey: z.string().optional(),
  notification: z.strictObject({ approved: z.boolean(), signed: z.boolean() }).optional(),
  users: z
    .array(
      z.strictObject({
        userKey: keyPattern().optional(),
        fullname: z.string().optional(),
        email: z.string().optional(),
        customKey: z.string().optional(),
        default: z.boolean().optional(),
      }),
    )
    .optional(),
  templates: z.array(z.strictObject({ templateKey: keyPattern().optional(), name: z.string().min(1), value: z.string() })).optional(),
  contracts: z.array(contractFixture()).optional(),
  webhooks: z.array(webhookFixture()).optional(),
  generate: z
    .strictObject({
      contracts: z.number().int().min(0).max(1_000_000),
      recipientsPerContract: z.number().int().min(0).max(20).optional(),
    })
    .optional(),
}));

const platformFixture = lazy(() => z.strictObject({
  apiKey: z.string().min(1),
  secret: z.string().min(1),
  name: z.string().optional(),
  clients: z.array(clientFixture()).optional(),
}));

export const fixtureFileSchema = lazy(() => z.strictObject({
  $schema: z.string().optional(),
  platforms: z.array(platformFixture()).default([]),
}));

export type FixtureFile = z.infer<ReturnType<typeof fixtureFileSchema>>;
export type ClientFixture = z.infer<ReturnType<typeof clientFixture>>;

/** Reads fixture files from a file or a folder (every .yaml, .yml and .json in it, by name). */
export async function readFixtures(path: string): Promise<FixtureFile[]> {
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((f) => /\.(ya?ml|json)$/i.test(f))
        .sort()
        .map((f) => join(path, f))
    : [path];
  const out: FixtureFile[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const yaml = extname(file).toLowerCase() !== '.json';
    // A bundled fixture file, unchanged since the build validated it with this schema (yaml-parse.ts).
    const checked = yaml ? checkedFixture(text) : undefined;
    if (checked !== undefined) {
      out.push(checked as FixtureFile);
      continue;
    }
    let raw: unknown;
    try {
      raw = yaml ? await parseYaml(text) : JSON.parse(text);
    } catch (error) {
      throw new Error(`Fixture file ${file} could not be parsed: ${(error as Error).message}`);
    }
    try {
      out.push(parseWith(fixtureFileSchema(), raw ?? {}));
    } catch (error) {
      const details = (error as { errors?: { path: string; message: string }[] }).errors ?? [];
      throw new Error(`Fixture file ${file} is invalid:\n${details.map((e) => `  ${e.path}: ${e.message}`).join('\n')}`);
    }
  }
  return out;
}

export interface SeedOptions {
  /** Override the first platform's credentials (the CLI's --api-key / --secret). */
  apiKey?: string | undefined;
  secret?: string | undefined;
  /** Seed for generated records; the same seed gives the same records. */
  seed?: number | undefined;
}

export interface SeedResult {
  /** The first platform: the one the CLI prints and the library returns. */
  defaultPlatform?: PlatformRecord;
  /** The first client of the first platform. */
  defaultClient?: ClientRecord;
}

/** Applies fixtures to an empty store. Events are muted: seeding fires no webhooks and sends no emails. */
export async function applyFixtures(services: Services, files: FixtureFile[], options: SeedOptions = {}): Promise<SeedResult> {
  const needsFaker = files.some((f) => f.platforms.some((p) => p.clients?.some((c) => (c.generate?.contracts ?? 0) > 0)));
  const faker = needsFaker ? await makeFaker(options.seed ?? DEFAULT_FAKER_SEED) : undefined;
  const ctx = systemContext(services, 'fixtures');
  const result: SeedResult = {};
  services.bus.muteWhile(() => {
    files.forEach((file, fileIndex) =>
      file.platforms.forEach((p, platformIndex) => {
        const first = fileIndex === 0 && platformIndex === 0;
        const platform = services.store.platforms.insert({
          platformId: services.ids.key(),
          apiKey: first && options.apiKey ? options.apiKey : p.apiKey,
          secret: first && options.secret ? options.secret : p.secret,
          ...(p.name ? { name: p.name } : {}),
          createTime: services.clock.now(),
        });
        result.defaultPlatform ??= platform;
        for (const c of p.clients ?? []) {
          const client = seedClient(ctx, platform, c, faker);
          if (platform === result.defaultPlatform) result.defaultClient ??= client;
        }
      }),
    );
  });
  return result;
}

export const DEFAULT_FAKER_SEED = 42;

type FakerLike = Awaited<ReturnType<typeof makeFaker>>;

async function makeFaker(seed: number) {
  const { Faker, en } = await import('@faker-js/faker');
  const faker = new Faker({ locale: [en] });
  faker.seed(seed);
  return faker;
}

/**
 * Adds clients with their records to a platform (scenario data). A client whose clientKey already exists on the
 * platform gets the listed users, templates, contracts and webhooks added to it. Unlike fixtures, events are not
 * muted: the caller decides (scenarios let sent contracts notify recipients and fire webhooks).
 */
export async function seedClients(ctx: OpContext, platform: PlatformRecord, clients: ClientFixture[], seed?: number): Promise<ClientRecord[]> {
  const faker = clients.some((c) => (c.generate?.contracts ?? 0) > 0) ? await makeFaker(seed ?? DEFAULT_FAKER_SEED) : undefined;
  return clients.map((c) => seedClient(ctx, platform, c, faker));
}

/** seedClients for records that need no generated data (one contract from a scenario step). */
export function seedClientsNow(ctx: OpContext, platform: PlatformRecord, clients: ClientFixture[]): ClientRecord[] {
  return clients.map((c) => seedClient(ctx, platform, { ...c, generate: undefined }, undefined));
}

function seedClient(ctx: OpContext, platform: PlatformRecord, c: ClientFixture, faker: FakerLike | undefined): ClientRecord {
  const { store, ids, clock } = ctx;
  const now = clock.now();
  const existing = c.clientKey !== undefined ? store.clients.get(c.clientKey) : undefined;
  if (existing && existing.platformId !== platform.platformId) throw new Error(`clientKey ${c.clientKey} is taken by another platform`);
  if (existing) return seedClientRecords(ctx, platform, existing, c, faker, c.users ?? []);
  const client = store.clients.insert({
    clientKey: c.clientKey ?? ids.key(),
    platformId: platform.platformId,
    ...defined({ fullname: c.fullname, email: c.email, organization: c.organization, customKey: c.customKey }),
    notification: c.notification ?? { approved: true, signed: true },
    createTime: now,
    changeTime: now,
  });
  return seedClientRecords(ctx, platform, client, c, faker, c.users?.length ? c.users : [{ fullname: c.fullname, email: c.email }]);
}

function seedClientRecords(
  ctx: OpContext,
  platform: PlatformRecord,
  client: ClientRecord,
  c: ClientFixture,
  faker: FakerLike | undefined,
  users: { userKey?: string | undefined; fullname?: string | undefined; email?: string | undefined; customKey?: string | undefined; default?: boolean | undefined }[],
): ClientRecord {
  const { store, ids, clock } = ctx;
  const now = clock.now();
  const before = store.users.where('client', client.clientKey).length;
  const explicitDefault = users.findIndex((u) => u.default);
  // A client that already has users keeps its default unless the new users name one.
  const defaultIndex = before > 0 && explicitDefault < 0 ? -1 : Math.max(0, explicitDefault);
  if (defaultIndex >= 0) for (const u of store.users.where('client', client.clientKey)) store.users.update(u.userKey, { default: false });
  users.forEach((u, i) =>
    store.users.insert({
      userKey: u.userKey ?? ids.key(),
      clientKey: client.clientKey,
      platformId: platform.platformId,
      ...defined({ fullname: u.fullname, email: u.email, customKey: u.customKey }),
      default: i === defaultIndex,
      createTime: now,
      changeTime: now,
    }),
  );
  const userKey = store.users.where('client', client.clientKey).find((u) => u.default)!.userKey;
  for (const t of c.templates ?? []) {
    store.templates.insert({
      templateKey: t.templateKey ?? ids.key(),
      clientKey: client.clientKey,
      platformId: platform.platformId,
      userKey,
      name: t.name,
      value: t.value,
      nextPlaceholderPosition: 1,
      createTime: now,
      changeTime: now,
    });
  }
  const opCtx: OpContext = { ...ctx, client };
  // Webhooks first, so contracts sent by scenario data reach them.
  for (const w of c.webhooks ?? []) createWebhook(opCtx, client, w);
  const contracts = [...(c.contracts ?? []), ...generateContracts(c, faker)];
  for (const spec of contracts) {
    const keyed = spec.contractKey ? withFirstKey(opCtx, spec.contractKey) : opCtx;
    const contract = createContract(keyed, client, { name: spec.name, value: spec.templateKey ? undefined : (spec.value ?? ''), templateKey: spec.templateKey, userKey });
    for (const r of spec.recipients ?? []) addRecipient(opCtx, store.contracts.get(contract.contractKey)!, client, r);
    if (spec.send) sendContract(opCtx, store.contracts.get(contract.contractKey)!);
  }
  return client;
}

function generateContracts(c: ClientFixture, faker: FakerLike | undefined): z.infer<ReturnType<typeof contractFixture>>[] {
  const count = c.generate?.contracts ?? 0;
  if (!faker || count === 0) return [];
  const perContract = c.generate?.recipientsPerContract ?? 2;
  return Array.from({ length: count }, () => ({
    name: `${faker.company.name()} ${faker.helpers.arrayElement(['service agreement', 'NDA', 'order form', 'lease', 'employment contract'])}`,
    value: `<h1>${faker.commerce.productName()}</h1><p>${faker.lorem.paragraph()}</p>`,
    recipients: Array.from({ length: perContract }, (_, i) => {
      const first = faker.person.firstName();
      const last = faker.person.lastName();
      return { fullname: `${first} ${last}`, email: faker.internet.email({ firstName: first, lastName: last }).toLowerCase(), action: 'sign' as const, position: i + 1 };
    }),
  }));
}

/** A context whose next generated key is `key` (fixtures that fix a record's key). */
function withFirstKey(ctx: OpContext, key: string): OpContext {
  let used = false;
  return { ...ctx, ids: { ...ctx.ids, key: (length?: number) => (used ? ctx.ids.key(length) : ((used = true), key)) } };
}

function defined<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}
