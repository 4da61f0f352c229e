/**
 * Acting as a recipient (docs/lifecycle.md): view, sign, approve, lock. The same domain operation whichever way a
 * recipient acts: the control API, the library, the recipient page, a scenario rule or step.
 */
import type { z } from 'zod';
import { parseWith } from '../core/validation.js';
import { systemContext } from '../domain/context.js';
import { actAsRecipient } from '../domain/lifecycle.js';
import type { Verb } from '../domain/lifecycle-rules.js';
import type { RecipientActResult } from './sandbox-control.js';
import type { ControlDeps, Tenant } from './deps.js';
import { ApiError } from '../core/errors.js';
import { inspectRecipient } from './inspection.js';
import { actBody } from './schemas.js';

export class RecipientControl {
  constructor(private readonly deps: Pick<ControlDeps, 'services' | 'baseUrl'>) {}

  /**
   * Acts as the recipient. `ip` is the address of the request that acted (the recipient page passes the
   * browser's); the control API and scenarios act from the sandbox itself, `127.0.0.1` (docs/lifecycle.md).
   */
  act(
    recipientKey: string,
    verb: Verb,
    input: z.input<ReturnType<typeof actBody>> = {},
    cause = 'control',
    options: { ip?: string | undefined } = {},
  ): RecipientActResult {
    const { signature } = parseWith(actBody(), input);
    const { services } = this.deps;
    // The act is dated by the clock of the recipient's tenant.
    const platformId = services.store.recipients.get(recipientKey)?.platformId;
    const recipient = actAsRecipient(systemContext(services, cause, platformId), recipientKey, verb, {
      signature,
      ip: options.ip ?? '127.0.0.1',
    });
    const contract = services.store.contracts.get(recipient.contractKey)!;
    return {
      recipient: inspectRecipient(recipient, this.deps.baseUrl()),
      contract: { contractKey: contract.contractKey, status: contract.status },
    };
  }

  /**
   * Acts and answers once the first delivery attempts it caused have settled, as a clock advance does: a test's
   * assertion right after it sees the webhooks (the /__sandbox route and the library use this).
   */
  async actAndSettle(
    recipientKey: string,
    verb: Verb,
    input: z.input<ReturnType<typeof actBody>> = {},
    tenant?: Tenant,
  ): Promise<RecipientActResult> {
    const { store, clocks } = this.deps.services;
    const owner = store.recipients.get(recipientKey)?.platformId;
    // Scoped, another tenant's recipient is not there: the same 404 as for an unknown key.
    if (tenant && owner !== tenant.platformId) throw ApiError.notFound('Recipient not found');
    const result = this.act(recipientKey, verb, input);
    await clocks.of(owner).work.settled();
    return result;
  }
}
