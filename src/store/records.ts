/**
 * What the store keeps: one zod schema per record, the one home of its shape. The TypeScript types are inferred
 * from the schemas, and a snapshot or a `--data` file put back is validated by the same schemas (snapshot.ts).
 * Times are epoch milliseconds of sandbox time; responses format them. Every record that belongs to a tenant
 * carries its `platformId`, so one platform never sees another's data.
 */
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import {
  CONTRACT_STATUSES,
  RECIPIENT_ROLES,
  RECIPIENT_SPECIAL_TYPES,
  RECIPIENT_STATES,
  SHARE_LINK_ACCESS_CODES,
  CONTENT_TYPES,
  webhookFlags,
} from '../core/vocabulary.js';

/**
 * The schemas, built together on first use (lazy, one device for the whole module: a start builds none of them;
 * docs/benchmarks.md, "Performance devices"). Read them as `recordSchemas().collections.contracts`.
 */
export const recordSchemas = lazy(() => {
  const fields = fieldKinds();
  const { platform, notification, branding, client, user, token, webhook } = accountSchemas(fields);
  const { historyEntry, contract, template } = contractSchemas(fields);
  const { recipient, shareLink } = recipientSchemas(fields);
  const { insertion, placeholder } = placeholderSchemas(fields);

  /** Each collection's record, by the collection's name. */
  const collections = {
    platforms: platform,
    clients: client,
    users: user,
    contracts: contract,
    recipients: recipient,
    placeholders: placeholder,
    templates: template,
    webhooks: webhook,
    tokens: token,
    shareLinks: shareLink,
  };
  return { collections, historyEntry, documentRef: fields.documentRef, notification, branding, insertion };
});

/** The kinds of field the records are made of. */
function fieldKinds() {
  const time = z.number().finite();
  const key = z.string().min(1);
  const text = z.string().optional();
  const owned = { platformId: key, createTime: time, changeTime: time };
  /** What belongs to one contract of one client. */
  const ofContract = { contractKey: key, clientKey: key, ...owned };
  /**
   * An uploaded PDF as a record refers to it: the bytes live in the document store (store/documents.ts) under the
   * owning platform, addressed by their SHA-256, so a converted or duplicated contract shares them.
   */
  const documentRef = z.object({
    /** SHA-256 of the file, hex: its address in the document store. */
    sha256: z.string(),
    bytes: z.number().int(),
    /** Each page's size in PDF points (1/72 inch), in page order. */
    pages: z.array(z.object({ width: z.number(), height: z.number() })),
  });
  return { time, key, text, owned, ofContract, documentRef };
}

type FieldKinds = ReturnType<typeof fieldKinds>;

/** Who calls the API and how: a platform, its clients and their users, the tokens they hold, a client's webhooks. */
function accountSchemas({ time, key, text, owned }: FieldKinds) {
  const platform = z.object({ platformId: key, apiKey: key, secret: key, name: text, createTime: time });

  const notification = z.object({ approved: z.boolean(), signed: z.boolean() });
  /** Settings `brandings` [D:settings/branding]: stored as given. */
  const branding = z.object({
    emailFrom: text,
    emailDomain: text,
    recipientLinkDomain: text,
    emailExplainer: text,
    emailLogo: text,
    emailButtonColor: text,
    recipientPageBranding: z.boolean().optional(),
  });
  const client = z.object({
    clientKey: key,
    ...owned,
    fullname: text,
    email: text,
    organization: text,
    customKey: text,
    notification,
    branding: branding.optional(),
  });

  const user = z.object({
    userKey: key,
    clientKey: key,
    ...owned,
    fullname: text,
    email: text,
    customKey: text,
    default: z.boolean(),
  });

  const token = z.object({
    token: key,
    kind: z.enum(['platform', 'client']),
    platformId: key,
    clientKey: text,
    issuedAt: time,
    expiresAt: time,
    revokedAt: time.optional(),
  });

  /** A client's webhook: its URL, secret, and one boolean per event flag (WEBHOOK_FLAGS). */
  const webhook = z.object({
    webhookKey: key,
    clientKey: key,
    ...owned,
    url: z.string(),
    secret: z.string(),
    ...webhookFlags(() => z.boolean()),
  });
  return { platform, notification, branding, client, user, token, webhook };
}

/** What is signed: a contract with its history, and the template it may come from. */
function contractSchemas({ time, key, text, owned, documentRef }: FieldKinds) {
  const historyEntry = z.object({
    at: time,
    /** What happened, e.g. `created`, `sent`, `seen`, `signed`, `archived` (the steps are the statuses' own events: `stepStatusId`). */
    event: z.string(),
    recipientKey: text,
    status: z.enum(CONTRACT_STATUSES).optional(),
    /** Who or what caused it: `api`, `control`, or a scenario rule/step. */
    cause: text,
    /** The address of the request that made the step (a page in a browser; `127.0.0.1` for control and scenarios). */
    ip: text,
    detail: z.record(z.string(), z.unknown()).optional(),
  });

  const contract = z.object({
    contractKey: key,
    clientKey: key,
    userKey: key,
    ...owned,
    name: z.string(),
    value: z.string(),
    templateKey: text,
    /**
     * `html` (content in `value`; also when absent, as on older records), `pdf` (an uploaded file, `document`), or
     * the text form a client gave (`docx`, `empty`, `ai`).
     */
    contractType: text,
    /** The uploaded PDF of a `pdf` contract, once uploaded. */
    document: documentRef.optional(),
    status: z.enum(CONTRACT_STATUSES),
    /** Next recipient `id` inside this contract (ids are sequential per contract). */
    nextRecipientId: z.number().int(),
    /** Next ordinary placeholder position inside this contract. */
    nextPlaceholderPosition: z.number().int(),
    history: z.array(historyEntry),
  });

  const template = z.object({
    templateKey: key,
    clientKey: key,
    userKey: key,
    ...owned,
    name: z.string(),
    value: z.string(),
    /** As on contracts: `html` unless a PDF was uploaded to the template. */
    contractType: z.enum(CONTENT_TYPES).optional(),
    document: documentRef.optional(),
    nextPlaceholderPosition: z.number().int(),
  });
  return { historyEntry, contract, template };
}

