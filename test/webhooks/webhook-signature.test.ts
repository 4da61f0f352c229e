/**
 * The `webhook-signature` the sandbox computes (src/webhooks/sender.ts, with node:crypto) is the one the public
 * `standardwebhooks` library computes, unmodified: for any secret it takes and any body; a secret it refuses is
 * refused too.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signatureHeaders } from '../../src/webhooks/sender.js';

const AT = Date.parse('2026-03-01T09:00:00.000Z');
const secrets = [
  `whsec_${Buffer.alloc(24, 1).toString('base64')}`,
  `whsec_${Buffer.from('a secret of another length!').toString('base64')}`,
  Buffer.alloc(32, 200).toString('base64'),
];
const bodies = [
  '{"type":"contract.created","data":{"contractKey":"c1"}}',
  JSON.stringify({ type: 'contract.signed', data: { fullname: 'Zoë Ångström 王 🖋️', email: 'z@example.com' } }),
  '',
];

describe('webhook signatures', () => {
  it('are what the standardwebhooks library signs, for every secret and body', () => {
    for (const secret of secrets) {
      for (const body of bodies) {
        const headers = signatureHeaders(secret, 'msg_abc', AT, body);
        expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg_abc', new Date(AT), body));
        expect(headers['webhook-timestamp']).toBe(String(AT / 1000));
      }
    }
  });

  it('refuse a secret the library refuses', () => {
    for (const secret of ['whsec_', 'whsec_not base64!', 'whsec_abc']) {
      expect(() => new Webhook(secret).sign('msg_abc', new Date(AT), '{}')).toThrow();
      expect(() => signatureHeaders(secret, 'msg_abc', AT, '{}')).toThrow();
    }
  });
});
