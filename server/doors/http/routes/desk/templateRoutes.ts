import { z } from 'zod';
import { placeholdersOf } from '../../../../contract/domain/placeholders.js';
import { MaxTextLength } from '../../../../contract/schemas/messageSchemas.js';
import type { Template, TemplateRepository } from '../../../../services/desk/templates/templateRepository.js';
import type { ApiBuilder } from '../../defineRoute.js';
import { accessErrors, errorResponse } from '../../responses.js';

const templateSchema = z.object({
  id: z.string(),
  name: z.string(),
  text: z.string(),
  placeholders: z.array(z.string()).describe('the {names} in the text, lowercased'),
  updatedAt: z.number(),
});
const templateInputSchema = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(100),
  text: z
    .string()
    .min(1, 'must not be empty')
    .max(MaxTextLength)
    .describe('may hold placeholders such as {name}'),
});

const withPlaceholders = (template: Template) => ({
  ...template,
  placeholders: placeholdersOf(template.text),
});

/** Saved texts with placeholders, for Compose, bulk sends and the reply box. */
export function registerTemplateRoutes(api: ApiBuilder, deps: { templates: TemplateRepository }): void {
  const { templates } = deps;
  const tag = 'Templates';
  const read = accessErrors('templates:read');
  const write = accessErrors('templates:write');

  api.route({
    method: 'get',
    path: '/gateway/v1/templates',
    summary: 'List templates by name',
    tag,
    access: { scope: 'templates:read' },
    responses: { 200: { description: 'every template', schema: z.array(templateSchema) }, ...read },
    async handle() {
      return { status: 200, body: templates.list().map(withPlaceholders) };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/templates',
    summary: 'Add a template',
    tag,
    access: { scope: 'templates:write' },
    body: templateInputSchema,
    responses: {
      201: { description: 'the template', schema: templateSchema },
      400: errorResponse('a field is wrong'),
      409: errorResponse('a template has that name'),
      ...write,
    },
    async handle({ body }) {
      return { status: 201, body: withPlaceholders(await templates.create(body)) };
    },
  });

  api.route({
    method: 'put',
    path: '/gateway/v1/templates/:id',
    summary: 'Replace a template',
    tag,
    access: { scope: 'templates:write' },
    body: templateInputSchema,
    responses: {
      200: { description: 'the template', schema: templateSchema },
      404: errorResponse('no such template'),
      409: errorResponse('a template has that name'),
      ...write,
    },
    async handle({ params, body }) {
      return { status: 200, body: withPlaceholders(await templates.replace(params.id ?? '', body)) };
    },
  });

  api.route({
    method: 'delete',
    path: '/gateway/v1/templates/:id',
    summary: 'Remove a template',
    tag,
    access: { scope: 'templates:write' },
    responses: {
      204: { description: 'removed' },
      404: errorResponse('no such template'),
      ...write,
    },
    async handle({ params }) {
      await templates.remove(params.id ?? '');
      return { status: 204 };
    },
  });
}
