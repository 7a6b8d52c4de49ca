import fs from 'node:fs';
import path from 'node:path';

/**
 * Files that hold the site's data (the database, dumps, backups) are readable by their owner only,
 * whatever the umask: a mode given at creation is masked by the umask, so each one is set again with
 * chmod, which is not.
 */
export const OWNER_ONLY_FILE = 0o600;
export const OWNER_ONLY_FOLDER = 0o700;

/** Creates (or empties) `file` as an owner-only file and returns its descriptor, open for writing. */
export function openOwnerOnly(file: string): number {
  const fd = fs.openSync(file, 'w', OWNER_ONLY_FILE);
  try {
    // An existing file keeps the mode it had: set it before anything is written.
    fs.fchmodSync(fd, OWNER_ONLY_FILE);
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** Creates `file` empty and owner-only unless it exists; an existing file is left as it is. */
export function createOwnerOnlyIfAbsent(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', OWNER_ONLY_FILE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  try {
    fs.fchmodSync(fd, OWNER_ONLY_FILE);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Makes each file that exists owner-only. A file another user owns cannot be changed by this process
 * (EPERM) and keeps the mode its owner gave it.
 */
export function restrictToOwner(...files: string[]): void {
  for (const file of files) {
    try {
      fs.chmodSync(file, OWNER_ONLY_FILE);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw error;
    }
  }
}

/**
 * Creates `folder` and the parents it lacks, owner-only; folders that exist already keep their mode
 * (the operator chose it).
 */
export function makeOwnerOnlyFolder(folder: string): void {
  const first = fs.mkdirSync(folder, { recursive: true, mode: OWNER_ONLY_FOLDER });
  if (first === undefined) return;
  // From the deepest made back up to the first: the folders this call created, and only those.
  for (let made = path.resolve(folder); ; made = path.dirname(made)) {
    fs.chmodSync(made, OWNER_ONLY_FOLDER);
    if (made === path.resolve(first) || made === path.dirname(made)) return;
  }
}
