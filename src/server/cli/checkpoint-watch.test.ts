import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NoteError } from '../../shared/signed-notes.js';
import { againstKept, Conflict, keep, readKept } from './checkpoint-watch.js';

/** A log key and its signer, written here with node:crypto. */
function testLog(origin: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const typed = Buffer.concat([
    Buffer.from([1]),
    Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url'),
  ]);
  const id = createHash('sha256').update(`${origin}\n`).update(typed).digest().subarray(0, 4);
  const checkpoint = (size: number, root: string) => {
    const text = `${origin}\n${size}\n${Buffer.from(root.padEnd(32, '.')).toString('base64')}\n`;
    const signature = Buffer.concat([id, sign(null, Buffer.from(text), privateKey)]).toString('base64');
    return `${text}\n— ${origin} ${signature}\n`;
  };
  return { key: `${origin}+${id.toString('hex')}+${typed.toString('base64')}`, checkpoint };
}

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpoint-watch-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe('kept checkpoints', () => {
  const log = testLog('results.example/log');

  it('keeps each new checkpoint in an owner-only file and reads the last one back, its signature checked', async () => {
    const file = path.join(folder, 'kept.json');
    expect(await readKept(file)).toBeNull();
    const first = await againstKept(null, log.key, log.checkpoint(3, 'a'));
    keep(file, first.key, first.checkpoint, null);
    const kept = await readKept(file);
    const second = await againstKept(kept, log.key, log.checkpoint(5, 'b'));
    keep(file, second.key, second.checkpoint, kept);
    keep(file, second.key, second.checkpoint, await readKept(file));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      key: log.key,
      checkpoints: [log.checkpoint(3, 'a'), log.checkpoint(5, 'b')],
    });
    expect((await readKept(file))?.checkpoint.size).toBe(5);
    fs.writeFileSync(path.join(folder, 'broken.json'), '{"key": "x", "checkpoints": ["y"]}');
    await expect(readKept(path.join(folder, 'broken.json'))).rejects.toThrow(
      'is not a file of kept checkpoints',
    );
  });

  it('a smaller tree, another root at the same size, a bad signature or another key conflicts, with both notes', async () => {
    const file = path.join(folder, 'conflicts.json');
    const opened = await againstKept(null, log.key, log.checkpoint(5, 'b'));
    keep(file, opened.key, opened.checkpoint, null);
    const kept = await readKept(file);
    const conflict = async (key: string, note: string) => {
      const error = await againstKept(kept, key, note).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      if (!(error instanceof Conflict)) throw new Error(`no conflict: ${String(error)}`);
      expect([error.kept, error.served]).toEqual([log.checkpoint(5, 'b'), note]);
      return error.message;
    };
    expect(await conflict(log.key, log.checkpoint(4, 'b'))).toBe(
      'the tree shrank: a checkpoint of size 5 was kept, one of 4 is served',
    );
    expect(await conflict(log.key, log.checkpoint(5, 'c'))).toMatch(
      /^two checkpoints of size 5 with different roots/,
    );
    const forged = log.checkpoint(6, 'c').replace('\n6\n', '\n7\n');
    expect(await conflict(log.key, forged)).toMatch(
      /^the checkpoint served does not verify: .* does not verify/,
    );
    const rotated = testLog('results.example/log');
    expect(await conflict(rotated.key, rotated.checkpoint(6, 'c'))).toBe(
      `the log key changed at the same origin: ${log.key} was kept, ${rotated.key} is served`,
    );
    const moved = testLog('elsewhere.example/log');
    expect(await conflict(moved.key, moved.checkpoint(6, 'c'))).toMatch(/^the log's origin changed/);
    // A later checkpoint of the same key is no conflict here (its consistency proof is asked for apart).
    expect((await againstKept(kept, log.key, log.checkpoint(6, 'c'))).checkpoint.size).toBe(6);
    // With nothing kept, a bad signature is a plain failure, not a conflict.
    await expect(againstKept(null, log.key, forged)).rejects.toBeInstanceOf(NoteError);
  });
});
