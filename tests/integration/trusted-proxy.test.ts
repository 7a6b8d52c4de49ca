import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, unique } from '../support/factories.js';
import { fetchRaw, listen } from '../support/http.js';
import { createTestApp, DIALECTS, type TestApp } from '../support/test-app.js';

/** The proxy in front of the app: on this machine, as in docs/deployment.md's TRUST_PROXY example. */
const PROXY = '127.0.0.1';

/**
 * TRUST_PROXY names the proxy's address. Its X-Forwarded-For is believed only as far as the proxy
 * itself wrote it (the rightmost entry), and its X-Forwarded-Host never makes the site's links.
 */
describe.each(DIALECTS)('behind a trusted proxy [%s]', (dialect) => {
  let own: TestApp;
  let base: string;
  beforeAll(async () => {
    own = await createTestApp(dialect, { env: { TRUST_PROXY: PROXY } });
    base = await listen(own.app);
  });
  afterAll(async () => {
    await own?.close();
  });

  /** A failed login over a real socket; answers the address the throttle recorded for it. */
  async function recordedAddress(localAddress: string, forwardedFor: string): Promise<string | undefined> {
    const account = unique('proxied-');
    const response = await fetchRaw(base, '/api/users/login', {
      method: 'POST',
      localAddress,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ UserName: account, Password: 'wrong-password' }),
    });
    expect(response.status).toBe(401);
    const rows = await own.database.db
      .selectFrom('login_attempts')
      .select('address')
      .where('account', '=', account)
      .execute();
    expect(rows).toHaveLength(1);
    return rows[0]?.address;
  }

  it('counts the address the proxy appended, not what the client wrote before it', async () => {
    // nginx's $proxy_add_x_forwarded_for: what the client sent, then the address it came from.
    expect(await recordedAddress(PROXY, '198.51.100.66, 203.0.113.7')).toBe('203.0.113.7');
    expect(await recordedAddress(PROXY, '203.0.113.7, 198.51.100.66')).toBe('198.51.100.66');
    // A client that reaches the app without the proxy is its socket's address, whatever it writes.
    expect(await recordedAddress('127.0.0.51', '203.0.113.7')).toBe('127.0.0.51');
  });

  const spoofed = { host: 'results.example', 'x-forwarded-host': 'evil.example' };

  it('never names X-Forwarded-Host in robots.txt, sitemap.xml or feed.xml', async () => {
    for (const url of ['/robots.txt', '/sitemap.xml', '/feed.xml']) {
      const answer = await call(own.app, { url, headers: spoofed });
      expect({ url, status: answer.statusCode }).toEqual({ url, status: 200 });
      expect(answer.body, url).toContain('http://results.example/');
      expect(answer.body, url).not.toContain('evil.example');
      // Over a real socket from the proxy too.
      const raw = await fetchRaw(base, url, { localAddress: PROXY, headers: spoofed });
      expect(raw.body.toString(), url).toContain('http://results.example/');
      expect(raw.body.toString(), url).not.toContain('evil.example');
    }
  });

  it('takes the scheme from the proxy’s X-Forwarded-Proto, never from a client’s', async () => {
    const robots = (headers: Record<string, string>, remoteAddress?: string) =>
      call(own.app, {
        url: '/robots.txt',
        headers: { ...spoofed, ...headers },
        ...(remoteAddress ? { remoteAddress } : {}),
      }).then((answer) => answer.body);
    expect(await robots({ 'x-forwarded-proto': 'https' })).toContain(
      'Sitemap: https://results.example/sitemap.xml',
    );
    expect(await robots({ 'x-forwarded-proto': 'https' }, '203.0.113.7')).toContain(
      'Sitemap: http://results.example/sitemap.xml',
    );
    // Nothing but http or https becomes a scheme.
    expect(await robots({ 'x-forwarded-proto': 'javascript' })).toContain(
      'Sitemap: http://results.example/sitemap.xml',
    );
  });
});
