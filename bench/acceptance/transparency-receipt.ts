/**
 * The transparency group's receipt checks (transparency-checks.ts): an entry's receipt in the API
 * carries a proof and a checkpoint the checker's own code verifies, and its page /r/{receipt}, opened
 * in Chromium, checks them in the browser and says "Verified against checkpoint of size S, signed by
 * KEYID".
 */
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium.js';
import { openCheckpoint, parseVerifierKey, verifyInclusion } from '../lib/rfc6962.js';
import { check } from './check.js';
import type { Scenario } from './transparency-checks.js';
import type { Entry } from './transparency-site.js';
import type { CheckResult } from './types.js';

interface ReceiptAnswer {
  data: Entry & { Receipt: string };
  proof: { seq: number; size: number; leafHash: string; hashes: string[] };
  checkpoint: string;
}

const VERDICT = /Verified against checkpoint of size (\d+), signed by ([0-9a-f]{8})/;
/** What the page says when it cannot verify (receipt-proof-text.ts's failures). */
const FAILURE = /(Check failed|Not checked)[^\n]*/;

/** An entry in the middle of the log: its proof has hashes on both sides. */
const entryOf = (s: Scenario) => s.entries[Math.floor(s.entries.length / 2)] as Entry;

function apiCheck(s: Scenario): Promise<CheckResult> {
  const entry = entryOf(s);
  const receipt = entry.hash.slice(0, 10);
  return check(
    `GET /api/declarations/receipt/{receipt} carries a proof and checkpoint the checker verifies (seq ${entry.seq})`,
    async () => {
      const answer = await s.site.json<ReceiptAnswer>(`/api/declarations/receipt/${receipt}`);
      const { data, proof, checkpoint } = answer.body;
      if (answer.status !== 200)
        return { ok: false, detail: `${answer.status} ${JSON.stringify(answer.body)}` };
      const key = parseVerifierKey(s.keyText);
      const signed = openCheckpoint(checkpoint, key);
      const leaf = s.leaves[entry.seq - 1] as Buffer;
      const verified = verifyInclusion(
        entry.seq - 1,
        proof.size,
        leaf,
        proof.hashes.map((hash) => Buffer.from(hash, 'base64')),
        signed.root,
      );
      const ok =
        data.hash === entry.hash &&
        proof.seq === entry.seq &&
        proof.size === signed.size &&
        signed.size === s.entries.length &&
        proof.leafHash === leaf.toString('base64') &&
        verified;
      return {
        ok,
        detail: `receipt ${data.Receipt}: seq ${proof.seq}, ${proof.hashes.length} hashes to the checkpoint of size ${signed.size} (signed by ${key.keyId}); leaf ${proof.leafHash === leaf.toString('base64') ? 'the checker’s' : 'differs'}; proof ${verified ? 'verifies' : 'does NOT verify'}`,
      };
    },
  );
}

function pageCheck(s: Scenario): Promise<CheckResult> {
  const entry = entryOf(s);
  const receipt = entry.hash.slice(0, 10);
  return check(
    `/r/${receipt} in Chromium says "Verified against checkpoint of size S, signed by KEYID"`,
    async () => {
      const key = parseVerifierKey(s.keyText);
      const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
      try {
        const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        const response = await page.goto(`${s.site.url}/r/${receipt}`);
        const verdict = page.getByText(VERDICT).or(page.getByText(FAILURE)).first();
        const said = await verdict
          .waitFor({ state: 'visible', timeout: 15_000 })
          .then(() => verdict.textContent())
          .catch(() => null);
        const text = said ?? ((await page.locator('body').textContent()) ?? '').slice(0, 300);
        // For a person to look at: TRANSPARENCY_SHOT=/tmp/shots/receipt.png
        if (process.env.TRANSPARENCY_SHOT)
          await page.screenshot({ path: process.env.TRANSPARENCY_SHOT, fullPage: true });
        // The verdict is the browser's own: the page as served does not say it.
        const served = (await s.site.get(`/r/${receipt}`)).body.toString('utf8');
        const match = VERDICT.exec(text);
        const ok =
          response?.status() === 200 &&
          !VERDICT.test(served) &&
          match !== null &&
          Number(match[1]) === s.entries.length &&
          match[2] === key.keyId;
        return {
          ok,
          detail: `${response?.status()}; the page says "${text.trim()}" (the log has ${s.entries.length} entries, key ${key.keyId}; the served HTML says it: ${VERDICT.test(served)})${errors.length ? `; page errors: ${errors.join('; ')}` : ''}`,
        };
      } finally {
        await browser.close();
      }
    },
  );
}

export async function receiptChecks(s: Scenario): Promise<CheckResult[]> {
  return [await apiCheck(s), await pageCheck(s)];
}
