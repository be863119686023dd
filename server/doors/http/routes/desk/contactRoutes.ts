import { z } from 'zod';
import { pageQuery } from '../../../../contract/schemas/primitives.js';
import { contactFields, groupName } from '../../../../services/desk/contacts/contactFields.js';
import {
  type ContactImport,
  ImportErrorsListed,
  MaxImportRows,
} from '../../../../services/desk/contacts/contactImport.js';
import type { ContactRepository } from '../../../../services/desk/contacts/contactRepository.js';
import type { GroupRepository } from '../../../../services/desk/contacts/groupRepository.js';
import type { NumberReader } from '../../../../services/desk/numberReader.js';
import type { ApiBuilder } from '../../defineRoute.js';
import { accessErrors, errorResponse } from '../../responses.js';

const contactSchema = z.object({
  id: z.string(),
  phoneNumber: z.string().describe('E.164'),
  name: z.string(),
  notes: z.string(),
  groupIds: z.array(z.string()),
  updatedAt: z.number().describe('ms since epoch'),
});

const contactInputSchema = z.object({
  ...contactFields,
  notes: contactFields.notes.optional(),
  groupIds: contactFields.groupIds.optional(),
});

const groupSchema = z.object({ id: z.string(), name: z.string(), size: z.number().int() });
const groupInputSchema = z.object({ name: groupName });

const importSchema = z.object({
  csv: z
    .string()
    .min(1, 'must not be empty')
    .describe(`the file as text (UTF-8; \`,\`, \`;\` or tab separated), at most ${MaxImportRows} rows`),
  mapping: z.object({
    phoneNumber: z.string().min(1).describe('header of the column holding the number'),
    name: z.string().optional(),
    notes: z.string().optional(),
    groups: z.string().optional().describe('group names separated by , or ;'),
  }),
  commit: z
    .boolean()
    .default(false)
    .describe('false: only the preview; true: import, unless any row has an error'),
  skipRowsWithErrors: z
    .boolean()
    .default(false)
    .describe('with commit: import the rows without errors and leave the listed ones out'),
});

const importReportSchema = z.object({
  columns: z.array(z.string()),
  rows: z.number().int(),
  contacts: z.array(
    z.object({
      line: z.number().int(),
      phoneNumber: z.string(),
      name: z.string(),
      notes: z.string(),
      groups: z.array(z.string()),
      existing: z.boolean(),
    }),
  ),
  duplicates: z.number().int(),
  errors: z
    .array(z.object({ line: z.number().int(), field: z.string(), message: z.string() }))
    .describe(`the first ${ImportErrorsListed} row errors`),
  errorCount: z.number().int().describe('every row error, listed or not'),
  imported: z.object({ created: z.number().int(), updated: z.number().int() }).optional(),
});

export interface ContactRouteDependencies {
  contacts: ContactRepository;
  groups: GroupRepository;
  contactImport: ContactImport;
  readNumber: NumberReader;
}

