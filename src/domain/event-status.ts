/**
 * The status dictionary of `GET /api/event_status` [C:contract-list.tsx]: ids 1–6 as the real service's EventStatus
 * enum [C:enum.ts]. `Archived` has no id there; the sandbox gives it 7 (docs/compatibility.md). The ids are the statuses'
 * order in the vocabulary (`statusId`); the colours are the sandbox's own (no source shows the real ones).
 */
import { CONTRACT_STATUSES, type ContractStatus, statusId } from '../core/vocabulary.js';

const COLOURS: Record<ContractStatus, string> = {
  Created: '#8c8c8c',
  Sent: '#1677ff',
  Seen: '#13c2c2',
  Approved: '#722ed1',
  Signed: '#52c41a',
  'Fully signed': '#389e0d',
  Archived: '#595959',
};

/** Every status with its id and colour, in id order. */
export function eventStatuses(): { id: number; name: ContractStatus; color: string }[] {
  return CONTRACT_STATUSES.map((name) => ({ id: statusId(name)!, name, color: COLOURS[name] }));
}
