import { describe, expect, it } from 'vitest';
import { leafHash, rootOf, toBase64, toHex } from './merkle-proofs.js';
import { checkReceiptProof } from './receipt-proof.js';

/** A log key and a signer written straight on Web Crypto, apart from the code under test. */
async function testLog(origin: string) {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  if (!('publicKey' in pair)) throw new Error('Ed25519 makes a key pair');
  const typed = new Uint8Array([1, ...new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey))]);
  const named = new Uint8Array([...new TextEncoder().encode(`${origin}\n`), ...typed]);
  const id = new Uint8Array(await crypto.subtle.digest('SHA-256', named)).slice(0, 4);
  const signNote = async (text: string) => {
    const signature = await crypto.subtle.sign(
      { name: 'Ed25519' },
      pair.privateKey,
      new TextEncoder().encode(text),
    );
    return `${text}\n— ${origin} ${toBase64(new Uint8Array([...id, ...new Uint8Array(signature)]))}\n`;
  };
  return { key: `${origin}+${toHex(id)}+${toBase64(typed)}`, signNote, keyId: toHex(id) };
}

const entries = [1, 2, 3].map((seq) => ({
  seq,
  GID: 4,
  Date: `2026-11-0${seq}`,
  Result: `${seq}${seq}`,
  Previous: null,
  DeclaredAt: `2026-11-0${seq}T10:00:00.000Z`,
}));

describe('a receipt’s proof, checked in the page', () => {
  it('verifies entry 1 of a tree of 3 against a signed checkpoint, and names each failure', async () => {
    const log = await testLog('results.example');
    const leaves = await Promise.all(entries.map((entry) => leafHash(entry)));
    const root = await rootOf(leaves);
    const note = await log.signNote(`results.example\n3\n${toBase64(root)}\n`);
    // RFC 6962: leaf 0 of 3 is proved by its sibling leaf 1, then the right subtree (leaf 2).
    const proof = {
      seq: 1,
      size: 3,
      leafHash: toBase64(leaves[0] as Uint8Array),
      hashes: [leaves[1], leaves[2]].map((hash) => toBase64(hash as Uint8Array)),
    };
    const entry = entries[0] as (typeof entries)[number];
    expect(await checkReceiptProof(entry, proof, note, log.key)).toEqual({
      verified: true,
      size: 3,
      keyId: log.keyId,
      origin: 'results.example',
    });

    const failed = async (...args: Parameters<typeof checkReceiptProof>) => {
      const check = await checkReceiptProof(...args);
      return check.verified ? 'verified' : check.failed;
    };
    const other = await testLog('results.example');
    expect(await failed(entry, proof, note, other.key)).toBe('checkpoint');
    expect(await failed(entry, proof, note, log.key.replace(/\+[0-9a-f]{8}\+/, '+00000000+'))).toBe('key');
    expect(await failed({ ...entry, Result: '12' }, proof, note, log.key)).toBe('leaf');
    expect(await failed(entry, { ...proof, size: 2 }, note, log.key)).toBe('size');
    expect(await failed(entry, { ...proof, hashes: [...proof.hashes].reverse() }, note, log.key)).toBe(
      'proof',
    );
    const wrongRoot = await log.signNote(`results.example\n3\n${toBase64(leaves[0] as Uint8Array)}\n`);
    expect(await failed(entry, proof, wrongRoot, log.key)).toBe('proof');
  });
});
