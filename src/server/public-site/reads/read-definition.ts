import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ResponseHeaders } from '../../lib/response-headers.js';
import type { DeclarationLog } from '../../modules/declarations/declaration-log.js';
import type { ResultsService } from '../../modules/results/results-service.js';
import type { Punctuality } from '../../modules/stats/punctuality-rule.js';
import type { TransparencyLog } from '../../modules/transparency/transparency-log.js';
import { periodOpen, SITE_KEY, TODAY_KEY } from '../model/answer-keys.js';
import type { BuildGate } from '../model/build-gate.js';
import type { AnswerCaching, CachedAnswer } from '../model/cached-answer.js';
import type { Built } from '../model/kept-entry.js';
import type { ReadModel } from '../model/read-model.js';
import type { NotFoundAnswers } from './not-found-answers.js';
import type { PublicPages } from './page-renderer.js';

/** What the builders of public answers work with. */
export interface ReadContext {
  model: ReadModel;
  /** The server renderer, or null when the public pages are not built. */
  pages: PublicPages | null;
  /** PUBLIC_URL (an origin), or null: pages then link relatively and site files name the request's origin. */
  publicUrl: string | null;
  results: ResultsService;
  declarations: DeclarationLog;
  /** The log's tree: the latest checkpoint and inclusion proofs a receipt carries. */
  transparency: TransparencyLog;
  /** Each ghadi's punctuality (its public record of the last 30 days). */
  punctuality: Punctuality;
  /** The headers every answer carries (security, CORS), the same on both answer paths. */
  headers: ResponseHeaders;
  /** The one limit on building public answers (answers kept or not). */
  builds: BuildGate;
  /** The 404 page, built once per language until the site changes. */
  notFound: NotFoundAnswers;
}

export interface ReadInput<P, Q> {
  params: P;
  query: Q;
  /** True for a caller with a valid admin token (only `optional` reads look at tokens). */
  admin: boolean;
}

/**
 * An answer made for one request: JSON for Fastify to serialize (and compress), ready bytes, a JSON
 * document streamed as it is read (a list too long to build at once), or a permanent redirect to the
 * address the site itself uses for what was asked.
 */
export type LiveAnswer =
  | { json: unknown; caching: AnswerCaching }
  | { ready: CachedAnswer }
  | { stream: Readable }
  | { redirect: string };

/**
 * One public GET: its address, the same zod schemas the API validates with, how its answers are kept,
 * and how they are built. The Fastify routes and the fast path are both generated from these entries.
 */
export interface PublicRead<P = unknown, Q = unknown> {
  /** The read's route, as the metrics and the answer cache name it. */
  path: string;
  params?: z.ZodType<P>;
  query: z.ZodType<Q>;
  /** The 200 answer's schema (cached JSON is encoded through it). */
  response?: z.ZodType;
  /** Other answers' schemas by status, for the API's description (their bytes are made by `build`). */
  otherAnswers?: Record<number, z.ZodType>;
  /** `optional`: a bearer token may change the answer, so such requests never take the fast path. */
  access: 'public' | 'optional';
  /** Only when the server renders the public pages. */
  pageOnly?: boolean;
  /**
   * The cache key, or null when this request is answered by `live` (else by `build`) and not kept.
   * A key names what the answer is (a ghadi by its canonical name, a normalised month), never how the
   * address spelled it, and only what exists is kept (a ghadi, a year with results), so that no one
   * can multiply the kept answers by respelling or making up an address.
   */
  key(input: ReadInput<P, Q>, context: ReadContext): string | null;
  build(input: ReadInput<P, Q>, context: ReadContext): Promise<Built>;
  live?(input: ReadInput<P, Q>, context: ReadContext, request: FastifyRequest): Promise<LiveAnswer>;
}

export function defineRead<P, Q>(read: PublicRead<P, Q>): PublicRead {
  return read as unknown as PublicRead;
}

/**
 * How a shared cache may keep an answer that shows `keys` (answer-keys.ts); every answer also carries
 * SITE_KEY. `open`: it may change at any moment (else it is a closed period's).
 */
export function cachingOf(keys: readonly string[], open: boolean): AnswerCaching {
  return { keys: [SITE_KEY, ...keys], open };
}

/**
 * The caching of an answer about a period that ends on `lastDay`: open (and dropped with the day)
 * while it holds today or yesterday, closed after.
 */
export function periodCaching(lastDay: string, today: string, keys: readonly string[]): AnswerCaching {
  const open = periodOpen(lastDay, today);
  return cachingOf(open ? [...keys, TODAY_KEY] : keys, open);
}

/**
 * How long a path parameter may be, counted encoded (as the router counts): a 100-character
 * Devanagari name is 900 characters there. Anything longer than a ghadi name is simply not found.
 */
export const MAX_PATH_PARAM_LENGTH = 1000;

export const noQuery = z.object({});
export const ghadiNameParams = z.object({ name: z.string().min(1).max(MAX_PATH_PARAM_LENGTH) });

export const kept = (answer: CachedAnswer): Built => ({ answer, keep: true });
export const notKept = (answer: CachedAnswer): Built => ({ answer, keep: false });

/** What the site's own addresses are prefixed with in files that need absolute URLs. */
export function originOf(request: FastifyRequest, context: ReadContext): string {
  if (context.publicUrl) return context.publicUrl;
  // request.protocol follows X-Forwarded-Proto only when the socket's peer is a trusted proxy: the app
  // cannot see that the visitor's connection ended in TLS at the proxy, and a proxy that sets the header
  // (as docs/deployment.md's does) replaces what a client wrote. Anything but https is taken for http.
  const scheme = request.protocol === 'https' ? 'https' : 'http';
  // The Host header itself, never request.host: that follows X-Forwarded-Host from a trusted proxy,
  // and proxies pass on whatever the client wrote there.
  return `${scheme}://${request.headers.host ?? ''}`;
}
