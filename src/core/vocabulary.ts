/**
 * The domain's words, each spelled once: contract statuses, recipient roles, states and what each role does when it
 * acts, the contract history's events, the special placeholder types, share-link access codes, contract types, and
 * the contract events with the webhook flags that subscribe to them. Every room
 * imports them from here (the store types its records by them, so they live below the store, in core/). What the
 * words mean and how a contract moves between them is docs/lifecycle.md; the rules themselves are in domain/.
 */

// ---- contract statuses (docs/lifecycle.md, "Contract status") ------------------------------------------------

/** Every contract status, in the order of the status dictionary (`GET /api/event_status` ids 1–7). */
export const CONTRACT_STATUSES = ['Created', 'Sent', 'Seen', 'Approved', 'Signed', 'Fully signed', 'Archived'] as const;

export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

/** The statuses by name, for code that speaks of one: `STATUS.fullySigned`. */
export const STATUS = {
  created: 'Created',
  sent: 'Sent',
  seen: 'Seen',
  approved: 'Approved',
  signed: 'Signed',
  fullySigned: 'Fully signed',
  archived: 'Archived',
} as const satisfies Record<string, ContractStatus>;

/** The status's id in the status dictionary (`Created` → 1 … `Archived` → 7), or undefined for an unknown name. */
export function statusId(name: string): number | undefined {
  const i = (CONTRACT_STATUSES as readonly string[]).indexOf(name);
  return i < 0 ? undefined : i + 1;
}

// ---- contract history (docs/lifecycle.md, "The audit trail") -------------------------------------------------

/**
 * Every event a contract's history records, by name, for code that writes or looks for one: `HISTORY.fullySigned`.
 * The acts of recipients are their roles' past tense (`ROLE_OUTCOME`); the rest are the owner's and the sandbox's.
 */
export const HISTORY = {
  created: 'created',
  sent: 'sent',
  notified: 'notified',
  seen: 'seen',
  signed: 'signed',
  approved: 'approved',
  locked: 'locked',
  viewed: 'viewed',
  fullySigned: 'fully_signed',
  archived: 'archived',
  /** The owner changed the contract (`detail.changed` names the fields). */
  updated: 'updated',
  recipientsAdded: 'recipients_added',
  recipientUpdated: 'recipient_updated',
  recipientDeleted: 'recipient_deleted',
  /** A recipient filled its placeholders through `recipient_placeholder`. */
  recipientFilled: 'recipient_filled',
  /** A recipient's client saved the HTML it shows (`recipient_contract` POST): noted, not applied. */
  recipientHtml: 'recipient_html',
} as const;

export type HistoryEvent = (typeof HISTORY)[keyof typeof HISTORY];

/**
 * The status id a history event stands for when it is a lifecycle step (an entry of the audit trail,
 * docs/lifecycle.md): each status's own event (`HISTORY.fullySigned` for `STATUS.fullySigned`). Other history
 * events (`notified`, `locked`, `viewed`, `updated`, …) are not steps: undefined.
 */
export function stepStatusId(event: string): number | undefined {
  const name = (Object.keys(STATUS) as (keyof typeof STATUS)[]).find((k) => HISTORY[k] === event);
  return name === undefined ? undefined : statusId(STATUS[name]);
}

// ---- recipients (docs/lifecycle.md, "Recipient states") ------------------------------------------------------

/** A recipient's `action`: its role, and the verb that completes its part. */
export const RECIPIENT_ROLES = ['view', 'sign', 'approve', 'lock'] as const;

export type RecipientRole = (typeof RECIPIENT_ROLES)[number];

/** Where a recipient stands in the lifecycle. */
export const RECIPIENT_STATES = ['waiting', 'notified', 'seen', 'signed', 'approved', 'locked', 'viewed'] as const;

export type RecipientState = (typeof RECIPIENT_STATES)[number];

/**
 * What each role does when it acts, spelled once: `done` is the past tense, which is at once the recipient's state
 * afterwards, the history event of the act and the word people read ("Ann signed"); `status` is the contract status
 * the act stands for. `lock` and `view` carry no status of their own (the service names none): they count as the
 * view they imply.
 */
