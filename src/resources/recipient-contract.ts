/**
 * The real service's recipient side, read and written by the holder of a share link with no credentials, as the
 * vendor's RecipientView calls it (docs/compatibility.md): `recipient_contract` GET/POST,
 * `recipient_contract_status`, `recipient_contract_event`, `check_contract_changed`, `recipient_placeholder`.
 */
import { z } from 'zod';
import { auditTrail } from '../domain/audit-trail.js';
import { contentValue } from '../domain/links.js';
import { fillByLink, keepRecipientHtml } from '../domain/recipient-acts.js';
import { contractChanged, recipientContract, recipientContractStatus } from '../domain/recipient-reads.js';
import { keyAsSeen } from '../domain/share-links.js';
import { SHARE_LINK_ACCESS_CODES } from '../core/vocabulary.js';
import type { ContractRecord } from '../store/records.js';
import { type RequestInfo, plainResource, reply } from './action.js';
import { auditEntriesSchema } from './contract-event.js';
import { insertionSchema, isoSchema, keySchema, okSchema, sqlSchema } from './response-shape.js';
import { shareLinkEndpoint } from './share-link-endpoint.js';

const shareLinkAccessSchema = () =>
  z.enum(SHARE_LINK_ACCESS_CODES).meta({ description: "'1' sign, '2' approve, '3' lock, '4' view" });

/** A placeholder as recipientContract (domain/recipient-reads.ts) lists it. */
const recipientPlaceholderSchema = () =>
  z.strictObject({
    id: z.number().int().meta({ description: 'The N of the HTML tags (`<placeholderN>`, `<signN>`, …)' }),
    placeholderKey: keySchema(),
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
    insertion: z.array(insertionSchema()),
    createTime: isoSchema(),
    changeTime: isoSchema(),
  });

const recipientContractSchema = () =>
  okSchema(200, {
    shareLink: keySchema(),
    controlLink: keySchema(),
    contractName: z.string(),
    contractType: z
      .union([z.literal(6), z.literal(7), z.literal(8)])
      .meta({ description: '6 docx, 7 pdf, 8 empty or HTML' }),
    contractValue: z.string().meta({ description: "HTML, or a PDF contract's file as an absolute URL" }),
    view: shareLinkAccessSchema(),
    isDone: z.boolean(),
    audit: z.boolean(),
    fullname: z.string(),
    email: z.string(),
    visiblePageBranding: z.boolean(),
    isTest: z.literal(true),
    statusId: z.number().int().nullable(),
    statusName: z.string(),
    createTime: sqlSchema(),
    changeTime: sqlSchema().meta({ description: 'When the content last changed (check_contract_changed compares it)' }),
    placeholders: z.array(recipientPlaceholderSchema()),
  });

/** Where a PDF contract's file is fetched from, with no credentials: its absolute public URL. */
function documentUrl(request: RequestInfo): (contract: ContractRecord) => string {
  return (contract) => contentValue(request.publicBase(), contract);
}

export const recipientContractResource = plainResource(
  '/api/recipient_contract',
  shareLinkEndpoint({
    method: 'GET',
    summary: 'The contract a share link opens, as the recipient sees it (RecipientView opening)',
    response: recipientContractSchema,
    act: (ctx, link, _input, request) =>
      reply(200, 'Contract found', recipientContract(ctx, link, documentUrl(request))),
  }),
  shareLinkEndpoint({
    summary: "The recipient's copy of an HTML contract (answers filled in, signature block): noted and answered back",
    response: () => okSchema(201, { contractValue: z.string(), changeTime: sqlSchema() }),
    fields: () => ({ contractValue: z.string() }),
    example: { contractValue: '<p>Filled in by the recipient</p>' },
    act: (ctx, link, input) => reply(201, 'Contract saved', keepRecipientHtml(ctx, link, input.contractValue)),
  }),
);

export const recipientContractStatusResource = plainResource(
  '/api/recipient_contract_status',
  shareLinkEndpoint({
    method: 'GET',
    summary: "The status of a share link's contract",
    response: () => okSchema(200, { status: z.string(), statusId: z.number().int().nullable() }),
    act: (_ctx, link) => reply(200, 'Status found', recipientContractStatus(link)),
  }),
);

export const recipientContractEventResource = plainResource(
  '/api/recipient_contract_event',
  shareLinkEndpoint({
    method: 'GET',
    summary: "The audit trail of a share link's contract (as GET /api/contract_event)",
    response: auditEntriesSchema,
    act: (ctx, link) => ({ status: 200, body: auditTrail(ctx, link.contract, (key) => keyAsSeen(ctx, link, key)) }),
  }),
);

export const checkContractChangedResource = plainResource(
  '/api/check_contract_changed',
  shareLinkEndpoint({
    summary: 'Whether the contract or the link changed since the recipient read it (before signing or approving)',
    response: () =>
      okSchema(200, { changed: z.boolean(), view: shareLinkAccessSchema(), contractValue: z.string().optional() }),
    fields: () => ({
      changeTime: z.string(),
      view: z
        .union([z.string(), z.number()])
        .transform((v) => String(v))
        .optional(),
    }),
    example: { changeTime: '2026-03-01 09:00:00', view: '1' },
    act: (ctx, link, input) => reply(200, 'Contract checked', contractChanged(ctx, link, input)),
  }),
);

export const recipientPlaceholderResource = plainResource(
  '/api/recipient_placeholder',
  shareLinkEndpoint({
    summary: "The recipient's answers: the values of the placeholders it is named to fill (other items are ignored)",
    response: () => okSchema(201, { filled: z.number().int() }),
    fields: () => ({
      placeholders: z.array(z.looseObject({ placeholderKey: z.string().optional(), value: z.unknown() })),
    }),
    example: { placeholders: [{ placeholderKey: '<PLACEHOLDER_KEY>', value: 'Acme Ltd' }] },
    act: (ctx, link, input) => reply(201, 'Placeholders saved', { filled: fillByLink(ctx, link, input.placeholders) }),
  }),
);