/** Who signs a contract, and the extra links that open it. */
function recipientSchemas({ time, key, text, ofContract }: FieldKinds) {
  const recipient = z.object({
    recipientKey: key,
    ...ofContract,
    id: z.number().int(),
    fullname: text,
    email: text,
    customMessage: text,
    position: z.number().int().optional(),
    /** The real service's RecipientType: an internal (user of the client) or external recipient. */
    type: z.enum(['internal', 'external']).optional(),
    action: z.enum(RECIPIENT_ROLES),
    state: z.enum(RECIPIENT_STATES),
    notifiedAt: time.optional(),
    seenAt: time.optional(),
    actedAt: time.optional(),
    signature: text,
  });

  /**
   * An extra share link of a contract, made with `contract_share_link` [C:share-link-block.tsx]. A recipient's own
   * link is its recipientKey and is not stored here.
   */
  const shareLink = z.object({
    shareLink: key,
    ...ofContract,
    /** Sequential per contract. */
    id: z.number().int(),
    /** The owner's control link (its own key). */
    controlLink: key,
    /** ShareLinkAccess (SHARE_LINK_ACCESS). */
    view: z.enum(SHARE_LINK_ACCESS_CODES),
    /** The recipient the link opened as first; from then on it opens and acts as that recipient only. */
    recipientKey: key.optional(),
  });
  return { recipient, shareLink };
}

/** The fields of a contract or template, and where each is placed on the page. */
function placeholderSchemas({ key, text, owned }: FieldKinds) {
  /** A placement of a placeholder as the store keeps it (the API answers it in the same shape, closed). */
  const insertion = z.object({
    id: z.string(),
    pageId: text,
    width: text,
    height: text,
    positionX: text,
    positionY: text,
    action: text,
    clientKey: text,
  });

  const placeholder = z.object({
    placeholderKey: key,
    /** Owner: a contract or a template (templates keep placeholders when converted or duplicated). */
    contractKey: text,
    templateKey: text,
    clientKey: key,
    ...owned,
    id: z.string(),
    name: z.string(),
    value: z.string(),
    type: z.string(),
    position: z.number(),
    isSpecial: z.boolean(),
    specialType: z.literal(RECIPIENT_SPECIAL_TYPES).optional(),
    recipientKey: text,
    /** A table placeholder: `value` holds the table as JSON `{columns, rows}`. */
    isTable: z.boolean().optional(),
    /** PlaceholderFill: 1 none, 2 creator, 3 any, 4 specific recipient (`externalRecipientKey`). */
    fillingType: text,
    externalRecipientKey: text,
    insertion: z.array(insertion),
  });
  return { insertion, placeholder };
}

type Schemas = ReturnType<typeof recordSchemas>;
type Collections = Schemas['collections'];

export type PlatformRecord = z.infer<Collections['platforms']>;
export type ClientRecord = z.infer<Collections['clients']>;
export type EmailNotificationSettings = z.infer<Schemas['notification']>;
export type BrandingSettings = z.infer<Schemas['branding']>;
export type UserRecord = z.infer<Collections['users']>;
export type HistoryEntry = z.infer<Schemas['historyEntry']>;
export type DocumentRef = z.infer<Schemas['documentRef']>;
export type ContractRecord = z.infer<Collections['contracts']>;
export type RecipientRecord = z.infer<Collections['recipients']>;
export type InsertionRecord = z.infer<Schemas['insertion']>;
export type PlaceholderRecord = z.infer<Collections['placeholders']>;
export type TemplateRecord = z.infer<Collections['templates']>;
export type WebhookRecord = z.infer<Collections['webhooks']>;
export type TokenRecord = z.infer<Collections['tokens']>;
export type TokenKind = TokenRecord['kind'];
export type ShareLinkRecord = z.infer<Collections['shareLinks']>;

export const COLLECTIONS = [
  'platforms',
  'clients',
  'users',
  'contracts',
  'recipients',
  'placeholders',
  'templates',
  'webhooks',
  'tokens',
  'shareLinks',
] as const satisfies readonly (keyof Collections)[];

export type CollectionName = (typeof COLLECTIONS)[number];

/** The whole persisted state: one object per collection, keyed by the record's key. */
export type StoreData = { version: 1 } & { [K in CollectionName]: Record<string, z.infer<Collections[K]>> };

export function emptyData(): StoreData {
  return {
    version: 1,
    platforms: {},
    clients: {},
    users: {},
    contracts: {},
    recipients: {},
    placeholders: {},
    templates: {},
    webhooks: {},
    tokens: {},
    shareLinks: {},
  };
}
