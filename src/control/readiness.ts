/** The readiness report as a control operation (docs/readiness.md): the whole sandbox's, or one tenant's. */
import { isoTime } from '../core/time-format.js';
import { type ReadinessReport, buildReport } from '../readiness/report.js';
import { observe } from '../readiness/sources.js';
import type { ControlDeps, Tenant } from './deps.js';

export class ReadinessControl {
  constructor(private readonly deps: Pick<ControlDeps, 'services' | 'journal' | 'webhooks'>) {}

  /** `options`: thresholds and checks to leave out (readiness/thresholds.ts), validated by the report. */
  async report(options: unknown = {}, tenant?: Tenant): Promise<ReadinessReport> {
    const { services, journal } = this.deps;
    const observed = await observe(this.deps, tenant?.platformId);
    return buildReport(observed, options, {
      at: isoTime(services.clocks.of(tenant?.platformId).now()),
      tenant: tenant?.apiKey,
      journalCapacity: journal.limit,
    });
  }
}
