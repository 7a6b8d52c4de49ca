import { describe, expect, it } from 'vitest';
import { RECEIPT_PATTERN, uniqueReceiptOf } from './receipt-codes.js';

const HASH = `3f9a0c12de${'b'.repeat(54)}`;

describe('an entry’s receipt', () => {
  it('is the first 10 characters when no neighbour shares as many', () => {
    expect(uniqueReceiptOf(HASH, [null, null])).toBe('3f9a0c12de');
    expect(uniqueReceiptOf(HASH, [`3f9a0c12dd${'f'.repeat(54)}`, `3f9a0c${'0'.repeat(58)}`])).toBe(
      '3f9a0c12de',
    );
  });

  it('is one character longer than the longest start it shares with either neighbour', () => {
    expect(uniqueReceiptOf(HASH, [`3f9a0c12de${'a'.repeat(54)}`, null])).toBe('3f9a0c12deb');
    expect(uniqueReceiptOf(HASH, [null, `3f9a0c12debbbc${'0'.repeat(50)}`])).toBe('3f9a0c12debbbb');
  });

  it('10 to 64 hex characters, in either case, are a receipt', () => {
    for (const code of ['3f9a0c12de', '3F9A0C12DEB', HASH])
      expect(RECEIPT_PATTERN.test(code), code).toBe(true);
    for (const code of ['3f9a0c12d', `${HASH}0`, '3f9a0c12dg'])
      expect(RECEIPT_PATTERN.test(code), code).toBe(false);
  });
});
