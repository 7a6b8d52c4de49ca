import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { DatabaseHealth } from '../db/database-health.js';
import type { ResponseHeaders } from '../lib/response-headers.js';
import { type Metrics, UNMATCHED_ROUTE } from '../modules/metrics/metrics.js';
import { registerErrorHandling } from './error-handler.js';
import { lenientJsonParser } from './json-body.js';
import { registerOpenApi } from './openapi.js';
import { registerResponseHeaders } from './response-headers-plugin.js';

/** The largest request body accepted (Fastify's bodyLimit and the JSON parser's). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface ApiPluginNeeds {
  /** The SPA's index.html, or null when the web app is not served. */
  appHtml: string | null;
  /** The public site's 404 page, or null when the pages are not built. */
  notFoundPage: ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) | null;
  databaseHealth: DatabaseHealth;
  headers: ResponseHeaders;
  metrics: Metrics;
}

/**
 * What every route shares, before any route is registered: zod schemas, the lenient JSON body, the
 * one error handler, the response headers, the request metrics, compression and the OpenAPI document.
 */
export async function registerApiPlugins(app: FastifyInstance, needs: ApiPluginNeeds): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  lenientJsonParser(app, BODY_LIMIT_BYTES);
  registerErrorHandling(app, {
    appHtml: needs.appHtml,
    notFoundPage: needs.notFoundPage,
    databaseHealth: needs.databaseHealth,
  });
  registerResponseHeaders(app, needs.headers);
  // Every answer Fastify sends, by its route's pattern (the fast path reports its own).
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
    needs.metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await registerOpenApi(app);
}
