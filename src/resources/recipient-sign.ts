/**
 * The real service's recipient side, acting: the holder of a share link signs, approves and asks for the
 * confirmation email, with no credentials, as the vendor's RecipientView calls it (docs/compatibility.md):
 * `recipient_sign` GET/POST, `recipient_approve`, `recipient_sign_email`, `recipient_approve_email`.
 */
import { z } from 'zod';
import { approveByLink, confirmByEmail, signByLink } from '../domain/recipient-acts.js';
import { contractSignatures } from '../domain/recipient-reads.js';
import { throughShareLink } from '../domain/share-links.js';
import { type PlainResource, defineEndpoint, keyField, reply, signerFields } from './action.js';
import { actedSchema, okSchema, signatureSchema } from './response-shape.js';

const SHARE_LINK = { shareLink: '<RECIPIENT_KEY>' };
const PERSON = { fullName: 'Grace Hopper', email: 'grace@example.com' };
/** A 1×1 PNG, as a signature pad's `toDataURL()` gives one. */
const DRAWN =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const person = () => ({
  shareLink: keyField(),
  ...signerFields(),
});

export const recipientSignResource = {
  path: '/api/recipient_sign',
  endpoints: [
    defineEndpoint({
      method: 'GET',
      summary: "The signatures made on a share link's contract, oldest first",
      scope: 'public',
      response: () => z.array(signatureSchema()),
      schema: () => z.object({ shareLink: keyField() }),
      example: SHARE_LINK,
      handle(input, ctx) {
        return {
          status: 200,
          body: throughShareLink(ctx, input.shareLink, (link) => contractSignatures(ctx, link.contract, link)),
        };
      },
    }),
    defineEndpoint({
      method: 'POST',
      summary: 'Sign as the recipient of a share link, with a drawn signature (PNG data URL)',
      scope: 'public',
      response: () => okSchema(201, { ...actedSchema(), recipientId: z.number().int() }),
      schema: () => z.object({ ...person(), owner: z.boolean().optional(), base64: z.string() }),
      example: { ...SHARE_LINK, ...PERSON, owner: false, base64: DRAWN, ipInfo: '' },
      handle(input, ctx) {
        return reply(
          201,
          'Contract signed',
          throughShareLink(ctx, input.shareLink, (link) => signByLink(ctx, link, input)),
        );
      },
    }),
  ],
} satisfies PlainResource;

export const recipientApproveResource = {
  path: '/api/recipient_approve',
  endpoints: [
    defineEndpoint({
      method: 'POST',
      summary: 'Approve as the recipient of a share link',
      scope: 'public',
      response: () => okSchema(201, actedSchema()),
      schema: () => z.object(person()),
      example: { ...SHARE_LINK, ...PERSON },
      handle(input, ctx) {
        return reply(
          201,
          'Contract approved',
          throughShareLink(ctx, input.shareLink, (link) => approveByLink(ctx, link, input)),
        );
      },
    }),
  ],
} satisfies PlainResource;

function confirmation(role: 'sign' | 'approve') {
  return {
    path: `/api/recipient_${role}_email`,
    endpoints: [
      defineEndpoint({
        method: 'POST',
        summary: `Send the recipient the confirmation of its ${role === 'sign' ? 'signature' : 'approval'} (to the outbox)`,
        scope: 'public',
        response: () => okSchema(201, { result: z.literal(true) }),
        schema: () => z.object({ shareLink: keyField() }),
        example: SHARE_LINK,
        handle(input, ctx) {
          throughShareLink(ctx, input.shareLink, (link) => confirmByEmail(ctx, link, role));
          return reply(201, 'Email sent', { result: true });
        },
      }),
    ],
  } satisfies PlainResource;
}

export const recipientSignEmailResource = confirmation('sign');
export const recipientApproveEmailResource = confirmation('approve');
