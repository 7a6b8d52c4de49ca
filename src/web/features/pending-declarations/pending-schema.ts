import { z } from 'zod';
import { resultValue } from '../../../shared/schemas/results.js';

/** A value the admin types for a pending ghadi and date: the API's own rule for a result. */
export const pendingValueForm = z.object({ result: resultValue });

export type PendingValueValues = z.input<typeof pendingValueForm>;
export type PendingValueOutput = z.output<typeof pendingValueForm>;
