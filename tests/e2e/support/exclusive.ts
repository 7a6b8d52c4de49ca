import fs from 'node:fs';
import path from 'node:path';
import { test } from '@playwright/test';

/** A lock older than a test's timeout was left by a test that never finished (its worker was stopped). */
const ABANDONED_AFTER_MS = 60_000;

function takeLock(lock: string): boolean {
  try {
    fs.mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const taken = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
    if (taken !== undefined && Date.now() - taken > ABANDONED_AFTER_MS) {
      fs.rmSync(lock, { recursive: true, force: true });
    }
    return false;
  }
}

/**
 * Runs `work` while no other test, in any worker, runs work under the same name: for tests that own
 * something the whole site shows, such as the home page's blog block, whose repeats (--repeat-each)
 * may otherwise run at the same time. The lock is a directory (mkdir is atomic) in the run's output
 * folder, which every run empties first.
 */
export async function exclusively<T>(name: string, work: () => Promise<T>): Promise<T> {
  const lock = path.join(test.info().project.outputDir, `lock-${name}`);
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  while (!takeLock(lock)) await new Promise((resolve) => setTimeout(resolve, 100));
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
