/**
 * The success bodies of every /api operation, field by field (the OpenAPI document's response schemas). Objects are
 * closed: a field the sandbox sends that is not described here fails the response validation test, so this table and
 * the handlers cannot drift apart. Fields the handlers send only sometimes are optional.
 */
import { z } from 'zod';
import { RECIPIENT_ROLES, SHARE_LINK_VIEW_CODES, webhookFlags } from '../core/vocabulary.js';
import { insertionRecord } from '../store/snapshot.js';

const iso = () =>
  z.string().meta({ description: 'ISO 8601 time with milliseconds, UTC', examples: ['2026-03-01T09:00:00.000Z'] });
const sql = () => z.string().meta({ description: '`YYYY-MM-DD HH:MM:SS`, UTC', examples: ['2026-03-01 09:00:00'] });
const key = () => z.string().meta({ description: 'An opaque key of letters and digits' });

/** `{...fields, code: "<status>", message}`; `numeric` where the real service sends the code as a number. */
function ok(status: 200 | 201, fields: z.ZodRawShape = {}, numeric = false) {
  return z.strictObject({
    ...fields,
    code: numeric ? z.literal(status) : z.literal(String(status)),
    message: z.string(),
  });
}

const token = () =>
  z.strictObject({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int() });

const clientFields = () => ({
  createTime: sql(),
  changeTime: sql(),
  clientKey: key(),
  fullname: z.string(),
  email: z.string(),
  organization: z.string(),
  customKey: z.string(),
});

const userFields = () => ({ userKey: key(), fullname: z.string(), email: z.string(), customKey: z.string() });

const contractCreated = () =>
  z.strictObject({ createTime: iso(), contractKey: key(), contractValue: z.string().optional() });

const recipientItem = () =>
  z.strictObject({
    recipientKey: key(),
    id: z.string(),
    name: z.string(),
    fullname: z.string(),
    email: z.string(),
    customMessage: z.string(),
    position: z.string().optional(),
    action: z.enum(RECIPIENT_ROLES),
    clientKey: key(),
    createTime: iso(),
    changeTime: iso(),
    shareLink: z.string().optional(),
    isDone: z.boolean().optional(),
    type: z.enum(['1', '2']).optional(),
  });

const insertion = () => z.strictObject(insertionRecord().shape);

const placeholderBase = () => ({
  id: z.string(),
  createTime: iso(),
  changeTime: iso(),
  name: z.string(),
  value: z.string(),
  type: z.string(),
  placeholderKey: key(),
});

const webhookItem = () =>
  z.strictObject({
    webhookKey: key(),
    url: z.string(),
    secret: z.string(),
    ...webhookFlags(() => z.boolean()),
    createTime: iso(),
    changeTime: iso(),
  });

export const shareLinkItem = () =>
  z.strictObject({
    id: z.number().int(),
    shareLink: key(),
    controlLink: key(),
    createTime: iso(),
    changeTime: iso(),
    view: z.enum(SHARE_LINK_VIEW_CODES),
  });

