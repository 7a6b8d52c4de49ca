import { describe, expect, it } from 'vitest';
import { preferredEncoding } from './compress-files-once.js';

describe('preferredEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0 and *', () => {
    const cases: Array<[string | undefined, string | null]> = [
      [undefined, null],
      ['', null],
      ['identity', null],
      ['deflate', null],
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['BR', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['br; q=0.5, gzip;q=1', 'gzip'],
      ['br;q=0, gzip;q=0', null],
      ['*', 'br'],
      ['br;q=0, *', 'gzip'],
      ['*;q=0', null],
      ['gzip;q=oops', null],
    ];
    for (const [header, expected] of cases)
      expect({ header, encoding: preferredEncoding(header) }).toEqual({ header, encoding: expected });
  });
});
