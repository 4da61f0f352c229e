/**
 * What the store keeps. Times are epoch milliseconds of sandbox time; responses format them.
 * Every record that belongs to a tenant carries its `platformId`, so one platform never sees another's data.
 */
import type {
  ContractStatus,
  RecipientRole,
  RecipientSpecialType,
  RecipientState,
  ShareLinkView,
  WebhookFlag,
} from '../core/vocabulary.js';

export interface PlatformRecord {
  platformId: string;
  apiKey: string;
  secret: string;
  name?: string;
  createTime: number;
}

export interface EmailNotificationSettings {
  approved: boolean;
  signed: boolean;
}

/** Settings `brandings` [D:settings/branding]: stored as given. */
export interface BrandingSettings {
  emailFrom?: string | undefined;
  emailDomain?: string | undefined;
  recipientLinkDomain?: string | undefined;
  emailExplainer?: string | undefined;
  emailLogo?: string | undefined;
  emailButtonColor?: string | undefined;
  recipientPageBranding?: boolean | undefined;
}

export interface ClientRecord {
  clientKey: string;
  platformId: string;
  fullname?: string;
  email?: string;
  organization?: string;
  customKey?: string;
  notification: EmailNotificationSettings;
  branding?: BrandingSettings;
  createTime: number;
  changeTime: number;
}

export interface UserRecord {
  userKey: string;
  clientKey: string;
  platformId: string;
  fullname?: string;
  email?: string;
  customKey?: string;
  default: boolean;
  createTime: number;
  changeTime: number;
}

export interface HistoryEntry {
  at: number;
  /** What happened, e.g. `created`, `sent`, `seen`, `signed`, `archived`. */
  event: string;
  recipientKey?: string;
  status?: ContractStatus;
  /** Who or what caused it: `api`, `control`, or a scenario rule/step. */
  cause?: string;
  /** The address of the request that made a recipient act (its page in a browser; `127.0.0.1` for control and scenarios). */
  ip?: string;
  detail?: Record<string, unknown>;
}

export type ContractType = 'html' | 'pdf';

/**
 * An uploaded PDF as a record refers to it: the bytes live in the document store (store/documents.ts) under the
 * owning platform, addressed by their SHA-256, so a converted or duplicated contract shares them.
 */
export interface DocumentRef {
  /** SHA-256 of the file, hex: its address in the document store. */
  sha256: string;
  bytes: number;
  /** Each page's size in PDF points (1/72 inch), in page order. */
  pages: { width: number; height: number }[];
}

export interface ContractRecord {
  contractKey: string;
  clientKey: string;
  platformId: string;
  userKey: string;
  name: string;
  value: string;
  templateKey?: string;
  /**
   * `html` (content in `value`; also when absent, as on older records), `pdf` (an uploaded file, `document`), or the
   * text form a client gave (`docx`, `empty`, `ai`).
   */
  contractType?: string;
  /** The uploaded PDF of a `pdf` contract, once uploaded. */
  document?: DocumentRef;
  status: ContractStatus;
  /** Next recipient `id` inside this contract (ids are sequential per contract). */
  nextRecipientId: number;
  /** Next ordinary placeholder position inside this contract. */
  nextPlaceholderPosition: number;
  createTime: number;
  changeTime: number;
  history: HistoryEntry[];
}

export interface RecipientRecord {
  recipientKey: string;
  contractKey: string;
  clientKey: string;
  platformId: string;
  id: number;
  fullname?: string;
  email?: string;
  customMessage?: string;
  position?: number;
  /** The real service's RecipientType: an internal (user of the client) or external recipient. */
  type?: 'internal' | 'external';
  action: RecipientRole;
  state: RecipientState;
  notifiedAt?: number;
  seenAt?: number;
  actedAt?: number;
  signature?: string;
  createTime: number;
  changeTime: number;
}

export interface InsertionRecord {
  id: string;
  pageId?: string;
  width?: string;
  height?: string;
  positionX?: string;
  positionY?: string;
  action?: string;
  clientKey?: string;
}

export interface PlaceholderRecord {
  placeholderKey: string;
  /** Owner: a contract or a template (templates keep placeholders when converted or duplicated). */
  contractKey?: string;
  templateKey?: string;
  clientKey: string;
  platformId: string;
  id: string;
  name: string;
  value: string;
  type: string;
  position: number;
  isSpecial: boolean;
  specialType?: RecipientSpecialType;
  recipientKey?: string;
  /** A table placeholder: `value` holds the table as JSON `{columns, rows}`. */
  isTable?: boolean;
  /** PlaceholderFill: 1 none, 2 creator, 3 any, 4 specific recipient (`externalRecipientKey`). */
  fillingType?: string;
  externalRecipientKey?: string;
  insertion: InsertionRecord[];
  createTime: number;
  changeTime: number;
}

export interface TemplateRecord {
  templateKey: string;
  clientKey: string;
  platformId: string;
  userKey: string;
  name: string;
  value: string;
  /** As on contracts: `html` unless a PDF was uploaded to the template. */
  contractType?: ContractType;
  document?: DocumentRef;
  nextPlaceholderPosition: number;
  createTime: number;
  changeTime: number;
}

/** A client's webhook: its URL, secret, and one boolean per event flag (WEBHOOK_FLAGS). */
export interface WebhookRecord extends Record<WebhookFlag, boolean> {
  webhookKey: string;
  clientKey: string;
  platformId: string;
  url: string;
  secret: string;
  createTime: number;
  changeTime: number;
}

/**
 * An extra share link of a contract, made with `contract_share_link` [C:share-link-block.tsx]. A recipient's own
 * link is its recipientKey and is not stored here.
 */
export interface ShareLinkRecord {
  shareLink: string;
  contractKey: string;
  clientKey: string;
  platformId: string;
  /** Sequential per contract. */
  id: number;
  /** The owner's control link (its own key). */
  controlLink: string;
  /** ShareLinkView [C:enum.ts]: '1' sign, '2' approve, '3' lock, '4' view. */
  view: ShareLinkView;
  createTime: number;
  changeTime: number;
}

export type TokenKind = 'platform' | 'client';

export interface TokenRecord {
  token: string;
  kind: TokenKind;
  platformId: string;
  clientKey?: string;
  issuedAt: number;
  expiresAt: number;
  revokedAt?: number;
}

/** The whole persisted state: one object per collection, keyed by the record's key. */
export interface StoreData {
  version: 1;
  platforms: Record<string, PlatformRecord>;
  clients: Record<string, ClientRecord>;
  users: Record<string, UserRecord>;
  contracts: Record<string, ContractRecord>;
  recipients: Record<string, RecipientRecord>;
  placeholders: Record<string, PlaceholderRecord>;
  templates: Record<string, TemplateRecord>;
  webhooks: Record<string, WebhookRecord>;
  tokens: Record<string, TokenRecord>;
  shareLinks: Record<string, ShareLinkRecord>;
}

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
] as const;

export type CollectionName = (typeof COLLECTIONS)[number];

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