/** Success bodies by path and action name (the names of the ResourceSpec tables). */
export const RESPONSES: Record<string, Record<string, () => z.ZodType>> = {
  '/api/token': {
    createPlatformToken: token,
    createClientToken: token,
    revokeToken: () => ok(201, {}, true),
  },
  '/api/client': {
    create: () =>
      ok(201, {
        client: z.strictObject({
          createTime: sql(),
          clientKey: key(),
          users: z.array(z.strictObject({ createTime: sql(), default: z.boolean(), userKey: key() })),
        }),
      }),
    list: () =>
      ok(200, {
        clients: z.array(
          z.strictObject({ ...clientFields(), createTime: iso(), changeTime: iso(), multiple: z.literal(true) }),
        ),
      }),
    update: () => ok(201, { client: z.strictObject({ changeTime: sql(), clientKey: key() }) }),
    read: () => ok(200, { client: z.strictObject(clientFields()) }),
  },
  '/api/user': {
    list: () => ok(200, { users: z.array(z.strictObject({ createTime: iso(), changeTime: iso(), ...userFields() })) }),
    create: () => ok(201, { user: z.strictObject({ createTime: sql(), userKey: key() }) }),
    read: () => ok(200, { user: z.strictObject({ createTime: sql(), changeTime: sql(), ...userFields() }) }),
    update: () => ok(201, { user: z.strictObject({ changeTime: sql(), userKey: key() }) }),
  },
  '/api/contract': {
    list: () =>
      ok(200, {
        contracts: z.array(
          z.strictObject({
            createTime: iso(),
            changeTime: iso(),
            contractKey: key(),
            name: z.string(),
            status: z.string(),
          }),
        ),
      }),
    create: () => ok(201, { contract: contractCreated() }),
    read: () =>
      ok(200, {
        contract: z.strictObject({
          createTime: iso(),
          changeTime: iso(),
          contractKey: key(),
          name: z.string(),
          status: z.string().meta({ description: 'Created, Sent, Seen, Approved, Signed, Fully signed or Archived' }),
          statusId: z.number().int().nullable(),
          value: z.string(),
          contractType: z
            .string()
            .meta({ description: '`html` for HTML content, else the type given (`docx`, `empty`, `ai`)' }),
          templateKey: z.string().nullable(),
          userKey: key(),
        }),
      }),
    update: () =>
      ok(201, {
        contract: z.strictObject({
          createTime: iso(),
          changeTime: iso(),
          contractKey: key(),
          contractValue: z.string().optional(),
        }),
      }),
    duplicate: () => ok(201, { contract: z.strictObject({ createTime: iso(), contractKey: key() }) }, true),
    archive: () => ok(200, { contract: z.strictObject({ contractKey: key(), name: z.string() }) }),
  },
  '/api/recipient': {
    list: () => ok(200, { recipients: z.array(recipientItem()) }),
    create: () => ok(200, { result: z.literal(true) }),
    send: () => ok(200, { result: z.literal(true) }),
    update: () => ok(201, { recipient: z.strictObject({ changeTime: iso() }) }),
    delete: () => ok(200, { result: z.literal(true) }),
  },
  '/api/template': {
    list: () =>
      ok(200, {
        templates: z.array(
          z.strictObject({ templateKey: key(), name: z.string(), createTime: iso(), changeTime: iso() }),
        ),
      }),
    create: () => ok(201, { template: z.strictObject({ createTime: sql(), templateKey: key() }) }),
    convert: () => ok(201, { template: z.strictObject({ createTime: sql(), templateKey: key() }) }),
    read: () =>
      ok(200, {
        template: z.strictObject({
          createTime: sql(),
          changeTime: sql(),
          templateKey: key(),
          name: z.string(),
          value: z.string(),
        }),
      }),
    update: () => ok(201, { template: z.strictObject({ createTime: sql(), changeTime: sql(), templateKey: key() }) }),
    delete: () => ok(201, { template: z.strictObject({ templateKey: key() }) }),
    duplicate: () => ok(201, { template: z.strictObject({ createTime: sql(), templateKey: key() }) }),
  },
  '/api/placeholder': {
    list: () =>
      ok(200, {
        placeholders: z.array(
          z.strictObject({
            ...placeholderBase(),
            position: z.number().int(),
            fillingType: z.string(),
            isTable: z.boolean(),
            insertion: z.array(insertion()),
            isSpecial: z.boolean().optional(),
            specialType: z.number().int().nullable().optional(),
            externalRecipientKey: z.string().nullable().optional(),
          }),
        ),
      }),
    create: () => ok(201, { placeholder: z.strictObject({ ...placeholderBase(), position: z.string() }) }, true),
    update: () =>
      z.union([
        ok(201, { placeholder: z.strictObject({ ...placeholderBase(), position: z.null() }) }),
        ok(
          201,
          {
            placeholder: z.strictObject({
              ...placeholderBase(),
              isTable: z.literal(true),
              position: z.string(),
              fillingType: z.string(),
              externalRecipientKey: z.string().nullable(),
            }),
          },
          true,
        ),
        ok(201, { placeholder: z.strictObject({ createTime: iso(), changeTime: iso() }) }, true),
      ]),
    delete: () => ok(201, { placeholder: z.strictObject({ placeholderKey: key() }) }),
  },
  '/api/settings': {
    email_notifications: () => ok(201),
    brandings: () => ok(201),
  },
  '/api/webhook': {
    create: () =>
      ok(201, {
        webhooks: z.array(
          z.strictObject({ createTime: iso(), url: z.string(), secret: z.string(), webhookKey: key() }),
        ),
      }),
    list: () => ok(201, { webhooks: z.array(webhookItem()) }),
    read: () => ok(201, { webhooks: z.array(webhookItem()) }),
    update: () => ok(201, { webhooks: z.array(z.strictObject({ webhookKey: key(), changeTime: iso() })) }),
    delete: () => ok(201, { webhooks: z.array(z.strictObject({ webhookKey: key() })) }),
  },
};

