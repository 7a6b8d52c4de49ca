import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isSpaAddress } from '../../shared/spa-paths.js';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import { type DatabaseHealth, RETRY_AFTER_SECONDS } from '../db/database-health.js';
import { AppError, type FailureFlags, ServiceUnavailableError } from '../errors.js';
import { ASSETS_PREFIX } from './web-app.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

const CONTEXT_NAMES: Record<string, string> = {
  body: 'Request body',
  querystring: 'Query',
  params: 'Path',
  headers: 'Headers',
};

/** "UserName: Is required" — the message names the field, as clients show it to people. */
function validationMessage(issues: ValidationIssue[], context: string | undefined): string {
  const first = issues[0];
  const field = (first?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const reason = first?.message ?? 'Is invalid';
  if (field) return `${field}: ${reason}`;
  const where = CONTEXT_NAMES[context ?? 'body'] ?? 'Request';
  return where === 'Request body' ? 'Request body must be a JSON object' : `${where}: ${reason}`;
}

const MEGABYTE = 1024 * 1024;

/** The route's own limit: the CSV import takes 10 MB where everything else takes 1 MB. */
function tooLargeMessage(request: FastifyRequest): string {
  const limit = request.routeOptions.bodyLimit;
  // A small route's limit (a push subscription's) in kilobytes: "0 MB" would say nothing.
  if (limit && limit < MEGABYTE) return `Request body is too large (limit ${Math.round(limit / 1024)} KB)`;
  const megabytes = limit ? Math.round((limit / MEGABYTE) * 10) / 10 : 1;
  return `Request body is too large (limit ${megabytes} MB)`;
}

const KNOWN_CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type; send JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Request body length does not match Content-Length',
};

function sendFailure(reply: FastifyReply, status: number, message: string, flags: FailureFlags = {}) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ success: false, ...flags, message });
}

/** Whether an error, or the error it was caused by, says the database cannot be used now. */
function databaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 3; depth++) {
    if (isDatabaseUnavailable(cause)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

export interface ErrorHandlingOptions {
  /** The web app's page, sent for the app's own addresses (src/shared/spa-paths.ts). */
  appHtml: string | null;
  /**
   * Answers a page address no route serves with the site's 404 page, or null when the public pages
   * are not built (the app's page then answers it, with a 404, and its router says so).
   */
  notFoundPage: ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) | null;
  /** Told of every request the database failed: it logs the outage once, not each request. */
  databaseHealth: DatabaseHealth;
}

export function registerErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions) {
  const sendAppError = (reply: FastifyReply, error: AppError) => {
    if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
    return sendFailure(reply, error.statusCode, error.message, error.flags);
  };

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) return sendAppError(reply, error);
    if (error.validation) {
      return sendFailure(reply, 400, validationMessage(error.validation, error.validationContext));
    }
    if (databaseUnavailable(error)) {
      options.databaseHealth.failed(error);
      return sendAppError(
        reply,
        new ServiceUnavailableError(
          'The database is unavailable; try again in a few seconds',
          RETRY_AFTER_SECONDS,
        ),
      );
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const known =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? tooLargeMessage(request)
          : error.code
            ? KNOWN_CLIENT_ERRORS[error.code]
            : undefined;
      const message =
        known ?? (error instanceof SyntaxError ? 'Request body is not valid JSON' : error.message);
      return sendFailure(reply, status, message);
    }
    request.log.error({ err: error }, 'request failed');
    return sendFailure(reply, 500, `Internal server error (request ${request.id})`);
  });

  app.setNotFoundHandler((request, reply) => {
    const html = options.appHtml;
    const path = request.url.split('?')[0] ?? '';
    // A missing asset (a chunk of an older build, say) is a 404, not a page: a browser would refuse
    // HTML as a script anyway, and a page would hide the miss from every log.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      !path.startsWith(ASSETS_PREFIX);
    if (isPage && html && isSpaAddress(path)) {
      // Its Content-Security-Policy comes with every HTML answer (the onSend hook).
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    }
    // Any other address is no page: a 404 that people and crawlers see as one, with the site's header.
    if (isPage && options.notFoundPage) return options.notFoundPage(request, reply);
    if (isPage && html) {
      return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    }
    return sendFailure(reply, 404, `Not found: ${request.method} ${path}`);
  });
}
