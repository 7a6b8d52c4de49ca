import fs from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/factories.js';
import { servedRoutes } from '../support/routes.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';

interface Operation {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
  requestBody?: unknown;
  parameters?: unknown[];
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
}

/** Fastify's ":id" as OpenAPI writes it: "{id}". */
function openApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** Method and path of every row of docs/api.md's access table: the routes the product documents. */
function documentedApiRoutes(): Array<{ method: string; path: string }> {
  const reference = fs.readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  return [...reference.matchAll(/^\| `(GET|POST|PUT|DELETE) (\/[^`]*)`/gm)].map((match) => ({
    method: match[1] ?? '',
    path: match[2] ?? '',
  }));
}

/** The reference UI's own routes and the static catch-all: not part of the API the document describes. */
const NOT_DOCUMENTED = /^\/api\/docs|^\/api\/openapi\.json$|\*/;

describe.each(DIALECTS)('OpenAPI document and reference [%s]', (dialect) => {
  const t = useTestApp(dialect);
  const documentOf = async () => expectStatus<Document>(await call(t.app, { url: '/api/openapi.json' }), 200);

  it('is a valid OpenAPI 3.1 document', async () => {
    const document = await documentOf();
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const verdict = await validator.validate({ ...document });
    expect(verdict.errors ?? []).toEqual([]);
    expect(verdict.valid).toBe(true);
  });

  it('describes every route the app registers, with every method', async () => {
    const document = await documentOf();
    const routes = servedRoutes(t.app).filter(
      ({ method, path }) => method !== 'OPTIONS' && !NOT_DOCUMENTED.test(path),
    );
    expect(routes.length).toBeGreaterThan(25);
    const missing = routes.filter(
      ({ method, path }) => !document.paths[openApiPath(path)]?.[method.toLowerCase()],
    );
    expect(missing).toEqual([]);
  });

  it("has every path of docs/api.md's access table", async () => {
    const document = await documentOf();
    const rows = documentedApiRoutes().filter(({ path }) => !NOT_DOCUMENTED.test(path));
    expect(rows.length).toBeGreaterThan(25);
    const missing = rows.filter(({ method, path }) => !document.paths[path]?.[method.toLowerCase()]);
    expect(missing).toEqual([]);
  });

  it('asks for the bearer token where the route needs one, and lists the failures', async () => {
    const { paths, components } = await documentOf();
    expect(components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const createUser = paths['/api/users']?.post;
    expect(createUser?.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(createUser?.responses ?? {})).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '409', '413', '500']),
    );
    expect(createUser?.requestBody).toBeDefined();
    const login = paths['/api/users/login']?.post;
    expect(login?.security).toBeUndefined();
    expect(Object.keys(login?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '429']));
    // A token is optional on the public results list: an admin sees more.
    expect(paths['/api/results']?.get?.security).toEqual([{}, { bearerAuth: [] }]);
    expect(paths['/api/ghadis']?.get?.security).toBeUndefined();
    expect(paths['/readyz']?.get?.responses).toHaveProperty('503');
  });

  it('serves the reference UI from its own files, without a token, under the site CSP', async () => {
    const page = await call(t.app, { url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script).not.toMatch(/^(https?:)?\/\//);
      const asset = await call(t.app, { url: new URL(script, 'http://site/api/docs/').pathname });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-type']).toMatch(/javascript/);
    }
  });
});
