/** POST /api/template: create, convert (from a contract), read, duplicate. */
import { z } from 'zod';
import type { OpContext } from '../domain/context.js';
import { requireClient } from '../domain/context.js';
import { findContract } from '../domain/contracts.js';
import { copyPlaceholders } from '../domain/placeholders.js';
import { ApiError } from '../core/errors.js';
import { type ResourceSpec, clientKeyField, dataBody, defineAction, keyField, reply } from './action.js';
import type { ClientRecord, TemplateRecord } from '../store/records.js';
import { sqlTime } from '../core/time-format.js';
import { defaultUser } from './client.js';

function findTemplate(ctx: OpContext, client: ClientRecord, templateKey: string): TemplateRecord {
  const template = ctx.store.templates.get(templateKey);
  if (!template || template.clientKey !== client.clientKey) throw ApiError.notFound('Template not found');
  return template;
}

export function createTemplate(ctx: OpContext, client: ClientRecord, fields: { name: string; value: string; userKey: string }): TemplateRecord {
  const now = ctx.clock.now();
  return ctx.store.templates.insert({
    templateKey: ctx.ids.key(),
    clientKey: client.clientKey,
    platformId: client.platformId,
    userKey: fields.userKey,
    name: fields.name,
    value: fields.value,
    nextPlaceholderPosition: 1,
    createTime: now,
    changeTime: now,
  });
}

function created(template: TemplateRecord, message: string) {
  return reply(201, message, { template: { createTime: sqlTime(template.createTime), templateKey: template.templateKey } });
}

export const templateResource: ResourceSpec = {
  path: '/api/template',
  selector: 'action',
  actions: {
    create: defineAction({
      summary: 'Create a template',
      scope: 'client',
      schema: () => dataBody({
        action: z.literal('create'),
        clientKey: clientKeyField(),
        userKey: z.string().min(1).optional(),
        template: z.object({ name: z.string().min(1, 'Must not be empty'), value: z.string() }),
      }),
      example: { data: { action: 'create', template: { name: 'NDA', value: '<p>Mutual NDA…</p>' } } },
      handle(input, ctx) {
        const client = requireClient(ctx);
        const user = defaultUser(ctx, client.clientKey, input.data.userKey);
        return created(createTemplate(ctx, client, { ...input.data.template, userKey: user.userKey }), 'Template created');
      },
    }),
    convert: defineAction({
      summary: 'Create a template from a contract (content copied, placeholder values cleared)',
      scope: 'client',
      schema: () => dataBody({
        action: z.literal('convert'),
        clientKey: clientKeyField(),
        userKey: z.string().min(1).optional(),
        template: z.object({ name: z.string().min(1, 'Must not be empty'), contractKey: keyField() }),
      }),
      example: { data: { action: 'convert', template: { name: 'From contract', contractKey: '<CONTRACT_KEY>' } } },
      handle(input, ctx) {
        const client = requireClient(ctx);
        const user = defaultUser(ctx, client.clientKey, input.data.userKey);
        const contract = findContract(ctx, client, input.data.template.contractKey);
        const template = createTemplate(ctx, client, { name: input.data.template.name, value: contract.value, userKey: user.userKey });
        copyPlaceholders(ctx, { contractKey: contract.contractKey }, { templateKey: template.templateKey }, client);
        return created(template, 'Template created');
      },
    }),
    read: defineAction({
      summary: 'Read a template',
      scope: 'client',
      schema: () => dataBody({
        action: z.literal('read'),
        clientKey: clientKeyField(),
        template: z.object({ templateKey: keyField(), name: z.string().optional() }),
      }),
      example: { data: { action: 'read', template: { templateKey: '<TEMPLATE_KEY>' } } },
      handle(input, ctx) {
        const t = findTemplate(ctx, requireClient(ctx), input.data.template.templateKey);
        return reply(200, 'Template found', {
          template: { createTime: sqlTime(t.createTime), changeTime: sqlTime(t.changeTime), templateKey: t.templateKey, name: t.name, value: t.value },
        });
      },
    }),
    duplicate: defineAction({
      summary: 'Duplicate a template (placeholder structure copied, values cleared)',
      scope: 'client',
      schema: () => dataBody({ action: z.literal('duplicate'), clientKey: clientKeyField(), template: z.object({ templateKey: keyField() }) }),
      example: { data: { action: 'duplicate', template: { templateKey: '<TEMPLATE_KEY>' } } },
      handle(input, ctx) {
        const client = requireClient(ctx);
        const source = findTemplate(ctx, client, input.data.template.templateKey);
        const copy = createTemplate(ctx, client, { name: source.name, value: source.value, userKey: source.userKey });
        copyPlaceholders(ctx, { templateKey: source.templateKey }, { templateKey: copy.templateKey }, client);
        return created(copy, 'Template duplicated');
      },
    }),
  },
};