export const ROLE_OUTCOME = {
  sign: { done: 'signed', status: 'Signed' },
  approve: { done: 'approved', status: 'Approved' },
  lock: { done: 'locked', status: 'Seen' },
  view: { done: 'viewed', status: 'Seen' },
} as const satisfies Record<RecipientRole, { done: RecipientState & HistoryEvent; status: ContractStatus }>;

/** A role's past tense: `sign` → `signed`. */
export function pastTense(role: RecipientRole): (typeof ROLE_OUTCOME)[RecipientRole]['done'] {
  return ROLE_OUTCOME[role].done;
}

/** Whether a recipient in this state has finished its part (its state is its role's outcome). */
export function isOutcomeState(state: RecipientState): boolean {
  return Object.values(ROLE_OUTCOME).some((o) => o.done === state);
}

// ---- special placeholders (docs/lifecycle.md, "Special placeholders") -----------------------------------------

/**
 * The service's special placeholder types by code. Each recipient gets the first four, keyed
 * `<recipientKey>_<code>`; 5 (initials) is the service's, which the documented API never creates.
 */
export const SPECIAL_TYPES = {
  1: 'Date signed',
  2: 'Full name',
  3: 'Email',
  4: 'Signature',
  5: 'Initials',
} as const;

export type SpecialType = keyof typeof SPECIAL_TYPES;

/** The codes by name, for code that speaks of one: `SPECIAL.signature`. */
export const SPECIAL = { date: 1, fullName: 2, email: 3, signature: 4, initials: 5 } as const satisfies Record<
  string,
  SpecialType
>;

/** The special placeholders every recipient gets, in code order. */
export const RECIPIENT_SPECIAL_TYPES = [1, 2, 3, 4] as const;

export type RecipientSpecialType = (typeof RECIPIENT_SPECIAL_TYPES)[number];

/** A recipient's special placeholder key: `<recipientKey>_<code>`. */
export function specialKey(recipientKey: string, code: SpecialType): string {
  return `${recipientKey}_${code}`;
}

/**
 * The type of a special placeholder: its `specialType`, else the code its key ends with (`<recipientKey>_<code>`),
 * so every reader agrees even on a record written without the field. Undefined for an ordinary placeholder.
 */
export function specialTypeOf(p: {
  placeholderKey: string;
  specialType?: number | undefined;
}): SpecialType | undefined {
  const code = p.specialType ?? Number(/_(\d)$/.exec(p.placeholderKey)?.[1]);
  return code in SPECIAL_TYPES ? (code as SpecialType) : undefined;
}

/** A special placeholder's name as people read it (`Signature`), or `Special placeholder` for an unknown code. */
export function specialTypeName(p: { placeholderKey: string; specialType?: number | undefined }): string {
  const code = specialTypeOf(p);
  return code === undefined ? 'Special placeholder' : SPECIAL_TYPES[code];
}

// ---- share links -----------------------------------------------------------------------------------------------

/**
 * What a share link lets its holder do, by the code the API speaks: the wire field `view` of a share link (the
 * vendor's enum ShareLinkView), named here after what it holds, not after the recipient act "view".
 */
export const SHARE_LINK_ACCESS = { '1': 'sign', '2': 'approve', '3': 'lock', '4': 'view' } as const satisfies Record<
  string,
  RecipientRole
>;

export type ShareLinkAccess = keyof typeof SHARE_LINK_ACCESS;

export const SHARE_LINK_ACCESS_CODES = Object.keys(SHARE_LINK_ACCESS) as [ShareLinkAccess, ...ShareLinkAccess[]];

/** The access of a recipient's own link (its recipient key): the code that stands for its role. */
export const SHARE_LINK_ACCESS_OF_ROLE = {
  sign: '1',
  approve: '2',
  lock: '3',
  view: '4',
} as const satisfies Record<RecipientRole, ShareLinkAccess>;

// ---- contract events and webhook flags (docs/webhooks.md) -----------------------------------------------------

/** The contract events the sandbox emits, in the order one action emits them. */
export const CONTRACT_EVENT_TYPES = [
  'contract.created',
  'contract.sent',
  'contract.seen',
  'contract.signed',
  'contract.approved',
  'contract.fully_signed',
] as const;

export type ContractEventType = (typeof CONTRACT_EVENT_TYPES)[number];

