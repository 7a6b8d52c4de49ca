import fs from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { failureAnswer } from '../../shared/schemas/common.js';
import type { Access } from './access.js';
import { compressFilesOnce } from './compress-files-once.js';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';

const BEARER = 'bearerAuth';
const { $schema: _dialect, ...FAILURE_SCHEMA } = z.toJSONSchema(failureAnswer, { target: 'draft-2020-12' });

/** This package's version, the document's own (the same file from src/ and from dist/). */
function packageVersion(): string {
  const file = new URL('../../../package.json', import.meta.url);
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** Why a route may fail, by status: the error handler's one JSON shape (errors.ts) for each. */
const FAILURE_REASONS: Record<number, string> = {
  400: 'Bad input: the message names the field',
  401: 'Missing, invalid or expired token; on the login, a wrong name or password, or (twoFactorRequired) a two-factor code to send',
  403: 'Wrong role, a ghadi not assigned, a date outside the agent window, (passwordChangeRequired) a generated password to change first, or (twoFactorSetupRequired) an admin session without a second factor while REQUIRE_ADMIN_2FA=true',
  404: 'Unknown id or name',
  409: 'Duplicate name, slug, GID or assignment, or the last active admin',
  413: 'Body too large',
  429: 'Too many requests: wait as long as Retry-After says',
  500: 'Unexpected error (details are logged with the request id, never sent)',
};

/** Routes that may answer 429: password checks, live streams and uncached public queries. */
const THROTTLED = new Set([
  '/api/users/login',
  '/api/users/me/password',
  '/api/users/me/2fa/disable',
  '/api/events',
  '/api/results',
]);

/** Resources whose writes can collide with a unique rule (409). */
const UNIQUE_RESOURCES = new Set(['users', 'ghadis', 'usermaps', 'contentblocks']);

/**
 * The failures a route can answer, derived from what it declares (input, access, body), so the
 * document says the same as the error handler without each route listing them again.
 */
function failuresOf(route: RouteOptions, schema: FastifySchema, access: Access): number[] {
  const statuses = new Set<number>([500]);
  if (schema.body || schema.querystring || schema.params) statuses.add(400);
  if (access !== 'public' || route.url === '/api/users/login') statuses.add(401);
  if (access !== 'public' && access !== 'optional') statuses.add(403);
  if (schema.params) statuses.add(404);
  if (schema.body) statuses.add(413);
  // Sessions and passwords collide with no unique rule.
  const sessionsOrPassword =
    route.url.startsWith('/api/users/log') ||
    route.url.startsWith('/api/users/me') ||
    route.url.endsWith('/sessions') ||
    route.url.endsWith('/2fa');
  const writes = route.method !== 'GET' && !sessionsOrPassword;
  if (writes && UNIQUE_RESOURCES.has(tagOf(route.url))) statuses.add(409);
  if (THROTTLED.has(route.url)) statuses.add(429);
  return [...statuses];
}

function securityOf(access: Access): Array<Record<string, string[]>> | undefined {
  if (access === 'public') return undefined;
  // `optional`: a token may be sent (an admin sees more), none is needed.
  return access === 'optional' ? [{}, { [BEARER]: [] }] : [{ [BEARER]: [] }];
}

/** Public reads that are not one resource's: the pages and what the pages load. */
const SITE_SEGMENTS = new Set(['home', 'site', 'events']);

/** The group the reference UI lists a route under: its resource (users, ghadis…), the site, or operations. */
function tagOf(url: string): string {
  if (url === '/healthz' || url === '/readyz' || url === '/metrics') return 'operations';
  const segment = /^\/api\/([^/:]+)/.exec(url)?.[1];
  return !segment || SITE_SEGMENTS.has(segment) ? 'public site' : segment;
}

/** Routes only the reference UI needs: not part of the API it documents. */
function isDocsRoute(url: string): boolean {
  return url === OPENAPI_PATH || url.startsWith(DOCS_PREFIX);
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

function describeRoute(input: TransformInput) {
  const { route, url } = input;
  if (isDocsRoute(url) || url.includes('*')) return { schema: { hide: true }, url };
  const converted = jsonSchemaTransform(input);
  const schema = converted.schema as FastifySchema & Record<string, unknown>;
  const access = route.config?.access ?? 'admin';
  const response = { ...(schema.response as Record<string, unknown> | undefined) };
  for (const [status, answer] of Object.entries(response)) {
    if (status.startsWith('2') && typeof answer === 'object' && answer !== null && !('description' in answer))
      response[status] = { description: 'Success', ...answer };
  }
  for (const status of failuresOf(route, input.schema, access)) {
    response[status] ??= { description: FAILURE_REASONS[status], ...FAILURE_SCHEMA };
  }
  const security = securityOf(access);
  return {
    schema: { ...schema, response, tags: [tagOf(url)], ...(security ? { security } : {}) },
    url,
  };
}

/**
 * The API's OpenAPI 3.1 document, generated from the routes' own zod schemas (GET /api/openapi.json),
 * and a reference UI over it at /api/docs, served from this site's own files so the page's CSP holds.
 * Register before the routes: the document is built from what the routes declare as they register.
 */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ghadi Results API',
        version: packageVersion(),
        description:
          'Results of each ghadi, and the admin and agent API that manages them. Lists answer ' +
          '`{ success, data }`, failures `{ success: false, message }`.',
      },
      components: {
        securitySchemes: {
          [BEARER]: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The token of POST /api/users/login',
          },
        },
      },
    },
    transform: describeRoute,
  });

  await app.register(async (docs) => {
    // The UI's own routes live under /api, where routes are admin-only unless they say otherwise.
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
    });
    // The UI's files (a large bundle among them) are compressed once each, not for every visitor.
    compressFilesOnce(docs);
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0 },
      // The site's CSP is kept: the UI needs no inline script, and no outside validator is called.
      validatorUrl: false,
    });
    docs.get(OPENAPI_PATH, { schema: { hide: true } }, (_request, reply) =>
      reply.type('application/json; charset=utf-8').send(app.swagger()),
    );
  });
}
