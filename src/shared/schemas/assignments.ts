import { z } from 'zod';
import { positiveId } from './common.js';

export const assignmentInput = z.object({
  User_Id: positiveId,
  GID: z.union([
    positiveId,
    z.array(positiveId).min(1, 'Select at least one ghadi').max(500, 'Too many ghadis'),
  ]),
});
export type AssignmentInput = z.infer<typeof assignmentInput>;

export const assignmentRecord = z.object({
  _id: z.string(),
  id: z.string(),
  User_Id: z.number().int(),
  GID: z.number().int(),
  UserName: z.string(),
  DisplayName: z.string(),
  NameEn: z.string(),
});
export type AssignmentRecord = z.infer<typeof assignmentRecord>;
