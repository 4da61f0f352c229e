/** Acting as a recipient (docs/lifecycle.md): in turn, in its role, once per verb; 409 otherwise. */
import type { RecipientActResult } from '../control/sandbox-control.js';
import { actBody } from '../control/schemas.js';
import { actResult } from './examples.js';
import type { ControlOp, ControlTable } from './operation.js';
import type { RecipientRole } from '../core/vocabulary.js';

function act(verb: RecipientRole, summary: string): ControlOp<[string, { signature?: string }?], RecipientActResult> {
  return {
    route: `POST /recipients/{recipientKey}/${verb}`,
    tool: 'act_as_recipient',
    summary,
    ...(verb === 'sign'
      ? {
          description:
            "Signing fills the recipient's special placeholders (date, name, email, signature). `signature` is a text signature or an image as a base64 data URI; without it a stub is used. See docs/lifecycle.md.",
          body: actBody,
          example: { signature: 'Grace Hopper' },
        }
      : {}),
    answer: actResult,
    request: (recipientKey, options = {}) => ({
      params: { recipientKey },
      body: options.signature !== undefined ? { signature: options.signature } : {},
    }),
    handle: (r, { control, tenant }) =>
      control.recipients.actAndSettle(r.params.recipientKey!, verb, r.body as { signature?: string }, tenant),
  };
}

export const recipientOps = {
  'recipients.view': act('view', 'Act as a recipient: it opens the contract (once)'),
  'recipients.sign': act('sign', 'Act as a recipient: it signs (in turn, once; 409 otherwise)'),
  'recipients.approve': act('approve', 'Act as a recipient: it approves (in turn, once; 409 otherwise)'),
  'recipients.lock': act('lock', 'Act as a recipient: it locks the contract (in turn, once; 409 otherwise)'),
} satisfies Partial<ControlTable>;
