/**
 * The sandbox's state as control operations: health, reset (everything, or one platform), new platforms,
 * snapshots (snapshots.ts), forced token expiry, and the default account the fixtures gave.
 */
import type { z } from 'zod';
import { API_KEY_RULE, apiKeyProblem } from '../core/credentials.js';
import { ApiError } from '../core/errors.js';
import { EventBus } from '../core/event-bus.js';
import { createIdSource } from '../core/ids.js';
import { isoTime } from '../core/time-format.js';
import { parseWith } from '../core/validation.js';
import { systemContext } from '../domain/context.js';
import type { Services } from '../store/services.js';
import { createPlatform, platformByApiKey } from '../domain/platforms.js';
import { expireTokens } from '../domain/tokens.js';
import { applyFixtures, seededApiKeys } from '../fixtures/seed.js';
import { type ClientRecord, type PlatformRecord, type StoreData, emptyData } from '../store/records.js';
import type { Snapshot } from '../store/snapshot.js';
import { Store } from '../store/store.js';
import { deleteTenantRecords, restoreTenantRecords } from '../store/tenant.js';
import type { Health, Platform, ResetResult } from './sandbox-control.js';
import type { ControlDeps, Tenant } from './deps.js';
import { expireBody, platformBody, resetBody } from './schemas.js';
import { type SnapshotWithDocuments, restoreSnapshot, takeSnapshot } from './snapshots.js';

export class StateControl {
  constructor(private readonly deps: ControlDeps) {}

  private get services(): Services {
    return this.deps.services;
  }

  health(): Health {
    const { store, clocks } = this.services;
    const clock = clocks.sandbox;
    return {
      status: 'ok',
      version: this.deps.version,
      now: isoTime(clock.now()),
      clock: clock.isFrozen ? 'frozen' : 'real',
      persistent: store.persistent,
      counts: {
        platforms: store.platforms.size,
        clients: store.clients.size,
        contracts: store.contracts.size,
        webhooks: store.webhooks.size,
      },
    };
  }

  /**
   * Everything back to the seeded state, or only the platform whose apiKey is given, or (scoped) the tenant's
   * (docs/library.md).
   */
  async reset(input: z.input<ReturnType<typeof resetBody>> = {}, tenant?: Tenant): Promise<ResetResult> {
    const { apiKey } = parseWith(resetBody(), input);
    if (tenant) {
      if (apiKey !== undefined && apiKey !== tenant.apiKey)
        throw ApiError.badRequest('A scoped reset resets its own tenant: leave apiKey out, or name this tenant', [
          { path: 'apiKey', message: 'Another tenant' },
        ]);
      return this.resetPlatform(tenant.apiKey);
    }
    if (apiKey !== undefined) return this.resetPlatform(apiKey);
    const { services } = this;
    services.timers.clear();
    services.clocks.sandbox.clearTimers();
    // The seeded state has no tenant clocks: every tenant follows the sandbox clock again.
    services.clocks.dropAll();
    services.store.replace(emptyData());
    // Re-seeding with the same seed gives the same keys again.
    services.ids.restart();
    await applyFixtures(services, this.deps.fixtures, this.deps.seedOptions);
    await this.deps.documents?.replace([]);
    services.bus.emit({ type: 'sandbox.reset' });
    return { scope: 'all' };
  }

  private async resetPlatform(apiKey: string): Promise<ResetResult> {
    const { store, bus } = this.services;
    const platform = platformByApiKey(this.services, apiKey);
    if (!platform) throw ApiError.notFound('No platform with this apiKey');
    // A tenant made over the control API has no seeded records: its reset seeds nothing (a tenant per test resets often).
    const seeded = seededApiKeys(this.deps.fixtures, this.deps.seedOptions).has(platform.apiKey);
    const seed = seeded ? await this.seededData() : undefined;
    const removed = deleteTenantRecords(store, platform.platformId);
    const restored = seed ? restoreTenantRecords(store, seed, platform.apiKey, platform.platformId) : 0;
    await this.deps.documents?.clearPlatform(platform.platformId);
    // Timers belong to their modules: each clears its own for this platform on this event.
    bus.emit({ type: 'sandbox.reset', platformId: platform.platformId });
    return { scope: 'platform', apiKey, platformId: platform.platformId, removed, restored };
  }