/** An audit trail entry (contract_event, recipient_contract_event). */
const auditEntry = () =>
  z.strictObject({
    id: z.number().int(),
    createTime: iso(),
    status: z.number().int().meta({ description: "The step's id in GET /api/event_status (7 Archived)" }),
    email: z.string(),
    name: z.string(),
    ipInfo: z.string().meta({
      description:
        'A JSON string: `ip`, `city`, `country_name`, `timezone`, `utc_offset` (as the acting client sent it)',
    }),
    priority: z.number().int().nullable(),
    shareLink: z.string().nullable(),
    controlLink: z.string().nullable(),
    userId: z.string().nullable(),
  });

const shareLinkView = () =>
  z.enum(['1', '2', '3', '4']).meta({ description: "'1' sign, '2' approve, '3' lock, '4' view" });

const recipientPlaceholder = () =>
  z.strictObject({
    id: z.number().int().meta({ description: 'The N of the HTML tags (`<placeholderN>`, `<signN>`, …)' }),
    placeholderKey: key(),
    name: z.string(),
    value: z.string(),
    type: z.string(),
    position: z.number().int(),
    externalRecipientKey: z.string(),
    view: z.union([z.literal(1), z.literal(2)]).meta({ description: '1 other, 2 signature' }),
    isSpecial: z.boolean(),
    specialType: z.number().int().nullable(),
    fillingType: z.string(),
    isTable: z.boolean(),
    insertion: z.array(insertion()),
    createTime: iso(),
    changeTime: iso(),
  });

const signatureItem = () =>
  z.strictObject({
    shareLink: key(),
    base64: z.string().meta({ description: 'The signature image as a data URL' }),
    createTime: iso(),
    fullName: z.string(),
    email: z.string(),
  });

const actedAs = () => ({ fullName: z.string(), email: z.string(), createTime: iso() });

/** Success bodies of the plain endpoints, by path and method. */
export const ENDPOINT_RESPONSES: Record<string, Record<string, () => z.ZodType>> = {
  '/api/recipient_contract': {
    GET: () =>
      ok(200, {
        shareLink: key(),
        controlLink: key(),
        contractName: z.string(),
        contractType: z
          .union([z.literal(6), z.literal(7), z.literal(8)])
          .meta({ description: '6 docx, 7 pdf, 8 empty or HTML' }),
        contractValue: z.string().meta({ description: "HTML, or a PDF contract's file as an absolute URL" }),
        view: shareLinkView(),
        isDone: z.boolean(),
        audit: z.boolean(),
        fullname: z.string(),
        email: z.string(),
        visiblePageBranding: z.boolean(),
        isTest: z.literal(true),
        statusId: z.number().int().nullable(),
        statusName: z.string(),
        createTime: sql(),
        changeTime: sql(),
        placeholders: z.array(recipientPlaceholder()),
      }),
    POST: () => ok(201, { contractValue: z.string(), changeTime: sql() }),
  },
  '/api/recipient_contract_status': {
    GET: () => ok(200, { status: z.string(), statusId: z.number().int().nullable() }),
  },
  '/api/recipient_contract_event': { GET: () => z.array(auditEntry()) },
  '/api/check_contract_changed': {
    POST: () => ok(200, { changed: z.boolean(), view: shareLinkView(), contractValue: z.string().optional() }),
  },
  '/api/recipient_placeholder': { POST: () => ok(201, { filled: z.number().int() }) },
  '/api/recipient_sign': {
    GET: () => z.array(signatureItem()),
    POST: () => ok(201, { ...actedAs(), recipientId: z.number().int() }),
  },
  '/api/recipient_approve': { POST: () => ok(201, actedAs()) },
  '/api/recipient_sign_email': { POST: () => ok(201, { result: z.literal(true) }) },
  '/api/recipient_approve_email': { POST: () => ok(201, { result: z.literal(true) }) },
  '/api/contract_event': {
    GET: () => z.array(auditEntry()),
    POST: () => ok(201, { result: z.boolean() }),
  },
  '/api/event_status': {
    GET: () => z.array(z.strictObject({ id: z.number().int(), name: z.string(), color: z.string() })),
  },
  '/api/contract_share_link': {
    GET: () => z.array(shareLinkItem()),
    POST: () => ok(201, { shareLink: shareLinkItem() }),
    PUT: () => ok(201, { shareLink: shareLinkItem() }),
    DELETE: () => ok(201, { shareLink: z.strictObject({ id: z.number().int(), shareLink: key() }) }),
  },
};

/** The success body of an operation, or undefined when the table lacks it (a test keeps the table complete). */
export function responseOf(path: string, name: string): z.ZodType | undefined {
  return RESPONSES[path]?.[name]?.();
}
