import { z } from 'zod';
import { ghadiInput } from '../../../shared/schemas/ghadis.js';

/**
 * OrderId comes from a text input: an empty one says "required", anything else gets the API's own
 * number rule and messages. (A plain .pipe() would not type-check: the API rule also takes numbers.)
 */
const orderIdText = z
  .string()
  .trim()
  .min(1, 'This field is required')
  .transform((text, ctx) => {
    const parsed = ghadiInput.shape.OrderId.safeParse(text);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });

/** The API's ghadi rules, read from text inputs. GID is the server's to assign. */
export const ghadiForm = ghadiInput.omit({ GID: true }).extend({ OrderId: orderIdText });

export type GhadiFormValues = z.input<typeof ghadiForm>;
export type GhadiFormOutput = z.output<typeof ghadiForm>;
