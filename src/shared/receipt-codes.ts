import { completesOpenHalf } from './matka.js';

/**
 * Receipts: the first RECEIPT_LENGTH characters (lowercase hex) of a declaration log entry's hash,
 * and the page each has. Pure, for the server and the pages alike.
 */
export const RECEIPT_LENGTH = 10;

/** A receipt as typed: either case (it is read in lower case). */
export const RECEIPT_PATTERN = /^[0-9a-fA-F]{10}$/;

/** An entry's receipt. */
export const receiptOf = (hash: string) => hash.slice(0, RECEIPT_LENGTH);

/** A receipt's page (English; Hindi under /hi). */
export const receiptPath = (receipt: string) => `/r/${receipt}`;

/**
 * Whether a log entry replaced its Previous as a correction. On an open/close market a close step
 * (`Step: "close"`) whose Previous is its own open half completed the day: no correction.
 */
export function isCorrection(entry: {
  Result: string;
  Previous: string | null;
  Step: string | null;
}): boolean {
  if (entry.Previous === null) return false;
  return !(entry.Step === 'close' && completesOpenHalf(entry.Previous, entry.Result));
}