/** The address book: contacts, groups, CSV import, and the name lookup every screen uses. */
export function registerContactRoutes(api: ApiBuilder, deps: ContactRouteDependencies): void {
  const { contacts, groups, readNumber } = deps;
  const tag = 'Contacts';
  const read = accessErrors('contacts:read');
  const write = accessErrors('contacts:write');
  const checkedInput = (body: z.output<typeof contactInputSchema>) => {
    groups.checkIds(body.groupIds ?? [], 'groupIds');
    return { ...body, phoneNumber: readNumber(body.phoneNumber, 'phoneNumber') };
  };

  api.route({
    method: 'get',
    path: '/gateway/v1/contacts',
    summary: 'List contacts by name; X-Total-Count has the total',
    tag,
    access: { scope: 'contacts:read' },
    query: z.object({
      ...pageQuery,
      search: z.string().max(200).optional().describe('substring of the name, number or notes'),
      groupId: z.string().optional().describe('only members of this group'),
    }),
    responses: { 200: { description: 'a page of contacts', schema: z.array(contactSchema) }, ...read },
    async handle({ query }) {
      const page = contacts.list(query);
      return { status: 200, body: page.items, headers: { 'X-Total-Count': String(page.total) } };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/contacts',
    summary: 'Add a contact',
    tag,
    access: { scope: 'contacts:write' },
    body: contactInputSchema,
    responses: {
      201: { description: 'the stored contact', schema: contactSchema },
      400: errorResponse('a field is wrong, e.g. a number that cannot be read'),
      409: errorResponse('the number is already in the address book'),
      ...write,
    },
    async handle({ body }) {
      return { status: 201, body: await contacts.create(checkedInput(body)) };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/contacts/:id',
    summary: 'One contact',
    tag,
    access: { scope: 'contacts:read' },
    responses: {
      200: { description: 'the contact', schema: contactSchema },
      404: errorResponse('no such contact'),
      ...read,
    },
    async handle({ params }) {
      return { status: 200, body: contacts.get(params.id ?? '') };
    },
  });

  api.route({
    method: 'put',
    path: '/gateway/v1/contacts/:id',
    summary: 'Replace a contact (groups unchanged when groupIds is absent)',
    tag,
    access: { scope: 'contacts:write' },
    body: contactInputSchema,
    responses: {
      200: { description: 'the stored contact', schema: contactSchema },
      400: errorResponse('a field is wrong'),
      404: errorResponse('no such contact'),
      409: errorResponse('another contact has the number'),
      ...write,
    },
    async handle({ params, body }) {
      return { status: 200, body: await contacts.replace(params.id ?? '', checkedInput(body)) };
    },
  });

  api.route({
    method: 'delete',
    path: '/gateway/v1/contacts/:id',
    summary: 'Remove a contact',
    tag,
    access: { scope: 'contacts:write' },
    responses: {
      204: { description: 'removed' },
      404: errorResponse('no such contact'),
      ...write,
    },
    async handle({ params }) {
      await contacts.remove(params.id ?? '');
      return { status: 204 };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/contacts/names',
    summary: 'Names of the numbers that are in the address book (what screens show beside numbers)',
    tag,
    access: { scope: 'contacts:read' },
    body: z.object({ phoneNumbers: z.array(z.string().max(40)).max(1000) }),
    responses: {
      200: {
        description: 'number → name, for the numbers that have a contact',
        schema: z.record(z.string(), z.string()),
      },
      ...read,
    },
    async handle({ body }) {
      return { status: 200, body: contacts.namesOf(body.phoneNumbers) };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/contacts/import',
    summary: 'Preview or import contacts from CSV: merged by number, all rows or none',
    tag,
    access: { scope: 'contacts:write' },
    body: importSchema,
    responses: {
      200: { description: 'the preview, or the import carried out (`imported`)', schema: importReportSchema },
      400: errorResponse('a field is wrong; or rows have errors and nothing was imported'),
      413: errorResponse(`the file has more than ${MaxImportRows} rows`),
      ...write,
    },
    async handle({ body }) {
      const report = await deps.contactImport.run(body.csv, body.mapping, {
        commit: body.commit,
        skipRowsWithErrors: body.skipRowsWithErrors,
      });
      if (body.commit && report.errorCount > 0 && report.imported === undefined) {
        const [first] = report.errors;
        return {
          status: 400,
          body: {
            message: `rows: ${report.errorCount} errors (line ${first?.line}, ${first?.field}: ${first?.message}); nothing was imported`,
            ...report,
          },
        };
      }
      return { status: 200, body: report };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/groups',
    summary: 'List contact groups with their sizes',
    tag,
    access: { scope: 'contacts:read' },
    responses: { 200: { description: 'every group', schema: z.array(groupSchema) }, ...read },
    async handle() {
      return { status: 200, body: groups.list() };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/groups',
    summary: 'Add a group',
    tag,
    access: { scope: 'contacts:write' },
    body: groupInputSchema,
    responses: {
      201: { description: 'the group', schema: groupSchema },
      409: errorResponse('a group has that name'),
      ...write,
    },
    async handle({ body }) {
      return { status: 201, body: await groups.create(body.name) };
    },
  });

  api.route({
    method: 'put',
    path: '/gateway/v1/groups/:id',
    summary: 'Rename a group',
    tag,
    access: { scope: 'contacts:write' },
    body: groupInputSchema,
    responses: {
      200: { description: 'the group', schema: groupSchema },
      404: errorResponse('no such group'),
      409: errorResponse('a group has that name'),
      ...write,
    },
    async handle({ params, body }) {
      return { status: 200, body: await groups.rename(params.id ?? '', body.name) };
    },
  });

  api.route({
    method: 'delete',
    path: '/gateway/v1/groups/:id',
    summary: 'Remove a group (its contacts stay)',
    tag,
    access: { scope: 'contacts:write' },
    responses: {
      204: { description: 'removed' },
      404: errorResponse('no such group'),
      ...write,
    },
    async handle({ params }) {
      await groups.remove(params.id ?? '');
      return { status: 204 };
    },
  });
}
