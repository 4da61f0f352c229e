/** Templates of a client: create, convert from a contract, duplicate. Placeholders follow with their values cleared. */
import { ApiError } from '../core/errors.js';
import type { OpContext } from './context.js';
import type { ClientRecord, ContractRecord, TemplateRecord } from '../store/records.js';
import { type Owner, copyPlaceholders, placeholdersOf } from './placeholders.js';
import { documentFields } from './pdf-contracts.js';

export interface NewTemplate {
  /** A fixed key (fixtures and scenarios); generated when absent. */
  templateKey?: string | undefined;
  name: string;
  value: string;
  /** `pdf`: a PDF template whose file follows with upload_pdf (the components' `isPdf: true`). */
  contractType?: 'pdf' | undefined;
  userKey: string;
}

/** The PDF a copy keeps (its file shared, `value` its own path): see pdf-contracts.ts `documentFields`. */
function keepPdf(ctx: OpContext, template: TemplateRecord, source: ContractRecord | TemplateRecord): TemplateRecord {
  const fields = documentFields(source, { templateKey: template.templateKey });
  return Object.keys(fields).length ? ctx.store.templates.update(template.templateKey, fields) : template;
}

/** A template of this client, or 404: keys of other clients answer as if they did not exist. */
export function findTemplate(ctx: OpContext, client: ClientRecord, templateKey: string): TemplateRecord {
  const template = ctx.store.templates.get(templateKey);
  if (!template || template.clientKey !== client.clientKey) throw ApiError.notFound('Template not found');
  return template;
}

export function createTemplate(ctx: OpContext, client: ClientRecord, fields: NewTemplate): TemplateRecord {
  const now = ctx.clock.now();
  return ctx.store.templates.insert({
    templateKey: fields.templateKey ?? ctx.ids.key(),
    clientKey: client.clientKey,
    platformId: client.platformId,
    userKey: fields.userKey,
    name: fields.name,
    value: fields.contractType === 'pdf' ? '' : fields.value,
    ...(fields.contractType === 'pdf' ? { contractType: 'pdf' as const } : {}),
    nextPlaceholderPosition: 1,
    createTime: now,
    changeTime: now,
  });
}

/** A new template with the contract's content and placeholders (values cleared). */
export function convertContract(
  ctx: OpContext,
  client: ClientRecord,
  contract: ContractRecord,
  fields: { name: string; userKey: string },
): TemplateRecord {
  return templateFrom(ctx, client, { ...fields, value: contract.value }, contract, {
    contractKey: contract.contractKey,
  });
}

export function duplicateTemplate(ctx: OpContext, client: ClientRecord, source: TemplateRecord): TemplateRecord {
  const fields = { name: source.name, value: source.value, userKey: source.userKey };
  return templateFrom(ctx, client, fields, source, { templateKey: source.templateKey });
}

/** A new template of the client with the source's content, its PDF kept, and the placeholders of `owner` copied. */
function templateFrom(
  ctx: OpContext,
  client: ClientRecord,
  fields: { name: string; value: string; userKey: string },
  source: ContractRecord | TemplateRecord,
  owner: Owner,
): TemplateRecord {
  const template = keepPdf(ctx, createTemplate(ctx, client, fields), source);
  copyPlaceholders(ctx, owner, { templateKey: template.templateKey }, client);
  return template;
}

export function templatesOf(ctx: OpContext, client: ClientRecord): TemplateRecord[] {
  return ctx.store.templates.where('client', client.clientKey);
}

/** Template `update` [D:template/update]: rename, new content; only the fields given change. */
export function updateTemplate(
  ctx: OpContext,
  template: TemplateRecord,
  change: { name?: string | undefined; value?: string | undefined },
): TemplateRecord {
  const patch: Partial<TemplateRecord> = { changeTime: ctx.clock.now() };
  if (change.name !== undefined) patch.name = change.name;
  if (change.value !== undefined) patch.value = change.value;
  return ctx.store.templates.update(template.templateKey, patch);
}

/**
 * Template `delete` [C:template-list.tsx], [E]: the template and its placeholders go; contracts made from it keep
 * their content (they were copies) and still name it as their templateKey.
 */
export function deleteTemplate(ctx: OpContext, template: TemplateRecord): void {
  for (const p of placeholdersOf(ctx, { templateKey: template.templateKey }))
    ctx.store.placeholders.delete(p.placeholderKey);
  ctx.store.templates.delete(template.templateKey);
}
