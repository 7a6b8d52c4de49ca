import { z } from 'zod';
import { assignmentInput } from '../../../shared/schemas/assignments.js';

/** The spec's rule: exactly one ticked ghadi goes as a single number, otherwise as a list. */
export function ghadiSelection(gids: number[]): number | number[] {
  const [only, ...rest] = gids;
  return only !== undefined && rest.length === 0 ? only : gids;
}

/** The select's value (a digit string) checked by the API's own User_Id rule, with its messages. */
const agentId = z
  .string()
  .min(1, 'Please select an agent')
  .transform((text, ctx) => {
    const parsed = assignmentInput.shape.User_Id.safeParse(text);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });

/**
 * An agent is required; ghadis are optional here on purpose: with none ticked (or only ones already
 * assigned) the server answers with its own message, which the form shows.
 */
export const assignForm = z.object({
  User_Id: agentId,
  GID: z.array(z.number().int()).transform(ghadiSelection),
});

export type AssignFormValues = z.input<typeof assignForm>;
export type AssignFormOutput = z.output<typeof assignForm>;
