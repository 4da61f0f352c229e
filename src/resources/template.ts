/** POST /api/template: list, create (and fill), convert (from a contract), read, update, duplicate, delete. */
import { contractTypeOf } from '../core/vocabulary.js';
import { z } from 'zod';
import { requireClient } from '../domain/context.js';
import { findContract } from '../domain/contracts.js';
import {
  convertContract,
  createTemplate,
  deleteTemplate,
  duplicateTemplate,
  findTemplate,
  templatesOf,
  updateTemplate,
} from '../domain/templates.js';
import type { ResourceSpec } from './action.js';
import { acting, byKey, clientKeyField, dataBody, defineAction, keyField, reply } from './action.js';
import { contentChange, contentFields } from './content-fields.js';
import { isoSchema, keySchema, okSchema, sqlSchema } from './response-shape.js';
import { fillPlaceholders } from '../domain/filling.js';
import { contentValue } from '../domain/links.js';
import { fillList } from './placeholder-fields.js';
import type { TemplateRecord } from '../store/records.js';
import { isoTime, sqlTime } from '../core/time-format.js';
import { ownerUser } from '../domain/users.js';

/**
 * `{template: {createTime, templateKey}}`; the code is the number 201 where the components compare it (convert,
 * duplicate: docs/compatibility.md, "Codes"), the seed's string for create.
 */
function created(template: TemplateRecord, message: string, numericCode = false) {
  return reply(
    201,
    message,
    { template: { createTime: sqlTime(template.createTime), templateKey: template.templateKey } },
    { numericCode },
  );
}

/** What template create, convert and duplicate answer (`created`): the code a number for convert and duplicate. */
const templateMadeSchema = (numeric = false) =>
  okSchema(201, { template: z.strictObject({ createTime: sqlSchema(), templateKey: keySchema() }) }, numeric);

