/** `placeholders[]` of "create and fill" (contract create and update, template create) [D:contract/create-fill], [E]. */
import { z } from 'zod';
import { optionalKeyField } from './action.js';

/** A table value [D:placeholder/update-table]: column names and rows of cells. */
export const tableField = () =>
  z.object({
    columns: z.array(z.string()).max(100),
    rows: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).max(100)).max(10_000),
  });

/** A value as text; numbers are accepted (real clients send them) and kept as text. */
export const textValue = () => z.union([z.string(), z.number()]).transform(String);

/** A placeholder is filled with a text value or a table value, never both at once. */
export const valueOrTable = (p: { value?: unknown; table?: unknown }) => p.value === undefined || p.table === undefined;
export const VALUE_OR_TABLE = { message: 'Give value or table, not both', path: ['table'] };

export const fillItem = () =>
  z
    .object({
      placeholderKey: optionalKeyField(),
      name: z.string().min(1, 'Must not be empty').optional(),
      value: textValue().optional(),
      table: tableField().optional(),
    })
    .refine((p) => p.placeholderKey !== undefined || p.name !== undefined, {
      message: 'Give placeholderKey or name',
      path: ['placeholderKey'],
    })
    .refine(valueOrTable, VALUE_OR_TABLE);

export const fillList = () => z.array(fillItem()).max(1000);
