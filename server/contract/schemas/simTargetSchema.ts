import { z } from 'zod';

/** The most SIM slots a modem has: a plan's or a target's slot is 1 to this. */
export const MaxSimSlot = 3;

/**
 * A modem or one SIM slot of it (domain/simTarget.ts), as routing rules and apps name them: a
 * modem's id (every slot), or `{"deviceId": …, "simNumber": 2}` for one slot.
 */
export const simTargetSchema = z.union([
  z.string().min(1).max(64).describe('a modem: every SIM slot of it'),
  z
    .object({
      deviceId: z.string().min(1).max(64),
      simNumber: z
        .number()
        .int()
        .min(1)
        .max(MaxSimSlot)
        .optional()
        .describe('one SIM slot; absent: every slot'),
    })
    .strict(),
]);

export const simTargetsSchema = z.array(simTargetSchema).max(100);
