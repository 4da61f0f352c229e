/**
 * The real service's recipient side, acting: the holder of a share link signs, approves and asks for the
 * confirmation email, with no credentials, as the vendor's RecipientView calls it (docs/compatibility.md):
 * `recipient_sign` GET/POST, `recipient_approve`, `recipient_sign_email`, `recipient_approve_email`.
 */
import { z } from 'zod';
import { approveByLink, confirmByEmail, signByLink } from '../domain/recipient-acts.js';
import { contractSignatures } from '../domain/recipient-reads.js';
import { plainResource, reply, signerFields } from './action.js';
import { actedSchema, okSchema, signatureSchema } from './response-shape.js';
import { shareLinkEndpoint } from './share-link-endpoint.js';

const PERSON = { fullName: 'Grace Hopper', email: 'grace@example.com' };
/** A 1×1 PNG, as a signature pad's `toDataURL()` gives one. */
const DRAWN =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

export const recipientSignResource = plainResource(
  '/api/recipient_sign',
  shareLinkEndpoint({
    method: 'GET',
    summary: "The signatures made on a share link's contract, oldest first",
    response: () => z.array(signatureSchema()),
    act: (ctx, link) => ({ status: 200, body: contractSignatures(ctx, link.contract, link) }),
  }),
  shareLinkEndpoint({
    summary: 'Sign as the recipient of a share link, with a drawn signature (PNG data URL)',
    response: () => okSchema(201, { ...actedSchema(), recipientId: z.number().int() }),
    fields: () => ({ ...signerFields(), owner: z.boolean().optional(), base64: z.string() }),
    example: { ...PERSON, owner: false, base64: DRAWN, ipInfo: '' },
    act: (ctx, link, input) => reply(201, 'Contract signed', signByLink(ctx, link, input)),
  }),
);

export const recipientApproveResource = plainResource(
  '/api/recipient_approve',
  shareLinkEndpoint({
    summary: 'Approve as the recipient of a share link',
    response: () => okSchema(201, actedSchema()),
    fields: signerFields,
    example: PERSON,
    act: (ctx, link, input) => reply(201, 'Contract approved', approveByLink(ctx, link, input)),
  }),
);

const confirmation = (role: 'sign' | 'approve') =>
  plainResource(
    `/api/recipient_${role}_email`,
    shareLinkEndpoint({
      summary: `Send the recipient the confirmation of its ${role === 'sign' ? 'signature' : 'approval'} (to the outbox)`,
      response: () => okSchema(201, { result: z.literal(true) }),
      act(ctx, link) {
        confirmByEmail(ctx, link, role);
        return reply(201, 'Email sent', { result: true });
      },
    }),
  );

export const recipientSignEmailResource = confirmation('sign');
export const recipientApproveEmailResource = confirmation('approve');
