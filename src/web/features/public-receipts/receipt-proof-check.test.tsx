import { render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { leafHash, toBase64 } from '../../../shared/merkle-proofs.js';
import type { Language } from '../../../shared/page-language.js';
import type { ReceiptFound } from '../../../shared/public-page-data.js';
import type { ReceiptEntry } from '../../../shared/schemas/receipts.js';
import { keyIdOf } from '../../../shared/signed-notes.js';
import { type ProofState, ProofVerdict, ReceiptProofCheck } from './receipt-proof-check.js';

const ORIGIN = 'example.com/log';

const ENTRY: ReceiptEntry = {
  seq: 1,
  GID: 5,
  Name: 'Gali',
  Date: '2026-11-22',
  Result: '54',
  Previous: null,
  DeclaredAt: '2026-11-22T17:50:00.000Z',
  prevHash: '0'.repeat(64),
  hash: `3f9a0c12de${'b'.repeat(54)}`,
  Step: null,
  Receipt: '3f9a0c12de',
  Corrected: false,
  Latest: true,
  Next: null,
  Current: null,
};

/**
 * A log of one entry, signed as the site signs it (C2SP signed note, a fresh Ed25519 key): its root
 * is the entry's leaf, its proof has no hashes.
 */
async function signedLogOfOne() {
  const { subtle } = globalThis.crypto;
  const pair = (await subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const publicKey = new Uint8Array(await subtle.exportKey('raw', pair.publicKey));
  const keyId = await keyIdOf(ORIGIN, publicKey, subtle);
  const leaf = toBase64(await leafHash(ENTRY, subtle));
  const text = `${ORIGIN}\n1\n${leaf}\n`;
  const signature = new Uint8Array(
    await subtle.sign({ name: 'Ed25519' }, pair.privateKey, new TextEncoder().encode(text)),
  );
  const keyIdBytes = (keyId.match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16));
  const blob = new Uint8Array([...keyIdBytes, ...signature]);
  const key = `${ORIGIN}+${keyId}+${toBase64(new Uint8Array([1, ...publicKey]))}`;
  const found: ReceiptFound = {
    kind: 'entry',
    entry: ENTRY,
    ghadi: null,
    proof: { seq: 1, size: 1, leafHash: leaf, hashes: [] },
    checkpoint: `${text}\n— ${ORIGIN} ${toBase64(blob)}\n`,
  };
  return { keyId, key, found };
}

let log: Awaited<ReturnType<typeof signedLogOfOne>>;

beforeAll(async () => {
  log = await signedLogOfOne();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The page's check, with the site's key answered by `key` (or a failed request). */
function check(found: ReceiptFound, key: string | null, language: Language = 'en') {
  const fetched = vi.fn(async (_url: string) =>
    key === null ? new Response('', { status: 503 }) : new Response(`${key}\n`, { status: 200 }),
  );
  vi.stubGlobal('fetch', fetched);
  render(<ReceiptProofCheck found={found} language={language} />);
  return fetched;
}

const verdict = () => screen.findByTestId('receipt-proof-verdict');

describe('the receipt page’s proof check', () => {
  it('verifies the proof with the key it fetches: the checkpoint’s size and the 8-hex key id', async () => {
    const fetched = check(log.found, log.key);
    await vi.waitFor(async () => expect(await verdict()).toHaveAttribute('data-verdict', 'verified'));
    expect(await verdict()).toHaveTextContent(
      `Verified against checkpoint of size 1, signed by ${log.keyId}`,
    );
    expect(log.keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(fetched).toHaveBeenCalledWith('/api/log/key');
  });

  it('in Hindi', async () => {
    check(log.found, log.key, 'hi');
    await vi.waitFor(async () => expect(await verdict()).toHaveAttribute('data-verdict', 'verified'));
    expect(await verdict()).toHaveTextContent(`आकार 1 के चेकपॉइंट से सत्यापित, ${log.keyId} द्वारा साइन किया हुआ`);
  });

  it('an entry other than the one the proof is of: the leaf fails, and the page says so', async () => {
    check({ ...log.found, entry: { ...ENTRY, Result: '55' } }, log.key);
    await vi.waitFor(async () => expect(await verdict()).toHaveAttribute('data-verdict', 'failed'));
    expect(await verdict()).toHaveTextContent(
      'Check failed: the entry shown does not hash to the proof’s leaf.',
    );
  });

  it('a checkpoint signed by another key fails the signature', async () => {
    const other = await signedLogOfOne();
    check(log.found, other.key);
    await vi.waitFor(async () => expect(await verdict()).toHaveAttribute('data-verdict', 'failed'));
    expect(await verdict()).toHaveTextContent('Check failed: the checkpoint’s signature does not verify');
  });

  it('a proof with a hash too many does not lead to the root', async () => {
    check({ ...log.found, proof: { ...log.found.proof, hashes: [log.found.proof.leafHash] } }, log.key);
    await vi.waitFor(async () => expect(await verdict()).toHaveAttribute('data-verdict', 'failed'));
    expect(await verdict()).toHaveTextContent(
      'Check failed: the inclusion proof does not lead to the checkpoint’s root.',
    );
  });

  it('without the key (a failed request) nothing is claimed: it says to check by hand', async () => {
    check(log.found, null, 'hi');
    await vi.waitFor(async () => expect(await verdict()).toHaveAttribute('data-verdict', 'unchecked'));
    expect(await verdict()).toHaveTextContent('जाँच नहीं हुई: साइट की सार्वजनिक कुंजी लोड नहीं हो सकी।');
  });
});

describe('the verdict’s words', () => {
  const say = (state: ProofState, language: Language = 'en') => {
    render(<ProofVerdict state={state} language={language} />);
    return screen.getByTestId('receipt-proof-verdict');
  };
  it('before a script runs, how to check by hand; while it runs, that it checks', () => {
    expect(say({ state: 'idle' })).toHaveTextContent('To check it by hand (or without JavaScript)');
  });
  it('while checking', () => {
    expect(say({ state: 'checking' }, 'hi')).toHaveTextContent('इस ब्राउज़र में सबूत जाँचा जा रहा है…');
  });
  it('a browser without Ed25519 is no verdict on the site', () => {
    const shown = say({ state: 'done', check: { verified: false, failed: 'browser', detail: 'no Ed25519' } });
    expect(shown).toHaveAttribute('data-verdict', 'unchecked');
    expect(shown).toHaveTextContent('Not checked: this browser cannot check Ed25519 signatures.');
  });
  it('a proof of another size names the size and its detail', () => {
    const shown = say(
      { state: 'done', check: { verified: false, failed: 'size', detail: 'seq 3 in size 9' } },
      'hi',
    );
    expect(shown).toHaveAttribute('data-verdict', 'failed');
    expect(shown).toHaveTextContent('जाँच विफल: यह सबूत इस चेकपॉइंट में इस एंट्री का नहीं है।');
    expect(shown).toHaveTextContent('seq 3 in size 9');
  });
});
