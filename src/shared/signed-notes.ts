import { fromBase64, type Hash, type Subtle, sha256, toHex } from './merkle-proofs.js';

/**
 * The log's checkpoints, checked from outside: C2SP signed-note (Ed25519 verifier keys, signature
 * lines) and C2SP tlog-checkpoint (origin, size, root), exactly as the site writes them: three lines
 * and one signature. Dependency-free over Web Crypto, for `npm run verify` and the receipt page.
 */

export class NoteError extends Error {}

/** `<name>+<key id hex>+<base64 of 0x01 and the Ed25519 public key>`. */
export interface VerifierKey {
  name: string;
  /** The 8 lowercase hex digits of the key id. */
  keyId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  text: string;
}

export interface NoteSignature {
  name: string;
  keyId: string;
  signature: Uint8Array<ArrayBuffer>;
}

export interface Checkpoint {
  origin: string;
  size: number;
  root: Hash;
  /** The whole signed note, as served: the evidence a monitor prints. */
  note: string;
}

const ED25519 = 0x01;
const defaultSubtle = (): Subtle => globalThis.crypto.subtle;
const validName = (name: string) => name.length > 0 && !/[\s+]/u.test(name);

/** The first 4 bytes of SHA-256(name || 0x0A || 0x01 || public key), as hex. */
export async function keyIdOf(name: string, publicKey: Uint8Array, subtle = defaultSubtle()) {
  const nameBytes = new TextEncoder().encode(`${name}\n`);
  const bytes = new Uint8Array(nameBytes.length + 1 + publicKey.length);
  bytes.set(nameBytes);
  bytes[nameBytes.length] = ED25519;
  bytes.set(publicKey, nameBytes.length + 1);
  return toHex((await sha256(bytes, subtle)).subarray(0, 4));
}

export async function parseVerifierKey(text: string, subtle = defaultSubtle()): Promise<VerifierKey> {
  // The base64 may itself hold '+': only the first two separate.
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+(\S+)$/.exec(text.trim());
  if (!match) throw new NoteError('the key is not <name>+<key id>+<base64 key>');
  const [, name = '', keyId = ''] = match;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = fromBase64(match[3] ?? '');
  } catch {
    throw new NoteError('the key is not base64');
  }
  if (bytes.length !== 33 || bytes[0] !== ED25519) throw new NoteError('the key is not an Ed25519 key');
  const publicKey = bytes.slice(1);
  if ((await keyIdOf(name, publicKey, subtle)) !== keyId)
    throw new NoteError(`the key's id ${keyId} is not the hash of its name and key`);
  return { name, keyId, publicKey, text: text.trim() };
}

/** Splits a note into its text (up to and including the newline before the blank line) and signatures. */
export function parseNote(note: string): { text: string; signatures: NoteSignature[] } {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the spec forbids exactly these.
  if (/[\u0000-\u0009\u000b-\u001f]/.test(note)) throw new NoteError('the note holds control characters');
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new NoteError('the note has no signature block');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  const signatures = lines.map((line) => {
    const parts = /^\u2014 (\S+) (\S+)$/.exec(line);
    if (!parts || !validName(parts[1] ?? '')) throw new NoteError(`malformed signature line: ${line}`);
    let blob: Uint8Array<ArrayBuffer>;
    try {
      blob = fromBase64(parts[2] ?? '');
    } catch {
      throw new NoteError(`the signature of ${parts[1]} is not base64`);
    }
    if (blob.length < 5) throw new NoteError(`the signature of ${parts[1]} is too short`);
    return { name: parts[1] ?? '', keyId: toHex(blob.subarray(0, 4)), signature: blob.slice(4) };
  });
  return { text, signatures };
}

/** The note's text, once a signature by `key` (its name and key id) verifies; throws otherwise. */
export async function verifyNote(note: string, key: VerifierKey, subtle = defaultSubtle()) {
  const { text, signatures } = parseNote(note);
  const mine = signatures.filter((sig) => sig.name === key.name && sig.keyId === key.keyId);
  if (mine.length === 0) {
    const names = signatures.map((sig) => `${sig.name} (key ${sig.keyId})`).join(', ');
    throw new NoteError(`the note is not signed by ${key.name} (key ${key.keyId}) but by ${names}`);
  }
  const publicKey = await subtle.importKey('raw', key.publicKey, { name: 'Ed25519' }, false, ['verify']);
  const message = new TextEncoder().encode(text);
  for (const sig of mine) {
    if (
      sig.signature.length !== 64 ||
      !(await subtle.verify({ name: 'Ed25519' }, publicKey, sig.signature, message))
    )
      throw new NoteError(`the signature of ${key.name} (key ${key.keyId}) does not verify`);
  }
  return text;
}

/** A checkpoint's text: its origin, decimal size and base64 root, and nothing else. */
export function parseCheckpointText(text: string): Omit<Checkpoint, 'note'> {
  const lines = text.split('\n');
  if (lines.length !== 4 || lines[3] !== '')
    throw new NoteError('the checkpoint is not exactly three lines (origin, size, root)');
  const [origin = '', sizeText = '', rootText = ''] = lines;
  if (origin.length === 0) throw new NoteError('the checkpoint has no origin');
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText)))
    throw new NoteError(`the checkpoint's size ${JSON.stringify(sizeText)} is not a number`);
  let root: Hash;
  try {
    root = fromBase64(rootText);
  } catch {
    throw new NoteError("the checkpoint's root is not base64");
  }
  if (root.length !== 32) throw new NoteError("the checkpoint's root is not a SHA-256 hash");
  return { origin, size: Number(sizeText), root };
}

/** A checkpoint signed by `key`, whose origin is the key's name; throws a NoteError otherwise. */
export async function openCheckpoint(
  note: string,
  key: VerifierKey,
  subtle = defaultSubtle(),
): Promise<Checkpoint> {
  const checkpoint = parseCheckpointText(await verifyNote(note, key, subtle));
  if (checkpoint.origin !== key.name)
    throw new NoteError(`the checkpoint's origin ${checkpoint.origin} is not the key's name ${key.name}`);
  return { ...checkpoint, note };
}
