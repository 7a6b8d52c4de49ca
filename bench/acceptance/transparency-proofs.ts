/**
 * The transparency group's proof checks (transparency-checks.ts): the site's inclusion proofs for
 * every entry at several signed sizes, and its consistency proofs between every pair of signed sizes
 * seen, verified by the checker's own RFC 9162 code against the roots the checkpoints sign; and the
 * 400s of requests beyond the tree or malformed.
 */
import { verifyConsistency, verifyInclusion } from '../lib/rfc6962.js';
import { check } from './check.js';
import type { Scenario } from './transparency-checks.js';
import type { CheckResult } from './types.js';

interface InclusionAnswer {
  seq: number;
  size: number;
  leafHash: string;
  hashes: string[];
}

interface ConsistencyAnswer {
  from: number;
  to: number;
  hashes: string[];
}

/** Requests at once: enough to keep the server busy, few enough to leave the machine to others. */
const AT_ONCE = 8;

async function inPool<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

const hashesOf = (list: string[]) => list.map((hash) => Buffer.from(hash, 'base64'));

/** Several signed sizes: one early, the end of the corrections, one past half a tile, the latest. */
function inclusionSizes(s: Scenario): number[] {
  const sizes = [...s.signed.keys()].filter((size) => size > 0).sort((a, b) => a - b);
  const pick = [
    sizes.find((size) => size >= 8),
    sizes.find((size) => size === s.corrected),
    sizes.find((size) => size >= 128),
    sizes.at(-1),
  ];
  return [...new Set(pick.filter((size): size is number => size !== undefined))];
}

function inclusionCheck(s: Scenario): Promise<CheckResult> {
  const sizes = inclusionSizes(s);
  return check(
    `inclusion proofs of every entry at sizes ${sizes.join(', ')} verify against the signed roots; beyond the tree or malformed: 400`,
    async () => {
      const problems: string[] = [];
      const asked = sizes.flatMap((size) => Array.from({ length: size }, (_, i) => ({ seq: i + 1, size })));
      let longest = 0;
      await inPool(asked, async ({ seq, size }) => {
        const answer = await s.site.json<InclusionAnswer>(`/api/log/proof/inclusion?seq=${seq}&size=${size}`);
        const proof = answer.body;
        const leaf = s.leaves[seq - 1] as Buffer;
        const root = s.signed.get(size)?.root as Buffer;
        if (answer.status !== 200 || proof.seq !== seq || proof.size !== size)
          problems.push(`seq ${seq} at ${size}: ${answer.status} ${JSON.stringify(proof).slice(0, 120)}`);
        else if (proof.leafHash !== leaf.toString('base64'))
          problems.push(`seq ${seq}: leafHash ${proof.leafHash}, the checker's ${leaf.toString('base64')}`);
        else if (!verifyInclusion(seq - 1, size, leaf, hashesOf(proof.hashes), root))
          problems.push(`seq ${seq} at ${size}: the proof does not lead to the signed root`);
        longest = Math.max(longest, proof.hashes?.length ?? 0);
      });
      const latest = sizes.at(-1) ?? 0;
      const refused: Record<string, number> = {};
      for (const query of [
        `inclusion?seq=1&size=${latest + 1}`,
        `inclusion?seq=0&size=${latest}`,
        'inclusion?seq=5&size=3',
        'inclusion?seq=abc&size=3',
        'inclusion?seq=1',
        `inclusion?seq=1.5&size=${latest}`,
        `consistency?from=0&to=${latest}`,
        `consistency?from=1&to=${latest + 1}`,
        'consistency?from=5&to=3',
        'consistency?from=x&to=3',
        'consistency?to=3',
      ])
        refused[query] = (await s.site.get(`/api/log/proof/${query}`)).status;
      const not400 = Object.entries(refused).filter(([, status]) => status !== 400);
      for (const [query, status] of not400) problems.push(`${query} answered ${status}`);
      return {
        ok: problems.length === 0 && sizes.length >= 3,
        detail: `${asked.length} proofs (up to ${longest} hashes) at sizes ${sizes.join(', ')}; ${Object.keys(refused).length} bad requests, ${not400.length === 0 ? 'each 400' : 'not all 400'}; ${problems.length === 0 ? 'every proof verifies' : problems.slice(0, 5).join('; ')}`,
      };
    },
  );
}

function consistencyCheck(s: Scenario): Promise<CheckResult> {
  const sizes = [...s.signed.keys()].filter((size) => size > 0).sort((a, b) => a - b);
  return check(
    `consistency proofs between every pair of the ${sizes.length} signed sizes seen verify; from = to answers no hashes`,
    async () => {
      const problems: string[] = [];
      const pairs = sizes.flatMap((from) => sizes.filter((to) => to >= from).map((to) => ({ from, to })));
      await inPool(pairs, async ({ from, to }) => {
        const answer = await s.site.json<ConsistencyAnswer>(
          `/api/log/proof/consistency?from=${from}&to=${to}`,
        );
        const proof = answer.body;
        const [a, b] = [s.signed.get(from)?.root as Buffer, s.signed.get(to)?.root as Buffer];
        if (answer.status !== 200 || proof.from !== from || proof.to !== to)
          problems.push(`${from}→${to}: ${answer.status} ${JSON.stringify(proof).slice(0, 120)}`);
        else if (from === to && proof.hashes.length !== 0)
          problems.push(`${from}→${to}: ${proof.hashes.length} hashes, not none`);
        else if (!verifyConsistency(from, to, hashesOf(proof.hashes), a, b))
          problems.push(`${from}→${to}: the proof does not verify between the signed roots`);
      });
      return {
        ok: problems.length === 0 && sizes.length >= 20,
        detail: `${pairs.length} pairs (${sizes.length} with from = to) among sizes ${sizes.slice(0, 3).join(', ')} … ${sizes.at(-1)}; ${problems.length === 0 ? 'every proof verifies' : `${problems.length} failed: ${problems.slice(0, 5).join('; ')}`}`,
      };
    },
  );
}

export async function proofChecks(s: Scenario): Promise<CheckResult[]> {
  return [await inclusionCheck(s), await consistencyCheck(s)];
}
