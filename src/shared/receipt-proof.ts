import { fromBase64, type LeafFields, leafHash, toBase64, verifyInclusion } from './merkle-proofs.js';
import { openCheckpoint, parseVerifierKey } from './signed-notes.js';

/**
 * A receipt's proof, checked where it is shown (the receipt page loads this on demand; Web Crypto):
 * the checkpoint's signature with the site's published key, the entry's leaf, and the inclusion proof
 * up to the checkpoint's root. A failure answers a code (for the page's own words, in each language)
 * and the detail in English.
 */

export interface ReceiptProof {
  seq: number;
  size: number;
  leafHash: string;
  hashes: string[];
}

export type ReceiptCheck =
  | { verified: true; size: number; keyId: string; origin: string }
  | { verified: false; failed: 'browser' | 'key' | 'checkpoint' | 'size' | 'leaf' | 'proof'; detail: string };

export async function checkReceiptProof(
  entry: LeafFields,
  proof: ReceiptProof,
  checkpointNote: string,
  verifierKey: string,
): Promise<ReceiptCheck> {
  const failure = (failed: Exclude<ReceiptCheck, { verified: true }>['failed'], detail: string) =>
    ({ verified: false, failed, detail }) as const;
  // Web Crypto exists only in secure contexts (HTTPS, localhost); Ed25519 in browsers of 2025 on.
  if (!globalThis.crypto?.subtle) return failure('browser', 'this browser has no Web Crypto here');
  let key: Awaited<ReturnType<typeof parseVerifierKey>>;
  try {
    key = await parseVerifierKey(verifierKey);
  } catch (error) {
    return failure('key', (error as Error).message);
  }
  let checkpoint: Awaited<ReturnType<typeof openCheckpoint>>;
  try {
    checkpoint = await openCheckpoint(checkpointNote, key);
  } catch (error) {
    // A browser without Ed25519 in Web Crypto says NotSupportedError: no verdict on the site.
    if ((error as Error).name === 'NotSupportedError') return failure('browser', (error as Error).message);
    return failure('checkpoint', (error as Error).message);
  }
  if (proof.size !== checkpoint.size || proof.seq !== entry.seq)
    return failure(
      'size',
      `the proof is of seq ${proof.seq} in size ${proof.size}, not of seq ${entry.seq} in the checkpoint's ${checkpoint.size}`,
    );
  const leaf = await leafHash(entry);
  if (toBase64(leaf) !== proof.leafHash)
    return failure(
      'leaf',
      `the entry shown hashes to ${toBase64(leaf)}, the proof's leaf is ${proof.leafHash}`,
    );
  let hashes: Uint8Array<ArrayBuffer>[];
  try {
    hashes = proof.hashes.map(fromBase64);
  } catch {
    return failure('proof', 'the proof is not base64');
  }
  if (!(await verifyInclusion(entry.seq - 1, checkpoint.size, leaf, hashes, checkpoint.root)))
    return failure('proof', `the inclusion proof does not lead to the checkpoint's root`);
  return { verified: true, size: checkpoint.size, keyId: key.keyId, origin: key.name };
}
