import type { FastifyInstance, FastifyReply } from 'fastify';
import { EMBEDDABLE_CONTENT_SECURITY_POLICY, type ResponseHeaders } from '../lib/response-headers.js';

/** Adds `value` to the answer's Vary header unless it names it already. */
function varyOn(reply: FastifyReply, value: string) {
  const current = reply.getHeader('vary');
  const text = Array.isArray(current) ? current.join(', ') : current === undefined ? '' : String(current);
  if (
    !text
      .toLowerCase()
      .split(/\s*,\s*/)
      .includes(value)
  )
    reply.header('vary', text ? `${text}, ${value}` : value);
}

/** The headers of every answer Fastify sends (the fast path sends the same: ResponseHeaders). */
export function registerResponseHeaders(app: FastifyInstance, headers: ResponseHeaders) {
  // A callback hook, not an async one: it runs on every response, and a promise each time shows.
  app.addHook('onSend', (request, reply, payload, done) => {
    // Keyed on the answer's type, not its route, so that every HTML answer has the page policy. An
    // embed's cached answer set the embeddable policy itself (answer-delivery.ts): it is kept.
    const frameable = reply.getHeader('content-security-policy') === EMBEDDABLE_CONTENT_SECURITY_POLICY;
    reply.headers(headers.securityFor(reply.getHeader('content-type'), frameable));
    // A public answer a shared cache may keep (it names its keys) is the same for everyone: no request
    // id, and CORS for every origin (answer-delivery.ts). Public routes log nothing to find by the id.
    if (reply.hasHeader('surrogate-key')) {
      if (headers.corsEnabled) reply.header('access-control-allow-origin', '*');
      done(null, payload);
      return;
    }
    reply.header('x-request-id', request.id);
    if (headers.corsEnabled) {
      const allowed = headers.corsFor(request.headers.origin);
      if (allowed) reply.headers(allowed);
      varyOn(reply, 'origin');
    }
    // Every other API answer may be someone's own (a token's): no cache keeps it, shared or not.
    if (request.routeOptions.url?.startsWith('/api/') && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'private, no-store');
    done(null, payload);
  });
  if (!headers.corsEnabled) return;
  // A separately hosted front end's preflights (CORS_ORIGINS).
  app.options('*', (request, reply) => {
    if (!request.headers.origin || !request.headers['access-control-request-method'])
      return reply.callNotFound();
    const requested = request.headers['access-control-request-headers'];
    return reply
      .code(204)
      .headers(
        headers.preflight(request.headers.origin, typeof requested === 'string' ? requested : undefined),
      )
      .send();
  });
}
