/**
 * Timing paged list queries from outside (issue 9): each query once to warm up, then `RUNS` times;
 * judged on the median, reported with the maximum. A paged query is measured on its first page, then
 * on the middle and the last page its first answer's `pagination` names.
 */

import { send } from '../lib/client.js';
import { median } from '../lib/stats.js';
import type { TimedAnswer } from '../lib/timed-request.js';

export const RUNS = 5;

export interface Query {
  /** What a report names the query by, e.g. `admin q="Gali" limit=5`. */
  label: string;
  path: string;
  params: Record<string, string>;
  token?: string;
  /** A public (tokenless) query: each request comes from an address of its own (rate limits). */
  isPublic?: boolean;
}

export interface Measured {
  label: string;
  url: string;
  status: number;
  medianMs: number;
  maxMs: number;
  /** Decoded size of the answer, and its size on the wire. */
  bytes: number;
  wireBytes: number;
  /** Where the answer breaks the paged contract, if it does. */
  problems: string[];
  pagination?: Pagination;
}

interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

interface PagedBody {
  success?: boolean;
  data?: unknown[];
  pagination?: Pagination;
  message?: string;
}

export interface QueryRunner {
  baseUrl: string;
  /** The address of the signed-in clients (admin, agent). */
  staffAddress: string;
  nextAddress: () => string;
  /** Told of each query once measured (the runner prints them). */
  report?: (measured: Measured) => void;
}

function urlOf(query: Query, extra: Record<string, string> = {}): string {
  const search = new URLSearchParams({ ...query.params, ...extra }).toString();
  return search ? `${query.path}?${search}` : query.path;
}

function parse(answer: TimedAnswer): PagedBody {
  try {
    return JSON.parse(answer.body.toString('utf8')) as PagedBody;
  } catch {
    return {};
  }
}

/** Where a paged answer breaks `{ success, data, pagination: { page, limit, total, totalPages } }`. */
function pagedProblems(body: PagedBody, page: number, limit: number): string[] {
  const problems: string[] = [];
  const data = body.data;
  const pagination = body.pagination;
  if (body.success !== true || !Array.isArray(data)) return ['not a { success: true, data: [...] } answer'];
  if (!pagination) return ['no pagination in the answer'];
  if (pagination.page !== page) problems.push(`pagination.page ${pagination.page} for page ${page}`);
  if (pagination.limit !== limit) problems.push(`pagination.limit ${pagination.limit} for limit ${limit}`);
  const pages = Math.ceil(pagination.total / limit);
  if (pagination.totalPages !== pages && !(pages === 0 && pagination.totalPages === 1)) {
    problems.push(`totalPages ${pagination.totalPages} for total ${pagination.total} by ${limit}`);
  }
  const expected = page < pages ? limit : page === pages ? pagination.total - (pages - 1) * limit : 0;
  if (data.length !== expected) problems.push(`${data.length} rows on page ${page} (expected ${expected})`);
  return problems;
}

/** Measures one request: a warm-up, then RUNS timed runs. */
export async function measure(runner: QueryRunner, query: Query, extra: Record<string, string> = {}) {
  const url = urlOf(query, extra);
  const once = () =>
    send(runner.baseUrl, url, {
      address: query.isPublic ? runner.nextAddress() : runner.staffAddress,
      ...(query.token ? { token: query.token } : {}),
    });
  await once();
  const answers: TimedAnswer[] = [];
  for (let run = 0; run < RUNS; run++) answers.push(await once());
  const last = answers[answers.length - 1] as TimedAnswer;
  const times = answers.map((answer) => answer.ms);
  const failed = answers.find((answer) => answer.status !== 200);
  const measured: Measured = {
    label: query.label,
    url,
    status: failed?.status ?? last.status,
    medianMs: median(times),
    maxMs: Math.max(...times),
    bytes: Math.max(...answers.map((answer) => answer.body.length)),
    wireBytes: Math.max(...answers.map((answer) => answer.wireBytes)),
    problems: failed ? [`answered ${failed.status}: ${parse(failed).message ?? ''}`] : [],
  };
  runner.report?.(measured);
  return { measured, body: parse(last) };
}

function pagesOf(totalPages: number): number[] {
  return [...new Set([1, Math.max(1, Math.ceil(totalPages / 2)), Math.max(1, totalPages)])];
}

/** The first, middle and last page of a paged query, each measured and checked against the contract. */
export async function measurePages(runner: QueryRunner, query: Query, limit: number): Promise<Measured[]> {
  const results: Measured[] = [];
  let pages = [1];
  for (let index = 0; index < pages.length; index++) {
    const page = pages[index] as number;
    const { measured, body } = await measure(runner, query, { page: String(page), limit: String(limit) });
    if (measured.problems.length === 0) measured.problems.push(...pagedProblems(body, page, limit));
    if (body.pagination) measured.pagination = body.pagination;
    results.push(measured);
    if (page === 1 && body.pagination) pages = pagesOf(body.pagination.totalPages);
  }
  return results;
}

/** The slowest median of a set, as a report names it. */
export function slowest(measured: Measured[]): string {
  const worst = [...measured].sort((a, b) => b.medianMs - a.medianMs)[0];
  if (!worst) return 'nothing measured';
  const overallMax = Math.max(...measured.map((one) => one.maxMs));
  return (
    `${measured.length} queries; slowest median ${worst.medianMs.toFixed(1)} ms (${worst.label}, ${worst.url}), ` +
    `slowest single answer ${overallMax.toFixed(1)} ms`
  );
}
