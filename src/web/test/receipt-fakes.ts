import { vi } from 'vitest';
import type { DeclarationEntry } from '../../shared/schemas/declarations.js';

/** What the receipt panel's tests (and the pages' that open it) fake: the log's answers. */

/** A log entry: Gali's 22 November 2026 corrected from 45 to 54, receipt 3f9a0c12de. */
export function logEntry(overrides: Partial<DeclarationEntry> = {}): DeclarationEntry {
  return {
    seq: 12,
    GID: 5,
    Name: 'Gali',
    Date: '2026-11-22',
    Result: '54',
    Previous: '45',
    DeclaredAt: '2026-11-22T17:50:00.000Z',
    prevHash: 'a'.repeat(64),
    hash: `3f9a0c12de${'b'.repeat(54)}`,
    Step: null,
    ...overrides,
  };
}

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/**
 * Answers GET /api/declarations with `entries` (or a failure) and GET /api/declarations/receipt/{hash}
 * with the entry and its receipt (`receipts[hash]`, else the hash's first 10 characters), and records
 * what was asked.
 */
export function answerLog(entries: DeclarationEntry[] | 'fail', receipts: Record<string, string> = {}) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      asked.push(input);
      if (entries === 'fail') return new Response('{}', { status: 500 });
      const receiptOf = /^\/api\/declarations\/receipt\/([0-9a-f]+)$/.exec(input)?.[1];
      if (receiptOf) {
        const entry = entries.find((one) => one.hash === receiptOf);
        if (!entry) return new Response('{}', { status: 404 });
        return json({
          success: true,
          data: { ...entry, Receipt: receipts[entry.hash] ?? entry.hash.slice(0, 10) },
        });
      }
      return json({ success: true, data: entries, head: { seq: 12, hash: '' } });
    }),
  );
  return asked;
}
