/** POST /api/contract: list, create (from template, with content, or create-and-send), archive. */
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { ApiError } from '../core/errors.js';
import { archiveContract, createContract, findContract } from '../domain/contracts.js';
import { type ResourceSpec, clientKeyField, dataBody, defineAction, keyField, listReply, reply } from './action.js';
import type { ContractRecord } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import { ownerUser } from '../domain/users.js';
import { sendToRecipients } from '../domain/sending.js';
import { recipientList } from './recipient-fields.js';

/** One contract as the list shows it, as UTF-8 JSON (kept by the table until the contract changes: Table.viewsWhere). */
function contractRow(c: ContractRecord): Buffer {
  return Buffer.from(JSON.stringify({
    createTime: isoTime(c.createTime),
    changeTime: isoTime(c.changeTime),
    contractKey: c.contractKey,
    name: c.name,
    status: c.status,
  }));
}

export const contractResource: ResourceSpec = {
  path: '/api/contract',
  selector: 'action',
  actions: {
    list: defineAction({
      summary: 'List the contracts of a client',
      scope: 'client',
      schema: () => dataBody({ action: z.literal('list'), clientKey: clientKeyField() }),
      example: { data: { action: 'list', clientKey: '<CLIENT_KEY>' } },
      handle(_input, ctx) {
        const rows = ctx.store.contracts.viewsWhere('client', requireClient(ctx).clientKey, contractRow);
        return listReply('Contracts found', 'contracts', rows);
      },
    }),
    create: defineAction({
      summary: 'Create a contract from a template, with HTML content, or as a PDF contract (contractType "pdf"); with recipients, create and send',
      scope: 'client',
      schema: () => dataBody({
        action: z.literal('create'),
        clientKey: clientKeyField(),
        userKey: z.string().min(1).optional(),
        contract: z
          .object({
            name: z.string().min(1, 'Must not be empty'),
            value: z.string().optional(),
            templateKey: z.string().min(1).optional(),
            // `pdf`: the file follows with POST /api/upload_pdf [real-service.md §5]; `html` (the default) takes `value`.
            contractType: z.enum(['html', 'pdf'], 'Must be "html" or "pdf"').optional(),
          })
          .refine((c) => c.contractType !== 'pdf' || (c.value === undefined && c.templateKey === undefined), {
            message: 'A contract with contractType "pdf" takes no value or templateKey: upload its file with POST /api/upload_pdf',
          })
          .refine((c) => c.contractType === 'pdf' || (c.value === undefined) !== (c.templateKey === undefined), {
            message: 'Give exactly one of contract.value (HTML content) or contract.templateKey',
          }),
        recipients: recipientList().optional(),
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
        if (input.data.recipients?.some((r) => r.recipientKey !== undefined)) throw ApiError.notFound('Recipient not found');
        const contract = createContract(ctx, client, { ...input.data.contract, userKey: user.userKey });
        if (input.data.recipients?.length) sendToRecipients(ctx, contract, input.data.recipients);
        return reply(201, 'Contract created', { contract: { createTime: isoTime(contract.createTime), contractKey: contract.contractKey } });
      },
    }),
    archive: defineAction({
      summary: 'Archive a contract',
      scope: 'client',
      schema: () => dataBody({ action: z.literal('archive'), clientKey: clientKeyField(), contract: z.object({ contractKey: keyField() }) }),
      example: { data: { action: 'archive', contract: { contractKey: '<CONTRACT_KEY>' } } },
      handle(input, ctx) {
        const contract = archiveContract(ctx, findContract(ctx, requireClient(ctx), input.data.contract.contractKey));
        return reply(200, 'Contract archived', { contract: { contractKey: contract.contractKey, name: contract.name } });
      },
    }),
  },
};
