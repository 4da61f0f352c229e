// TEMPORARY (development only, removed when the lifecycle branch lands): the declared seam.
import type { OpContext } from '../context.js';
import type { RecipientRecord } from '../store/records.js';
export function actAsRecipient(_ctx: OpContext, _recipientKey: string, _verb: 'view' | 'sign' | 'approve' | 'lock', _options?: { signature?: string }): RecipientRecord {
  throw new Error('lifecycle not merged yet');
}
