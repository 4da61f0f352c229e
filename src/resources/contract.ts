/**
 * POST /api/contract: list, create (from template, with content, create-and-fill, create-and-send), read, update,
 * duplicate, archive.
 */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { ApiError } from '../core/errors.js';
import {
  archiveContract,
  contractValue,
  createContract,
  duplicateContract,
  findContract,
  updateContract,
} from '../domain/contracts.js';
import {
  type ResourceSpec,
  acting,
  byKey,
  clientKeyField,
  dataBody,
  defineAction,
  keyField,
  listReply,
  optionalKeyField,
  reply,
} from './action.js';
import { contentChange, contentFields } from './content-fields.js';
import { isoSchema, keySchema, okSchema, sqlSchema } from './response-shape.js';
import type { OpContext } from '../domain/context.js';
import {
  CONTRACT_STATUSES,
  STATUS,
  contractTypeText,
  isContractType,
  statusId,
  contractTypeCode,
} from '../core/vocabulary.js';
import { contentValue } from '../domain/links.js';
import { applyRecipients } from '../domain/sending.js';
import { fillList } from './placeholder-fields.js';
import type { ContractRecord } from '../store/records.js';
import { isoTime, sqlTime } from '../core/time-format.js';
import { ownerUser } from '../domain/users.js';
import { sendToRecipients } from '../domain/sending.js';
import { recipientList } from './recipient-fields.js';

/**
 * `contract.contractType`: `html` (the default) takes `value`; `pdf`'s file follows with POST /api/upload_pdf;
 * `docx`, `empty` and `ai` are the components' text forms, `""` theirs for "none chosen", and a read's numeric
 * code (`7`, `"7"`) comes back when the editor re-saves what it read (docs/compatibility.md, "Contract types").
 */
const contractTypeField = () =>
  z
    .union([z.string(), z.number()])
    .refine(isContractType, 'Must be one of html, pdf, docx, empty, ai (or the code 6, 7, 8 a read answers)')
    .transform(contractTypeText);

/** `returnValue: true` adds the filled HTML as `contract.contractValue` [C:contract-editor.tsx]. */
function withValue(
  ctx: OpContext,
  contract: ContractRecord,
  fields: Record<string, unknown>,
  returnValue: boolean | undefined,
) {
  return returnValue ? { ...fields, contractValue: contractValue(ctx, contract) } : fields;
}

/** The whole record as `read` answers it [D:contract/read], with what the components also read [C:types.ts]. */
function contractAnswer(c: ContractRecord, base: string) {
  return {
    createTime: sqlTime(c.createTime),
    changeTime: sqlTime(c.changeTime),
    contractKey: c.contractKey,
    name: c.name,
    status: c.status,
    statusId: statusId(c.status) ?? null,
    value: contentValue(base, c),
    contractType: contractTypeCode(c),
    templateKey: c.templateKey ?? null,
    userKey: c.userKey,
  };
}

/**
 * One contract as the list shows it, as UTF-8 JSON (kept by the table until the contract changes: Table.listRowsWhere);
 * null for an archived contract, which the list leaves out as the components do (docs/compatibility.md, "Contract").
 */
function contractRow(c: ContractRecord): Buffer | null {
  if (c.status === STATUS.archived) return null;
  return Buffer.from(
    JSON.stringify({
      createTime: isoTime(c.createTime),
      changeTime: isoTime(c.changeTime),
      contractKey: c.contractKey,
      name: c.name,
      status: c.status,
    }),
  );
}

const contractAnswerSchema = () =>
  z.strictObject({
    createTime: sqlSchema(),
    changeTime: sqlSchema(),
    contractKey: keySchema(),
    name: z.string(),
    status: z.enum(CONTRACT_STATUSES),
    statusId: z.number().int().nullable(),
    value: z.string().meta({ description: 'The HTML content, or for a PDF the absolute URL of its file' }),
    contractType: z
      .union([z.literal(6), z.literal(7), z.literal(8)])
      .meta({ description: '7 a PDF contract, 6 a DOCX one, 8 any other (HTML)' }),
    templateKey: z.string().nullable(),
    userKey: keySchema(),
  });

