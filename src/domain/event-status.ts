/**
 * The status dictionary of `GET /api/event_status` [C:contract-list.tsx]: ids 1–6 as the real service's EventStatus
 * enum [C:enum.ts]. `Archived` has no id there; the sandbox gives it 7 (decisions §11). The colours are the sandbox's
 * own (no source shows the real ones).
 */
export const EVENT_STATUSES = [
  { id: 1, name: 'Created', color: '#8c8c8c' },
  { id: 2, name: 'Sent', color: '#1677ff' },
  { id: 3, name: 'Seen', color: '#13c2c2' },
  { id: 4, name: 'Approved', color: '#722ed1' },
  { id: 5, name: 'Signed', color: '#52c41a' },
  { id: 6, name: 'Fully signed', color: '#389e0d' },
  { id: 7, name: 'Archived', color: '#595959' },
] as const;

/** The numeric id of a status name (`Created` → 1 …), or undefined for a name the dictionary lacks. */
export function statusId(name: string): number | undefined {
  return EVENT_STATUSES.find((s) => s.name === name)?.id;
}