export const templateResource = {
  path: '/api/template',
  selector: 'action',
  actions: {
    list: defineAction({
      summary: 'List the templates of a client',
      scope: 'client',
      response: () =>
        okSchema(200, {
          templates: z.array(
            z.strictObject({
              templateKey: keySchema(),
              name: z.string(),
              createTime: isoSchema(),
              changeTime: isoSchema(),
            }),
          ),
        }),
      schema: () => dataBody(acting('list')),
      example: { data: { action: 'list' } },
      handle(_input, ctx) {
        // No source shows this answer's code and message; they follow the documented lists (docs/compatibility.md).
        const templates = templatesOf(ctx, requireClient(ctx))
          .sort((a, b) => a.createTime - b.createTime)
          .map((t) => ({
            templateKey: t.templateKey,
            name: t.name,
            createTime: isoTime(t.createTime),
            changeTime: isoTime(t.changeTime),
          }));
        return reply(200, 'Templates found', { templates });
      },
    }),
    create: defineAction({
      summary: 'Create a template',
      scope: 'client',
      response: () => templateMadeSchema(),
      schema: () =>
        dataBody({
          ...acting('create'),
          // `isPdf: true` makes a PDF template whose file follows with upload_pdf; its `value` is then ignored
          // (the components send their editor's empty content): docs/compatibility.md, "Template".
          template: z
            .object({ ...contentFields(), isPdf: z.boolean().optional() })
            .refine((t) => t.isPdf === true || t.value !== undefined, {
              message: 'Give template.value (HTML content), or isPdf: true for a PDF template',
              path: ['value'],
            }),
          // "Create and fill" [D:template/create-fill]: placeholders made with the template.
          placeholders: fillList().optional(),
        }),
      example: { data: { action: 'create', template: { name: 'NDA', value: '<p>Mutual NDA…</p>' } } },
      handle(input, ctx) {
        const client = requireClient(ctx);
        const user = ownerUser(ctx, client.clientKey, input.data.userKey);
        const { name, value, isPdf } = input.data.template;
        const template = createTemplate(ctx, client, {
          name,
          value: value ?? '',
          contractType: isPdf ? 'pdf' : undefined,
          userKey: user.userKey,
        });
        if (input.data.placeholders?.length)
          fillPlaceholders(
            ctx,
            { templateKey: template.templateKey },
            client,
            input.data.placeholders,
            'data.placeholders',
          );
        return created(template, 'Template created');
      },
    }),
    convert: defineAction({
      summary: 'Create a template from a contract (content copied, placeholder values cleared)',
      scope: 'client',
      response: () => templateMadeSchema(true),
      schema: () =>
        dataBody({
          ...acting('convert'),
          template: z.object({ name: z.string().min(1, 'Must not be empty'), contractKey: keyField() }),
        }),
      example: { data: { action: 'convert', template: { name: 'From contract', contractKey: '<CONTRACT_KEY>' } } },
      handle(input, ctx) {
        const client = requireClient(ctx);
        const user = ownerUser(ctx, client.clientKey, input.data.userKey);
        const contract = findContract(ctx, client, input.data.template.contractKey);
        return created(
          convertContract(ctx, client, contract, { name: input.data.template.name, userKey: user.userKey }),
          'Template created',
          true,
        );
      },
    }),
    read: defineAction({
      summary: 'Read a template',
      scope: 'client',
      response: () =>
        okSchema(200, {
          template: z.strictObject({
            createTime: sqlSchema(),
            changeTime: sqlSchema(),
            templateKey: keySchema(),
            name: z.string(),
            value: z
              .string()
              .meta({ description: 'The HTML content, or for a PDF template the absolute URL of its file' }),
            isPdf: z.boolean(),
          }),
        }),
      schema: () =>
        dataBody({
          action: z.literal('read'),
          clientKey: clientKeyField(),
          template: z.object({ templateKey: keyField(), name: z.string().optional() }),
        }),
      example: { data: { action: 'read', template: { templateKey: '<TEMPLATE_KEY>' } } },
      handle(input, ctx, request) {
        const t = findTemplate(ctx, requireClient(ctx), input.data.template.templateKey);
        return reply(200, 'Template found', {
          template: {
            createTime: sqlTime(t.createTime),
            changeTime: sqlTime(t.changeTime),
            templateKey: t.templateKey,
            name: t.name,
            value: contentValue(request.publicBase(), t),
            // The components load `value` as a PDF when this is true (docs/compatibility.md, "Template").
            isPdf: contractTypeOf(t) === 'pdf',
          },
        });
      },
    }),
    update: defineAction({
      summary: 'Change a template: rename, new content',
      scope: 'client',
      response: () =>
        okSchema(
          201,
          { template: z.strictObject({ createTime: sqlSchema(), changeTime: sqlSchema(), templateKey: keySchema() }) },
          true,
        ),
      schema: () =>
        dataBody({
          ...acting('update'),
          template: z.object({ templateKey: keyField(), ...contentChange() }),
        }),
      example: { data: { action: 'update', template: { templateKey: '<TEMPLATE_KEY>', name: 'NDA v2' } } },
      handle(input, ctx) {
        const { templateKey, ...change } = input.data.template;
        const t = updateTemplate(ctx, findTemplate(ctx, requireClient(ctx), templateKey), change);
        return reply(
          201,
          'Template updated',
          {
            template: {
              createTime: sqlTime(t.createTime),
              changeTime: sqlTime(t.changeTime),
              templateKey: t.templateKey,
            },
          },
          { numericCode: true },
        );
      },
    }),
    delete: defineAction({
      summary: 'Delete a template and its placeholders',
      scope: 'client',
      response: () => okSchema(201, { template: z.strictObject({ templateKey: keySchema() }) }, true),
      schema: () =>
        dataBody({
          ...acting('delete'),
          ...byKey('template'),
        }),
      example: { data: { action: 'delete', template: { templateKey: '<TEMPLATE_KEY>' } } },
      handle(input, ctx, _request) {
        const t = findTemplate(ctx, requireClient(ctx), input.data.template.templateKey);
        deleteTemplate(ctx, t);
        // No source shows this answer; it follows the documented writes (docs/compatibility.md).
        return reply(201, 'Template deleted', { template: { templateKey: t.templateKey } }, { numericCode: true });
      },
    }),
    duplicate: defineAction({
      summary: 'Duplicate a template (placeholder structure copied, values cleared)',
      scope: 'client',
      response: () => templateMadeSchema(true),
      schema: () => dataBody({ action: z.literal('duplicate'), clientKey: clientKeyField(), ...byKey('template') }),
      example: { data: { action: 'duplicate', template: { templateKey: '<TEMPLATE_KEY>' } } },
      handle(input, ctx) {
        const client = requireClient(ctx);
        return created(
          duplicateTemplate(ctx, client, findTemplate(ctx, client, input.data.template.templateKey)),
          'Template duplicated',
          true,
        );
      },
    }),
  },
} satisfies ResourceSpec;