/** A row of the list (contractRow): ISO times, as every list answers them. */
const contractRowSchema = () =>
  z.strictObject({
    createTime: isoSchema(),
    changeTime: isoSchema(),
    contractKey: keySchema(),
    name: z.string(),
    status: z.enum(CONTRACT_STATUSES),
  });

export const contractResource = {
  path: '/api/contract',
  selector: 'action',
  actions: {
    list: defineAction({
      summary: 'List the contracts of a client',
      scope: 'client',
      response: () => okSchema(200, { contracts: z.array(contractRowSchema()) }),
      schema: () => dataBody({ action: z.literal('list'), clientKey: clientKeyField() }),
      example: { data: { action: 'list', clientKey: '<CLIENT_KEY>' } },
      handle(_input, ctx) {
        const rows = ctx.store.contracts
          .listRowsWhere('client', requireClient(ctx).clientKey, contractRow)
          .filter((row): row is Buffer => row !== null);
        return listReply('Contracts found', 'contracts', rows);
      },
    }),
    create: defineAction({
      summary:
        'Create a contract from a template, with HTML content, or as a PDF contract (contractType "pdf"); with recipients, create and send',
      scope: 'client',
      response: () =>
        okSchema(201, {
          contract: z.strictObject({
            createTime: sqlSchema(),
            contractKey: keySchema(),
            contractValue: z.string().optional(),
          }),
        }),
      schema: () =>
        dataBody({
          ...acting('create'),
          contract: z
            .object({
              ...contentFields(),
              templateKey: optionalKeyField(),
              contractType: contractTypeField().optional(),
            })
            // The components send the content they hold beside a template or a PDF type: a template supplies the
            // content, and a PDF's is its upload, so `value` is then ignored (docs/compatibility.md, "Contract").
            // A contract with only a type is a pre-created one that `update` finishes later [C:contract-editor.tsx].
            .refine((c) => c.value !== undefined || c.templateKey !== undefined || c.contractType !== undefined, {
              message: 'Give contract.value (HTML content), contract.templateKey or contract.contractType',
            }),
          placeholders: fillList().optional(),
          recipients: recipientList().optional(),
          returnValue: z.boolean().optional(),
        }),
      example: {
        data: {
          action: 'create',
          contract: { name: 'Service agreement', value: '<p>Terms…</p>' },
          recipients: [{ fullname: 'Grace Hopper', email: 'grace@example.com', action: 'sign', position: 1 }],
        },
      },
      handle(input, ctx) {
        const client = requireClient(ctx);
        const user = ownerUser(ctx, client.clientKey, input.data.userKey);
        // A new contract has no recipients yet, so an item naming one is refused before anything is created.
        if (input.data.recipients?.some((r) => r.recipientKey !== undefined))
          throw ApiError.notFound('Recipient not found');
        const contract = createContract(ctx, client, {
          ...input.data.contract,
          userKey: user.userKey,
          placeholders: input.data.placeholders,
        });
        if (input.data.recipients?.length) sendToRecipients(ctx, contract, input.data.recipients);
        const fields = { createTime: sqlTime(contract.createTime), contractKey: contract.contractKey };
        return reply(201, 'Contract created', { contract: withValue(ctx, contract, fields, input.data.returnValue) });
      },
    }),
    read: defineAction({
      summary: 'Read a contract: status, content, type',
      scope: 'client',
      response: () => okSchema(200, { contract: contractAnswerSchema() }),
      schema: () =>
        dataBody({
          ...acting('read'),
          contract: z.object({ contractKey: keyField(), name: z.string().optional() }),
        }),
      example: { data: { action: 'read', contract: { contractKey: '<CONTRACT_KEY>' } } },
      handle(input, ctx, request) {
        const contract = findContract(ctx, requireClient(ctx), input.data.contract.contractKey);
        return reply(200, 'Contract found', { contract: contractAnswer(contract, request.publicBase()) });
      },
    }),
    update: defineAction({
      summary: 'Change a contract: rename, content, template, type, placeholder values, recipients (added, not sent)',
      scope: 'client',
      response: () =>
        okSchema(
          201,
          {
            contract: z.strictObject({
              createTime: sqlSchema(),
              changeTime: sqlSchema(),
              contractKey: keySchema(),
              contractValue: z.string().optional(),
            }),
          },
          true,
        ),
      schema: () =>
        dataBody({
          ...acting('update'),
          // As on create, a template's content wins over a `value` sent beside it.
          contract: z.object({
            contractKey: keyField(),
            ...contentChange(),
            templateKey: optionalKeyField(),
            contractType: contractTypeField().optional(),
          }),
          placeholders: fillList().optional(),
          recipients: recipientList().optional(),
          returnValue: z.boolean().optional(),
        }),
      example: { data: { action: 'update', contract: { contractKey: '<CONTRACT_KEY>', name: 'Renamed agreement' } } },
      handle(input, ctx) {
        const client = requireClient(ctx);
        if (input.data.userKey !== undefined) ownerUser(ctx, client.clientKey, input.data.userKey);
        const { contractKey, ...change } = input.data.contract;
        let contract = findContract(ctx, client, contractKey);
        contract = updateContract(ctx, client, contract, { ...change, placeholders: input.data.placeholders });
        if (input.data.recipients?.length) applyRecipients(ctx, contract, input.data.recipients);
        contract = ctx.store.contracts.get(contract.contractKey)!;
        const fields = {
          createTime: sqlTime(contract.createTime),
          changeTime: sqlTime(contract.changeTime),
          contractKey: contract.contractKey,
        };
        // The components compare `code === 201` numerically after a rename (docs/compatibility.md, "Codes").
        return reply(
          201,
          'Contract updated',
          { contract: withValue(ctx, contract, fields, input.data.returnValue) },
          { numericCode: true },
        );
      },
    }),
    duplicate: defineAction({
      summary:
        'Duplicate a contract (content and placeholder values copied; no recipients); answers code 201 as a number',
      scope: 'client',
      response: () =>
        okSchema(201, { contract: z.strictObject({ createTime: sqlSchema(), contractKey: keySchema() }) }, true),
      schema: () =>
        dataBody({
          ...acting('duplicate'),
          ...byKey('contract'),
        }),
      example: { data: { action: 'duplicate', contract: { contractKey: '<CONTRACT_KEY>' } } },
      handle(input, ctx) {
        const client = requireClient(ctx);
        const user = ownerUser(ctx, client.clientKey, input.data.userKey);
        const copy = duplicateContract(
          ctx,
          client,
          findContract(ctx, client, input.data.contract.contractKey),
          user.userKey,
        );
        // The components test `code === 201` numerically after duplicate [C:contract-list.tsx].
        return reply(
          201,
          'Contract duplicated',
          { contract: { createTime: sqlTime(copy.createTime), contractKey: copy.contractKey } },
          { numericCode: true },
        );
      },
    }),
    archive: defineAction({
      summary: 'Archive a contract',
      scope: 'client',
      response: () => okSchema(200, { contract: z.strictObject({ contractKey: keySchema(), name: z.string() }) }),
      schema: () => dataBody({ action: z.literal('archive'), clientKey: clientKeyField(), ...byKey('contract') }),
      example: { data: { action: 'archive', contract: { contractKey: '<CONTRACT_KEY>' } } },
      handle(input, ctx) {
        const contract = archiveContract(ctx, findContract(ctx, requireClient(ctx), input.data.contract.contractKey));
        return reply(200, 'Contract archived', {
          contract: { contractKey: contract.contractKey, name: contract.name },
        });
      },
    }),
  },
} satisfies ResourceSpec;