/** The webhook flag that subscribes to each event kind: a webhook record's booleans. */
export const WEBHOOK_FLAG_FOR = {
  'contract.created': 'created',
  'contract.sent': 'sent',
  'contract.seen': 'seen',
  'contract.signed': 'signed',
  'contract.approved': 'approved',
  'contract.fully_signed': 'fullySigned',
} as const satisfies Record<ContractEventType, string>;

export type WebhookFlag = (typeof WEBHOOK_FLAG_FOR)[ContractEventType];

/** The webhook flags, in the order the API shows them (docs/webhooks.md). */
export const WEBHOOK_FLAGS = [
  'created',
  'seen',
  'sent',
  'approved',
  'signed',
  'fullySigned',
] as const satisfies readonly WebhookFlag[];

/** One value per webhook flag: `webhookFlags(() => z.boolean())` for a schema, `(f) => input[f] ?? false` for a record. */
export function webhookFlags<T>(each: (flag: WebhookFlag) => T): Record<WebhookFlag, T> {
  return Object.fromEntries(WEBHOOK_FLAGS.map((f) => [f, each(f)])) as Record<WebhookFlag, T>;
}

// ---- contract types (docs/compatibility.md, "Contract types") --------------------------------------------------

/** What a contract's or template's content is: HTML (in `value`) or an uploaded PDF (`document`). */
export const CONTENT_TYPES = ['html', 'pdf'] as const;

export type ContractType = (typeof CONTENT_TYPES)[number];

/**
 * The text forms of `contractType` requests send: `html` (the sandbox's default), `pdf` (an uploaded file), and the
 * components' `docx`, `empty`, `ai` (HTML content made in the browser).
 */
export const CONTRACT_TYPE_TEXTS = ['html', 'pdf', 'docx', 'empty', 'ai'] as const;

export type ContractTypeText = (typeof CONTRACT_TYPE_TEXTS)[number];

/** ContractType as the real service's clients read it: 6 docx, 7 pdf, 8 empty (HTML without a type, too). */
export const CONTRACT_TYPE_CODES = { docx: 6, pdf: 7, empty: 8 } as const;

export type ContractTypeCode = (typeof CONTRACT_TYPE_CODES)[keyof typeof CONTRACT_TYPE_CODES];

/**
 * A placeholder's box code, the wire field `view` of a placeholder (the vendor's PlaceholderView): 2 for the boxes a
 * signature goes into, 1 for every other placeholder.
 */
export const PLACEHOLDER_BOX_CODES = { other: 1, signature: 2 } as const;

/**
 * A `contractType` as a request gives it, as the text a record keeps: a text form, or a numeric code echoed from a
 * read (`7` or `"7"` → `pdf`, `6` → `docx`, `8` → `empty`); `""` (the components' "none chosen") → undefined.
 * Undefined for anything else too: callers validate with `isContractType` first.
 */
export function contractTypeText(value: string | number): ContractTypeText | undefined {
  const text = String(value).trim().toLowerCase();
  if ((CONTRACT_TYPE_TEXTS as readonly string[]).includes(text)) return text as ContractTypeText;
  const byCode = Object.entries(CONTRACT_TYPE_CODES).find(([, code]) => String(code) === text);
  return byCode ? (byCode[0] as ContractTypeText) : undefined;
}

/** Whether a request's `contractType` is one the sandbox takes (a text form, a numeric code, or `""`). */
export function isContractType(value: string | number): boolean {
  return String(value).trim() === '' || contractTypeText(value) !== undefined;
}

/**
 * Whether a record's content is an uploaded PDF or HTML, from the `contractType` it keeps. Records written before
 * PDF contracts existed carry no type, and the components' text forms (`docx`, `empty`, `ai`) hold HTML too.
 */
export function contractTypeOf(record: { contractType?: string | undefined }): ContractType {
  return record.contractType === 'pdf' ? 'pdf' : 'html';
}

/** The numeric ContractType the real clients read of a record (docs/compatibility.md): 7 pdf, 6 docx, 8 any other HTML. */
export function contractTypeCode(record: { contractType?: string | undefined }): ContractTypeCode {
  if (contractTypeOf(record) === 'pdf') return CONTRACT_TYPE_CODES.pdf;
  return record.contractType === 'docx' ? CONTRACT_TYPE_CODES.docx : CONTRACT_TYPE_CODES.empty;
}
