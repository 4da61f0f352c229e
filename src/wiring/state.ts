/**
 * The state of one sandbox, opened: clock, event bus, ids, the store and the documents beside it (from --data
 * when given), seeded from the fixtures unless a data file was loaded, and the default account that results.
 */
import { type Client, pgDocumentFiles } from '../store/postgres.js';
import { dirname, join } from 'node:path';
import { ConfigError, type ResolvedConfig } from '../config/options.js';
import { Clock } from '../core/clock.js';
import { EventBus } from '../core/event-bus.js';
import { createIdSource } from '../core/ids.js';
import { TenantClocks } from '../core/tenant-clocks.js';
import { clientName } from '../domain/clients.js';
import { Timers } from '../core/timers.js';
import type { Services } from '../store/services.js';
import { readFixtures } from '../fixtures/read.js';
import type { FixtureFile } from '../fixtures/schema.js';
import { type SeedOptions, type SeedResult, applyFixtures } from '../fixtures/seed.js';
import { DocumentStore } from '../store/documents.js';
import { Store } from '../store/store.js';

/** The default platform's credentials and the default client's key and name. */
export interface DefaultAccount {
  apiKey?: string;
  secret?: string;
  clientKey?: string;
  clientName?: string;
}

export interface SandboxState {
  services: Services;
  documents: DocumentStore;
  fixtures: FixtureFile[];
  seedOptions: SeedOptions;
  defaultAccount: DefaultAccount;
  /** Whether state came from an existing --data file rather than from the fixtures. */
  loaded: boolean;
}

/** Team mode (docs/team-sandbox.md): the leader's connection to the team's database, and what hears a failed commit. */
export interface TeamState {
  client: Client;
  onFailure: (error: unknown) => void;
}

export async function openState(config: ResolvedConfig, team?: TeamState): Promise<SandboxState> {
  const clock = new Clock({ mode: config.clock, ...(config.start !== undefined ? { start: config.start } : {}) });
  const bus = new EventBus();
  const fixtures = await loadFixtures(config.fixtures);
  const { store, loaded } = await openData(config.data, () =>
    Store.open({
      ...(config.data ? { file: config.data } : {}),
      ...(team ? { postgres: team } : {}),
      flushMs: config.flushMs,
    }),
  );
  const documents = await openData(config.data, () =>
    DocumentStore.open(config.data, team ? pgDocumentFiles(team.client) : undefined),
  );
  // Clocks, then the timers on them: kept collections are restored in the order they register (core/kept.ts).
  const clocks = new TenantClocks(clock, store);
  const timers = new Timers(clocks, store);
  const services: Services = { store, clocks, timers, bus, ids: createIdSource(config.seed) };
  keepSeededIds(services, config.seed);
  const seedOptions = { apiKey: config.apiKey, secret: config.secret, seed: config.seed };
  const seeded: SeedResult = loaded
    ? defaultAccountInStore(services, config)
    : await applyFixtures(services, fixtures, seedOptions);
  const defaultAccount: DefaultAccount = {
    ...(seeded.defaultPlatform ? { apiKey: seeded.defaultPlatform.apiKey, secret: seeded.defaultPlatform.secret } : {}),
    ...(seeded.defaultClient
      ? {
          clientKey: seeded.defaultClient.clientKey,
          clientName: clientName(seeded.defaultClient),
        }
      : {}),
  };
  return { services, documents, fixtures, seedOptions, defaultAccount, loaded };
}

/**
 * With --seed, keys come from a seeded source: kept is how far it has drawn, so that after a restart on a data file
 * it goes on from there instead of giving the keys of the records already stored again.
 */
function keepSeededIds(services: Services, seed: number | undefined): void {
  if (seed === undefined) return;
  const keeper = services.store.keep('ids', {
    record: () => ({ draws: services.ids.draws }),
    keys: () => ['seeded'],
    restore: (_key, record) => services.ids.skip((record as { draws: number }).draws),
  });
  services.ids = createIdSource(seed, () => keeper.changed('seeded'));
}

/** Opening the data file (and its documents folder beside it): a failure is a sentence naming the file. */
async function openData<T>(file: string | undefined, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (!file || error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new ConfigError(`The folder of the data file ${file} does not exist: create ${dirname(file)} first`);
    if (code === 'EISDIR')
      throw new ConfigError(
        `The data file ${file} is a folder: give a file path, such as ${join(file, 'sandbox.json')}`,
      );
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      throw new ConfigError(`Not allowed to write the data file ${file} (${code}): pick a writable place for --data`);
    if (code === 'ENOTDIR')
      throw new ConfigError(`The data file ${file} cannot be made: part of its path is a file, not a folder`);
    throw new ConfigError(`Cannot open the data file ${file}: ${(error as Error).message}`);
  }
}

async function loadFixtures(path: string): Promise<FixtureFile[]> {
  try {
    return await readFixtures(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ConfigError(`Fixtures not found: ${path}`);
    throw new ConfigError((error as Error).message);
  }
}

/** With a data file, the default platform is the one whose apiKey was asked for, else the first one stored. */
function defaultAccountInStore(services: Services, config: ResolvedConfig): SeedResult {
  const platforms = services.store.platforms.all();
  const platform = (config.apiKey ? platforms.find((p) => p.apiKey === config.apiKey) : undefined) ?? platforms[0];
  const client = platform ? services.store.clients.where('platform', platform.platformId)[0] : undefined;
  return { ...(platform ? { defaultPlatform: platform } : {}), ...(client ? { defaultClient: client } : {}) };
}
