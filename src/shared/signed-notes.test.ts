import { describe, expect, it } from 'vitest';
import { toBase64, toHex } from './merkle-proofs.js';
import {
  openCheckpoint,
  parseCheckpointText,
  parseNote,
  parseVerifierKey,
  verifyNote,
} from './signed-notes.js';

/** The published example of golang.org/x/mod/sumdb/note (note_test.go), which C2SP signed-note follows. */
const PETER = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const ENOCH = 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop';
const TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const NOTE = `${TEXT}\n— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

/** A log key and a signer written here straight on Web Crypto, apart from the verifier. */
async function testLog(origin: string) {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  if (!('publicKey' in pair)) throw new Error('Ed25519 makes a key pair');
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  const name = new TextEncoder().encode(`${origin}\n`);
  const typed = new Uint8Array([1, ...raw]);
  const id = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array([...name, ...typed]))).slice(
    0,
    4,
  );
  const signNote = async (text: string) => {
    const signature = await crypto.subtle.sign(
      { name: 'Ed25519' },
      pair.privateKey,
      new TextEncoder().encode(text),
    );
    return `${text}\n— ${origin} ${toBase64(new Uint8Array([...id, ...new Uint8Array(signature)]))}\n`;
  };
  return { key: `${origin}+${toHex(id)}+${toBase64(typed)}`, signNote };
}

const ROOT = '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';

describe('C2SP signed notes', () => {
  it('verifies the published example note with its key, whose base64 may hold a +', async () => {
    const key = await parseVerifierKey(PETER);
    expect(key).toMatchObject({ name: 'PeterNeumann', keyId: 'c74f20a3' });
    expect(await verifyNote(NOTE, key)).toBe(TEXT);
    // The C2SP spec's example key and another with '+' in its base64 parse, their ids checked.
    expect(
      (await parseVerifierKey('example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k')).name,
    ).toBe('example.com/foo');
    expect((await parseVerifierKey('TEST+7997405c+AQcC+FTVKf0jlTdHDY3rbevmnKxxPjigCXlVtGe6RIr6')).keyId).toBe(
      '7997405c',
    );
  });

  it('refuses a changed text, another key, a key whose id is wrong, and malformed notes', async () => {
    const key = await parseVerifierKey(PETER);
    await expect(verifyNote(NOTE.replace('cryptography', 'cryptographY'), key)).rejects.toThrow(
      'does not verify',
    );
    await expect(verifyNote(NOTE, await parseVerifierKey(ENOCH))).rejects.toThrow(
      'not signed by EnochRoot (key af0cfe78) but by PeterNeumann (key c74f20a3)',
    );
    await expect(parseVerifierKey(PETER.replace('c74f20a3', 'c74f20a4'))).rejects.toThrow('is not the hash');
    await expect(parseVerifierKey('PeterNeumann+c74f20a3+AhpcXX')).rejects.toThrow();
    expect(() => parseNote(TEXT)).toThrow('no signature block');
    expect(() => parseNote(NOTE.replace('— ', '- '))).toThrow('malformed signature line');
    expect(() => parseNote(NOTE.replace('If', 'If\t'))).toThrow('control characters');
    expect(parseNote(NOTE).signatures.map((sig) => [sig.name, sig.keyId, sig.signature.length])).toEqual([
      ['PeterNeumann', 'c74f20a3', 64],
    ]);
  });
});

describe('C2SP checkpoints', () => {
  it('opens a checkpoint signed by the log key: origin, size and root', async () => {
    const log = await testLog('results.example/log');
    const note = await log.signNote(`results.example/log\n5\n${ROOT}\n`);
    const checkpoint = await openCheckpoint(note, await parseVerifierKey(log.key));
    expect({ ...checkpoint, root: toHex(checkpoint.root) }).toEqual({
      origin: 'results.example/log',
      size: 5,
      root: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      note,
    });
  });

  it('refuses a checkpoint of another log, another key, extension lines or a malformed size or root', async () => {
    const log = await testLog('results.example/log');
    const key = await parseVerifierKey(log.key);
    const other = await testLog('results.example/log');
    await expect(
      openCheckpoint(await other.signNote(`results.example/log\n5\n${ROOT}\n`), key),
    ).rejects.toThrow(/not signed by results.example\/log \(key [0-9a-f]{8}\) but by/);
    await expect(openCheckpoint(await log.signNote(`elsewhere/log\n5\n${ROOT}\n`), key)).rejects.toThrow(
      "the checkpoint's origin elsewhere/log is not the key's name",
    );
    await expect(
      openCheckpoint(await log.signNote(`results.example/log\n5\n${ROOT}\nextra\n`), key),
    ).rejects.toThrow('not exactly three lines');
    const good = await log.signNote(`results.example/log\n5\n${ROOT}\n`);
    await expect(openCheckpoint(good.replace('\n5\n', '\n6\n'), key)).rejects.toThrow('does not verify');
    expect(() => parseCheckpointText(`o\n05\n${ROOT}\n`)).toThrow('is not a number');
    expect(() => parseCheckpointText('o\n5\nAAAA\n')).toThrow('not a SHA-256 hash');
    expect(parseCheckpointText(`o\n0\n${ROOT}\n`).size).toBe(0);
  });
});
