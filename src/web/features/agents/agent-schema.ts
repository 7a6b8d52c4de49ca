import { z } from 'zod';
import { userCreateInput, userUpdateInput } from '../../../shared/schemas/users.js';

/** The Status select speaks the spec's Active/Inactive; the API takes a boolean. */
const status = z
  .enum(['active', 'inactive'], 'Choose Active or Inactive')
  .transform((value) => value === 'active');

/**
 * Creating an agent: the API's own rules, but an empty password says "required" rather than
 * "too short". UserType is left out: the server makes every new user an agent.
 */
export const agentCreateForm = userCreateInput.omit({ UserType: true }).extend({
  Password: z.string().min(1, 'This field is required').pipe(userCreateInput.shape.Password),
  isActive: status,
});

/** Editing: a blank password is dropped, so the server keeps the old one. UserType is never sent. */
export const agentEditForm = userUpdateInput.omit({ UserType: true }).extend({ isActive: status });

/** What the inputs hold: text everywhere, the status as the select's value. */
export interface AgentFormValues {
  UserName: string;
  DisplayName: string;
  Email: string;
  Password: string;
  isActive: 'active' | 'inactive';
}

/** What a valid form hands to the save call (the create form's output fits it too). */
export type AgentFormOutput = z.output<typeof agentEditForm>;
