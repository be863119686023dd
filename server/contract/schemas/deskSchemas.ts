import { z } from 'zod';
import { ConversationDirections, OptOutSources } from '../domain/desk.js';
import { MessageStates } from '../domain/message.js';
import { RulePatternStates } from '../domain/userPatterns.js';
import { MaxTextLength } from './messageSchemas.js';
import { patternDisabledViewSchema } from './patternSchemas.js';
import { clockTime, dateTime, pageQuery, queryBoolean, searchQuery, timeZone } from './primitives.js';

/**
 * Request bodies and queries of the desk's routes (docs/desk.md "Conversations", "Opt-out",
 * "Auto-reply rules").
 */

export const conversationListQuerySchema = z.object({
  ...pageQuery,
  /** true: only archived conversations; false (default): only the others. */
  archived: queryBoolean.default(false),
  /** Digits of the party's number, or a piece of its contact's name, notes or number. */
  ...searchQuery,
});

export const threadQuerySchema = z.object({ ...pageQuery });

export const conversationReplySchema = z.object({
  text: z.string().min(1, 'must not be empty').max(MaxTextLength),
});

export const conversationStateSchema = z.object({
  archived: z.boolean(),
});

export const optOutAddSchema = z.object({
  phoneNumber: z.string().trim().min(1, 'must not be empty').max(32),
});

export const optOutListQuerySchema = z.object({ ...pageQuery });

/** The views GET /gateway/v1/conversations… answers with (server/services/desk/routes/conversationRoutes.ts). */
export const conversationViewSchema = z.object({
  number: z.string(),
  /** The contact's name, when the number is in the address book. */
  name: z.string().optional(),
  lastMessageAt: z.string(),
  lastDirection: z.enum(ConversationDirections),
  lastText: z.string(),
  replyDeviceId: z.string().optional(),
  replySimNumber: z.number().int().optional(),
  unread: z.number().int(),
  archived: z.boolean(),
});

export const threadMessageViewSchema = z.object({
  direction: z.enum(ConversationDirections),
  id: z.string(),
  at: z.string(),
  text: z.string(),
  deviceId: z.string().optional(),
  simNumber: z.number().int().optional(),
  state: z.enum(MessageStates).optional(),
  error: z.string().optional(),
  scheduleAt: z.string().optional(),
});

export const optOutViewSchema = z.object({
  phoneNumber: z.string(),
  addedAt: z.string(),
  source: z.enum(OptOutSources),
});

/** Edit of a scheduled message (our extension): its time, its text, or both. */
export const scheduledEditSchema = z
  .object({
    scheduleAt: dateTime.optional(),
    text: z.string().min(1, 'must not be empty').max(MaxTextLength).optional(),
  })
  .refine((edit) => edit.scheduleAt !== undefined || edit.text !== undefined, {
    message: 'give scheduleAt, text or both',
    path: ['scheduleAt'],
  });

/** Longest pattern a rule may hold: keeps one regex's compile and run bounded. */
export const MaxPatternLength = 200;

/**
 * Most rules that may use a regular expression: each runs on every incoming SMS, and all of them
 * share one time budget per message, so past this the last ones would rarely get their turn.
 */
export const MaxRegexRules = 50;

export const ruleMatchSchema = z
  .object({
    kind: z.enum(['startsWith', 'contains', 'regex', 'any']),
    pattern: z.string().max(MaxPatternLength).default(''),
  })
  .superRefine((match, context) => {
    if (match.kind !== 'any' && match.pattern.trim() === '') {
      context.addIssue({ code: 'custom', path: ['pattern'], message: 'must not be empty' });
    }
    if (match.kind === 'regex') {
      try {
        new RegExp(match.pattern, 'iu');
      } catch (error) {
        context.addIssue({
          code: 'custom',
          path: ['pattern'],
          message: `is not a valid regular expression: ${(error as Error).message}`,
        });
      }
    }
  });

export const openingHoursSchema = z.object({
  timeZone,
  /** Open periods; days 0 (Sunday) to 6 (Saturday); a `to` before `from` runs past midnight. */
  periods: z
    .array(
      z
        .object({ days: z.array(z.number().int().min(0).max(6)).min(1), from: clockTime, to: clockTime })
        .refine((period) => period.to !== period.from, {
          message: 'must not end when it starts',
          path: ['to'],
        }),
    )
    .max(50),
});

/** A reply rule's answer: a typed text or a template; {name} and {phone} in either are the sender's. */
export type ReplyAction =
  | { kind: 'reply'; text: string; templateId?: undefined }
  | { kind: 'reply'; templateId: string; text?: undefined };

export const ruleActionSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('reply'),
      text: z.string().min(1, 'must not be empty').max(MaxTextLength).optional(),
      templateId: z.string().min(1).optional(),
    })
    // Both fields are optional above so that a missing or doubled one gets this one message;
    // the check is a type predicate, so the parsed type is the union it enforces.
    .refine(
      (action): action is ReplyAction => (action.text === undefined) !== (action.templateId === undefined),
      { message: 'give either text or templateId', path: ['text'] },
    ),
  z.object({
    kind: z.literal('forward'),
    phoneNumber: z.string().trim().min(1, 'must not be empty').max(32),
  }),
  z.object({ kind: z.literal('addToGroup'), groupId: z.string().min(1) }),
]);

export const ruleInputSchema = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(100),
  enabled: z.boolean().default(true),
  match: ruleMatchSchema,
  conditions: z
    .object({
      deviceId: z.string().min(1).optional(),
      outsideOpeningHours: openingHoursSchema.optional(),
    })
    .default({}),
  action: ruleActionSchema,
});

export type RuleInput = z.output<typeof ruleInputSchema>;

export const ruleOrderSchema = z.object({
  ids: z.array(z.string().min(1)).min(1).max(1000),
});

export const ruleTestSchema = z.object({
  text: z.string().max(MaxTextLength),
  sender: z.string().max(32).default('+10000000000'),
  deviceId: z.string().min(1).optional(),
  /** When the sample "arrives" (opening hours); default now. */
  at: dateTime.optional(),
});

/** A stored rule as GET /gateway/v1/rules lists it. */
export const ruleViewSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  match: ruleMatchSchema,
  conditions: z.object({
    deviceId: z.string().optional(),
    outsideOpeningHours: openingHoursSchema.optional(),
  }),
  action: ruleActionSchema,
  /** Present while the rule's regular expression is not run (the rule applies to nothing). */
  patternDisabled: patternDisabledViewSchema.optional(),
  /** The last reply it did not send, as its placeholders had no value for the sender. */
  lastSkipped: z.object({ phoneNumber: z.string(), missing: z.array(z.string()), at: z.string() }).optional(),
});

/** What a rule would make of a sample text (POST /gateway/v1/rules/test). */
export const ruleVerdictViewSchema = z.object({
  ruleId: z.string(),
  name: z.string(),
  applies: z.boolean(),
  reason: z.string(),
  patternState: z.enum(RulePatternStates).optional(),
  /** For a rule that applies and texts someone: the SMS it would send, placeholders filled. */
  wouldSend: z.object({ to: z.string(), text: z.string() }).optional(),
  /** For a rule that applies but could not send (a placeholder the sender cannot fill): why. */
  cannotSend: z.string().optional(),
});
