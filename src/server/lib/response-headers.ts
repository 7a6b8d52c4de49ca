import { randomUUID } from 'node:crypto';

/** Headers every answer carries, whatever the site's address. */
const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

/**
 * The policy of every HTML answer: the web app's page (whatever address serves it) and the
 * server-rendered public pages. Scripts only from this site; inline styles for React's style props.
 * The service worker and the manifest (decision 0011) come from this site too; named rather than
 * left to default-src, so that a change there cannot take the installable app down with it.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * The policy of the embeds (/embed/…, docs/public-site.md "Embeds"), the only pages another site
 * may show in a frame: the same policy but for its frame-ancestors.
 */
export const EMBEDDABLE_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "frame-ancestors 'none'",
  'frame-ancestors *',
);

/** Whether an answer's Content-Type header names HTML (a page a browser renders). */
export function isHtml(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^\s*text\/html\s*(;|$)/i.test(contentType);
}

/** A year: browsers then keep to https even when a link or a typed address says http. */
const HSTS = 'max-age=31536000';

/** Methods and headers a separately hosted front end may use (the API's own). */
const CORS_METHODS = 'GET, HEAD, POST, PUT, DELETE';
const CORS_MAX_AGE_SECONDS = '600';

export interface ResponseHeaderSettings {
  /** PUBLIC_URL: when it is https, answers carry HSTS. */
  publicUrl: string | undefined;
  /** CORS_ORIGINS: origins allowed to call the API from a separately hosted front end. */
  corsOrigins: readonly string[];
}

/**
 * The headers of every answer, for both answer paths (Fastify's hooks and the fast path), so that
 * they cannot drift apart: the security headers (HSTS under an https PUBLIC_URL, the CSP on HTML) and, with
 * CORS_ORIGINS, `Vary: Origin` on every answer and the allow headers for an allowed origin.
 */
export class ResponseHeaders {
  /** Headers of every answer. */
  readonly security: Readonly<Record<string, string>>;
  /** Headers of every HTML answer: the above and the Content-Security-Policy. */
  readonly htmlSecurity: Readonly<Record<string, string>>;
  /** Headers of an embed: framing allowed (no X-Frame-Options, frame-ancestors *), the rest as strict. */
  readonly embeddableSecurity: Readonly<Record<string, string>>;
  private readonly allowed: ReadonlySet<string>;
  private readonly perOrigin = new Map<string, Readonly<Record<string, string>>>();

  constructor({ publicUrl, corsOrigins }: ResponseHeaderSettings) {
    this.security = publicUrl?.startsWith('https:')
      ? { ...BASE_SECURITY_HEADERS, 'strict-transport-security': HSTS }
      : BASE_SECURITY_HEADERS;
    this.htmlSecurity = { ...this.security, 'content-security-policy': CONTENT_SECURITY_POLICY };
    const { 'x-frame-options': _denied, ...unframed } = this.security;
    this.embeddableSecurity = {
      ...unframed,
      'content-security-policy': EMBEDDABLE_CONTENT_SECURITY_POLICY,
    };
    this.allowed = new Set(corsOrigins);
    for (const origin of corsOrigins) {
      this.perOrigin.set(origin, {
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
      });
    }
  }

  /**
   * The security headers of an answer with this Content-Type. The one rule both answer paths
   * follow, so that no page (the static index.html, the app's fallback, a rendered page, a 404 page)
   * goes out without its policy. `frameable`: the answer is an embed (its cached answer says so).
   */
  securityFor(contentType: unknown, frameable = false): Readonly<Record<string, string>> {
    if (!isHtml(contentType)) return this.security;
    return frameable ? this.embeddableSecurity : this.htmlSecurity;
  }

  get corsEnabled(): boolean {
    return this.allowed.size > 0;
  }

  /** The Vary header of an answer (with or without compressed variants), or undefined for none. */
  vary(compressed: boolean): string | undefined {
    if (!this.corsEnabled) return compressed ? 'accept-encoding' : undefined;
    return compressed ? 'accept-encoding, origin' : 'origin';
  }

  /** The CORS headers an answer to this Origin carries (none for an origin not allowed). */
  corsFor(origin: string | undefined): Readonly<Record<string, string>> | undefined {
    return origin === undefined || this.perOrigin.size === 0 ? undefined : this.perOrigin.get(origin);
  }

  /** A preflight's answer headers (OPTIONS with Access-Control-Request-Method). */
  preflight(origin: string | undefined, requestHeaders: string | undefined): Record<string, string> {
    const allowed = this.corsFor(origin);
    return {
      vary: 'origin, access-control-request-headers',
      ...(allowed
        ? {
            ...allowed,
            'access-control-allow-methods': CORS_METHODS,
            'access-control-max-age': CORS_MAX_AGE_SECONDS,
            ...(requestHeaders ? { 'access-control-allow-headers': requestHeaders } : {}),
          }
        : {}),
    };
  }
}

const REQUEST_ID = /^[\w-]{1,64}$/;

/** The caller's x-request-id when it is a plain token (a proxy's, say), else undefined. */
export function givenRequestId(given: string | string[] | undefined): string | undefined {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : undefined;
}

/** A request's id: the caller's x-request-id when it is a plain token, otherwise a new one. */
export function requestIdFrom(given: string | string[] | undefined): string {
  return givenRequestId(given) ?? randomUUID();
}
