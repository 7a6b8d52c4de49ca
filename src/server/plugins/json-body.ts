import type { FastifyInstance } from 'fastify';

/** An empty body with a JSON content type (as some clients send on DELETE) reads as no body. */
export function lenientJsonParser(app: FastifyInstance, bodyLimit: number) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
}
