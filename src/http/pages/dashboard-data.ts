/**
 * What the dashboard's contract list reads (docs/pages.md): one page of contracts, and the platforms with their
 * clients for its filters. Queries only the dashboard makes, so they live beside it.
 */
import type { Services } from '../../store/services.js';
import type { ClientRecord, ContractRecord, PlatformRecord, RecipientRecord } from '../../store/records.js';

/** One page of the dashboard's contract list. */
export interface ContractPage {
  total: number;
  offset: number;
  limit: number;
  contracts: { contract: ContractRecord; recipients: RecipientRecord[] }[];
}

export interface ContractPageQuery {
  platformId?: string | undefined;
  clientKey?: string | undefined;
  status?: string | undefined;
  offset?: number;
  limit?: number;
}

/**
 * One page of contracts, newest first: filtered by platform, client and status, with the total that matched.
 * Only the page's contracts are shaped, so a store of 10,000 stays quick to page through.
 */
export function contractPage({ store }: Services, query: ContractPageQuery = {}): ContractPage {
  const all = query.clientKey ? store.contracts.where('client', query.clientKey) : store.contracts.all();
  const matched = all.filter(
    (c) => (!query.platformId || c.platformId === query.platformId) && (!query.status || c.status === query.status),
  );
  matched.sort((a, b) => b.createTime - a.createTime || (a.contractKey < b.contractKey ? -1 : 1));
  const offset = Math.max(0, query.offset ?? 0);
  const limit = Math.max(1, Math.min(query.limit ?? 25, 200));
  const contracts = matched.slice(offset, offset + limit).map((contract) => ({
    contract,
    recipients: store.recipients.where('contract', contract.contractKey).sort((a, b) => a.id - b.id),
  }));
  return { total: matched.length, offset, limit, contracts };
}

/** Every platform with its clients (the dashboard's filters). */
export function platformsWithClients({ store }: Services): { platform: PlatformRecord; clients: ClientRecord[] }[] {
  return store.platforms
    .all()
    .map((platform) => ({ platform, clients: store.clients.where('platform', platform.platformId) }));
}
