import { describe, expect, it } from 'vitest';
import { RFC6962_LEAF_INPUTS, RFC6962_ROOTS } from '../../shared/rfc6962-test-vectors.js';
import { LeafStore } from './log-tree-check.js';

const hex = (text: string) => Buffer.from(text, 'hex');
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe("npm run verify's leaf store", () => {
  it('gives RFC 6962’s roots for every prefix, kept while reading or built afterwards', async () => {
    const kept = new LeafStore(new Set([0, 3, 8]));
    const built = new LeafStore(new Set());
    for (const input of RFC6962_LEAF_INPUTS) {
      kept.addBytes(hex(input));
      built.addBytes(hex(input));
    }
    expect(kept.size).toBe(RFC6962_LEAF_INPUTS.length);
    for (let size = 0; size <= RFC6962_LEAF_INPUTS.length; size++) {
      expect(toHex(await kept.rootAt(size)), `size ${size}`).toBe(RFC6962_ROOTS[size]);
      expect(toHex(await built.rootAt(size)), `size ${size}`).toBe(RFC6962_ROOTS[size]);
    }
  });

  it('keeps each leaf hash: RFC 6962’s first leaf, the empty input', () => {
    const store = new LeafStore(new Set());
    store.addBytes(hex(RFC6962_LEAF_INPUTS[0] ?? ''));
    expect(toHex(store.leaf(0))).toBe('6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d');
  });
});
