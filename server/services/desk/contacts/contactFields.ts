import { z } from 'zod';

/**
 * A contact's fields as every way in checks them: the API's create and replace
 * (routes/contactRoutes.ts) and the CSV import, row by row (contactImport.ts). So a value the
 * API refuses is a row error in an import, in the same words, and never stored by either.
 */
export const contactFields = {
  phoneNumber: z
    .string()
    .min(1, 'must not be empty')
    .max(40)
    .describe('as typed: read as E.164 with the desk.default_country setting unless it starts with + or 00'),
  name: z.string().trim().min(1, 'must not be empty').max(200),
  notes: z.string().max(2000),
  groupIds: z.array(z.string()).max(100),
};

/** A group's name, given to the API or in an import's groups column. */
export const groupName = z.string().trim().min(1, 'must not be empty').max(100);
