import { z } from 'zod';

/* The transparency log's proofs (GET /api/log/proof/...): the shapes docs/api.md describes. */

/** A tree size or seq: a whole number from 1 (a query parameter arrives as digits). */
const treeNumber = z
  .string()
  .regex(/^[1-9]\d{0,14}$/, 'Must be a whole number from 1')
  .transform(Number);

const base64Hash = z.string().describe('A SHA-256 hash in standard base64');

export const inclusionQuery = z.object({
  seq: treeNumber.describe('The entry (its seq; the leaf at index seq - 1)'),
  size: treeNumber.describe("The tree size to prove it in: at most the latest checkpoint's"),
});

export const consistencyQuery = z.object({
  from: treeNumber.describe('The earlier tree size'),
  to: treeNumber.describe("The later tree size: at most the latest checkpoint's"),
});

export const inclusionAnswer = z.object({
  success: z.literal(true),
  seq: z.number().int(),
  size: z.number().int(),
  leafHash: base64Hash,
  hashes: z.array(base64Hash).describe("RFC 6962's audit path, from the leaf up"),
});

export const consistencyAnswer = z.object({
  success: z.literal(true),
  from: z.number().int(),
  to: z.number().int(),
  hashes: z.array(base64Hash).describe("RFC 6962's consistency proof (none when from = to)"),
});