  /** The records the fixtures give, seeded into a scratch store (same seed, same keys as at start). */
  private async seededData(): Promise<StoreData> {
    const { store: scratch } = await Store.open();
    const services = {
      store: scratch,
      clocks: this.services.clocks,
      timers: this.services.timers,
      bus: new EventBus(),
      ids: createIdSource(this.deps.seedOptions.seed),
    };
    await applyFixtures(services, this.deps.fixtures, this.deps.seedOptions);
    return scratch.data;
  }

  /** A new isolated platform account (give each test its own); with `clock`, its own clock (docs/library.md). */
  createPlatform(input: z.input<ReturnType<typeof platformBody>> = {}): Platform {
    const { clock, start, rateLimit, ...fields } = parseWith(platformBody(), input);
    const platform = createPlatform(systemContext(this.services, 'control'), fields);
    const { platformId, apiKey, secret } = platform;
    if (rateLimit !== undefined) this.deps.rateLimits.set(rateLimit, 'control', platformId);
    const limited = rateLimit ? { rateLimit: rateLimit.text } : {};
    if (clock === undefined) return { platformId, apiKey, secret, ...limited };
    const own = this.services.clocks.give(platformId, {
      mode: clock,
      start: start !== undefined ? Date.parse(start) : undefined,
    });
    // Made before its clock was: the tenant's own record is dated by its own clock too.
    this.services.store.platforms.update(platformId, { createTime: own.now() });
    return { platformId, apiKey, secret, ...limited, clock: { ...own.state(), own: true } };
  }

  /**
   * The tenant with this API key, for a scoped operation: 400 when the key is no name (it came from a path, decoded:
   * core/credentials.ts), 404 when no platform has it.
   */
  tenant(apiKey: string): Tenant {
    const problem = apiKeyProblem(apiKey);
    if (problem) throw ApiError.badRequest(problem, [{ path: 'apiKey', message: API_KEY_RULE }]);
    const platform = platformByApiKey(this.services, apiKey);
    if (!platform) throw ApiError.notFound('No platform with this apiKey');
    return { platformId: platform.platformId, apiKey: platform.apiKey };
  }

  /** The whole state as one JSON-ready document (GET /__sandbox/state). */
  snapshot(): SnapshotWithDocuments {
    return takeSnapshot(this.services, this.deps.documents);
  }

  /** Puts a snapshot back, validated first and refused whole when wrong. */
  restore(input: unknown): Promise<Snapshot> {
    return restoreSnapshot(this.services, this.deps.documents, input);
  }

  /** Force-expires one token (`{token}`), or every live one (of the tenant, when scoped). */
  expireTokens(input: z.input<ReturnType<typeof expireBody>> = {}, tenant?: Tenant): { expired: number } {
    const { token } = parseWith(expireBody(), input);
    const platformId = tenant?.platformId;
    const ctx = systemContext(this.services, 'control', platformId);
    return { expired: expireTokens(ctx, token !== undefined ? { token } : 'all', platformId) };
  }

  /** The default platform (the first of the fixtures), looked up fresh: a reset seeds it again. */
  defaultPlatform(): PlatformRecord | undefined {
    const { apiKey } = this.deps.defaultAccount;
    return apiKey !== undefined ? platformByApiKey(this.services, apiKey) : undefined;
  }

  /** The default client (the first of the fixtures), looked up fresh. */
  defaultClient(): ClientRecord | undefined {
    const { clientKey } = this.deps.defaultAccount;
    return clientKey !== undefined ? this.services.store.clients.get(clientKey) : undefined;
  }
}
