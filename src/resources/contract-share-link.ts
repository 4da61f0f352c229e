/**
 * /api/contract_share_link: a contract's extra share links, flat bodies and a query string, no envelope
 * [C:share-link-block.tsx], [C:share-link-line.tsx]. GET lists (a JSON array), POST creates, PUT changes its access (`view`),
 * DELETE removes. No source shows the write answers; they follow the documented writes (docs/compatibility.md).
 */
import { z } from 'zod';
import { type OpContext, requireClient } from '../domain/context.js';
import { findContract } from '../domain/contracts.js';
import {
  changeShareLinkAccess,
  contractOfLinkRequest,
  createShareLink,
  deleteShareLink,
  findShareLink,
  shareLinksOf,
} from '../domain/share-links.js';
import { type PlainResource, clientKeyField, defineEndpoint, keyField, reply } from './action.js';
import { isoSchema, keySchema, okSchema } from './response-shape.js';
import type { ShareLinkRecord } from '../store/records.js';
import { isoTime } from '../core/time-format.js';
import { SHARE_LINK_ACCESS_CODES, type ShareLinkAccess } from '../core/vocabulary.js';

/** ShareLinkAccess [C:enum.ts] (SHARE_LINK_ACCESS: '1' sign, '2' approve, '3' lock, '4' view); numbers accepted. */
const accessField = () =>
  z
    .union([z.enum(SHARE_LINK_ACCESS_CODES), z.literal(SHARE_LINK_ACCESS_CODES.map(Number))])
    .transform((v) => String(v) as ShareLinkAccess);

/** A link's `id`: a number, or its digits as a string (a query string has only strings). */
const idField = () =>
  z.union([
    z.number().int().min(1),
    z
      .string()
      .regex(/^[1-9]\d*$/, 'Must be a link id (1, 2, …)')
      .transform(Number),
  ]);

function linkAnswer(l: ShareLinkRecord) {
  return {
    id: l.id,
    shareLink: l.shareLink,
    controlLink: l.controlLink,
    createTime: isoTime(l.createTime),
    changeTime: isoTime(l.changeTime),
    view: l.view,
  };
}

function contractOf(ctx: OpContext, contractKey: string) {
  return findContract(ctx, requireClient(ctx), contractKey);
}

/** PUT and DELETE: `contractKey` may carry the link's controlLink (domain/share-links.ts). */
function linkedContractOf(ctx: OpContext, key: string) {
  return contractOfLinkRequest(ctx, requireClient(ctx), key);
}

const linkAnswerSchema = () =>
  z.strictObject({
    id: z.number().int(),
    shareLink: keySchema(),
    controlLink: keySchema(),
    createTime: isoSchema(),
    changeTime: isoSchema(),
    view: z.enum(SHARE_LINK_ACCESS_CODES),
  });

export const contractShareLinkResource = {
  path: '/api/contract_share_link',
  endpoints: [
    defineEndpoint({
      method: 'GET',
      summary: 'List the extra share links of a contract',
      scope: 'client',
      response: () => z.array(linkAnswerSchema()),
      schema: () => z.object({ contractKey: keyField(), clientKey: clientKeyField() }),
      example: { contractKey: '<CONTRACT_KEY>', clientKey: '<CLIENT_KEY>' },
      handle(input, ctx) {
        return { status: 200, body: shareLinksOf(ctx, contractOf(ctx, input.contractKey)).map(linkAnswer) };
      },
    }),
    defineEndpoint({
      method: 'POST',
      summary: 'Make a new share link for a contract (view "4" unless given)',
      scope: 'client',
      response: () => okSchema(201, { shareLink: linkAnswerSchema() }),
      schema: () => z.object({ contractKey: keyField(), clientKey: clientKeyField(), view: accessField().optional() }),
      example: { contractKey: '<CONTRACT_KEY>', clientKey: '<CLIENT_KEY>' },
      handle(input, ctx) {
        const link = createShareLink(ctx, contractOf(ctx, input.contractKey), input.view);
        return reply(201, 'Share link created', { shareLink: linkAnswer(link) });
      },
    }),
    defineEndpoint({
      method: 'PUT',
      summary: 'Change what a share link lets its holder do (view: 1 sign, 2 approve, 3 lock, 4 view)',
      scope: 'client',
      response: () => okSchema(201, { shareLink: linkAnswerSchema() }),
      schema: () =>
        z.object({
          contractKey: keyField(),
          clientKey: clientKeyField(),
          id: idField(),
          shareLink: z.string().min(1).optional(),
          view: accessField(),
        }),
      example: {
        contractKey: '<CONTRACT_KEY>',
        clientKey: '<CLIENT_KEY>',
        id: 1,
        shareLink: '<SHARE_LINK>',
        view: '1',
      },
      handle(input, ctx) {
        const link = findShareLink(ctx, linkedContractOf(ctx, input.contractKey), input.id, input.shareLink);
        return reply(201, 'Share link updated', {
          shareLink: linkAnswer(changeShareLinkAccess(ctx, link, input.view)),
        });
      },
    }),
    defineEndpoint({
      method: 'DELETE',
      summary: 'Delete a share link',
      scope: 'client',
      response: () => okSchema(201, { shareLink: z.strictObject({ id: z.number().int(), shareLink: keySchema() }) }),
      schema: () => z.object({ contractKey: keyField(), clientKey: clientKeyField(), id: idField() }),
      example: { contractKey: '<CONTRACT_KEY>', clientKey: '<CLIENT_KEY>', id: 1 },
      handle(input, ctx) {
        const link = findShareLink(ctx, linkedContractOf(ctx, input.contractKey), input.id);
        deleteShareLink(ctx, link);
        return reply(201, 'Share link deleted', { shareLink: { id: link.id, shareLink: link.shareLink } });
      },
    }),
  ],
} satisfies PlainResource;
