/**
 * Acting as a recipient by its key (docs/lifecycle.md): view, sign, approve, lock, for the control API, the library
 * and scenarios. The same domain operation (`actAsRecipient`) as the holder of a share link reaches through the
 * recipient page and the API's recipient side (domain/recipient-acts.ts `actByLink`).
 */
import type { z } from 'zod';
import { parseWith } from '../core/validation.js';
import { systemContext } from '../domain/context.js';
import { actAsRecipient } from '../domain/lifecycle.js';
import type { RecipientActResult } from './sandbox-control.js';
import type { ControlDeps, Tenant } from './deps.js';
import { ApiError } from '../core/errors.js';
import { inspectRecipient } from './inspection.js';
import { actBody } from './schemas.js';
import type { RecipientRecord } from '../store/records.js';
import type { RecipientRole } from '../core/vocabulary.js';

export class RecipientControl {
  constructor(private readonly deps: Pick<ControlDeps, 'services' | 'baseUrl'>) {}

  /** Acts as the recipient, from the sandbox itself (`127.0.0.1` in the audit trail, docs/lifecycle.md). */
  act(
    recipientKey: string,
    verb: RecipientRole,
    input: z.input<ReturnType<typeof actBody>> = {},
    cause = 'control',
  ): RecipientRecord {
    const { signature } = parseWith(actBody(), input);
    const { services } = this.deps;
    // The act is dated by the clock of the recipient's tenant.
    const platformId = services.store.recipients.get(recipientKey)?.platformId;
    return actAsRecipient(systemContext(services, cause, platformId), recipientKey, verb, {
      signature,
      ip: '127.0.0.1',
    });
  }

  /**
   * Acts and answers once the first delivery attempts it caused have settled, as a clock advance does: a test's
   * assertion right after it sees the webhooks (the /__sandbox route and the library use this).
   */
  async actAndSettle(
    recipientKey: string,
    verb: RecipientRole,
    input: z.input<ReturnType<typeof actBody>> = {},
    tenant?: Tenant,
  ): Promise<RecipientActResult> {
    const { store, clocks } = this.deps.services;
    const owner = store.recipients.get(recipientKey)?.platformId;
    // Scoped, another tenant's recipient is not there: the same 404 as for an unknown key.
    if (tenant && owner !== tenant.platformId) throw ApiError.notFound('Recipient not found');
    const recipient = this.act(recipientKey, verb, input);
    // As the act left them, before the work it caused runs.
    const contract = store.contracts.get(recipient.contractKey)!;
    const result: RecipientActResult = {
      recipient: inspectRecipient(recipient, this.deps.baseUrl()),
      contract: { contractKey: contract.contractKey, status: contract.status },
    };
    await clocks.of(owner).work.settled();
    return result;
  }
}
