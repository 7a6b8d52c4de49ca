import { completesOpenHalf } from './matka.js';

/**
 * Receipts: the shortest prefix (lowercase hex, at least RECEIPT_LENGTH characters) of a declaration
 * log entry's hash that no other entry's hash begins with, and the page each has. Pure, for the
 * server and the pages alike.
 */
export const RECEIPT_LENGTH = 10;

/** A receipt as typed: 10 to 64 hex characters, either case (it is read in lower case). */
export const RECEIPT_PATTERN = /^[0-9a-fA-F]{10,64}$/;

const sharedLength = (a: string, b: string) => {
  let length = 0;
  while (length < a.length && a[length] === b[length]) length += 1;
  return length;
};

/**
 * The receipt of `hash` given the hashes just before and after it in sorted order (null at either
 * end): one character more than it shares with either, and at least RECEIPT_LENGTH.
 */
export function uniqueReceiptOf(hash: string, neighbours: readonly (string | null)[]): string {
  let length = RECEIPT_LENGTH;
  for (const other of neighbours)
    if (other !== null) length = Math.max(length, sharedLength(hash, other) + 1);
  return hash.slice(0, length);
}

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
