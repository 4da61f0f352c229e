/** The fields a contract and a template share in the real service's bodies (docs/compatibility.md, "Contract" and "Template"). */
import { z } from 'zod';

/** A contract's or a template's name and content (HTML in `value`), as create takes them. */
export const contentFields = () => ({ name: z.string().min(1, 'Must not be empty'), value: z.string().optional() });

/** What an update of a contract or a template may change of both: the same, the name optional too. */
export const contentChange = () => ({ ...contentFields(), name: contentFields().name.optional() });
