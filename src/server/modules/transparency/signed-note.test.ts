import { describe, expect, it } from 'vitest';
import { checkpointText, logKeyFromSeed, logOriginOf, seedOf, signNote, verifierKey } from './signed-note.js';

// The signed-note example of golang.org/x/mod/sumdb/note (also C2SP's): its signer key is
// PRIVATE+KEY+<name>+<key id>+<base64(0x01 || seed)>; Ed25519 is deterministic, so our note must
// match theirs byte for byte.
const SIGNER = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const VERIFIER = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const NOTE = `${TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

const seed = Buffer.from(SIGNER.split('+').slice(4).join('+'), 'base64').subarray(1);

describe('signed notes', () => {
  it("sign the published example exactly as Go's note package does", () => {
    const key = logKeyFromSeed(seed);
    expect(verifierKey('PeterNeumann', key)).toBe(VERIFIER);
    expect(signNote(TEXT, 'PeterNeumann', key)).toBe(NOTE);
    expect(seedOf(key)).toEqual(seed);
  });

  it('write a checkpoint as three lines, a blank line and one signature', () => {
    const key = logKeyFromSeed(seed);
    const note = signNote(checkpointText('example.com/log', 3, Buffer.alloc(32, 7)), 'example.com/log', key);
    const lines = note.split('\n');
    expect(lines.slice(0, 4)).toEqual(['example.com/log', '3', Buffer.alloc(32, 7).toString('base64'), '']);
    expect(lines[4]).toMatch(/^\u2014 example\.com\/log [A-Za-z0-9+/]{91}=$/);
    expect(lines[5]).toBe('');
    expect(lines).toHaveLength(6);
  });

  it('take the origin from LOG_ORIGIN, else from PUBLIC_URL', () => {
    expect(logOriginOf('log.example/x', 'https://a.example')).toBe('log.example/x');
    expect(logOriginOf(undefined, 'https://results.example')).toBe('results.example');
    expect(logOriginOf(undefined, 'https://results.example:8443/site/')).toBe('results.example:8443/site');
    expect(logOriginOf(undefined, undefined)).toBeNull();
  });
});
