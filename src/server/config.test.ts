import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

/** The message loadConfig stops with, or a failure when it does not stop. */
function failureOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has sensible defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      database: { kind: 'sqlite', file: path.resolve('data', 'ghadi.db') },
      adminUsername: 'admin',
      adminPassword: undefined,
      jwtSecret: undefined,
      siteTimezone: 'Asia/Kolkata',
      corsOrigins: [],
      logLevel: 'info',
      trustProxy: false,
      tokenTtlSeconds: 12 * 60 * 60,
      loginMaxFailures: 10,
      passwordMemoryCost: 19456,
      workers: 1,
      publicUrl: undefined,
      visitorNewSessionsPerMinute: 60,
      publicQueriesPerMinute: 60,
      overdueAfterMinutes: 15,
    });
    expect(config.visitorFlushMs).toBeGreaterThan(0);
    expect(path.isAbsolute(config.webRoot)).toBe(true);
  });

  it('reads the values it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      ADMIN_USERNAME: 'chief.admin',
      ADMIN_PASSWORD: '  long-enough-password  ',
      JWT_SECRET: 'x'.repeat(32),
      SITE_TIMEZONE: 'Europe/London',
      CORS_ORIGINS: 'https://example.com, http://localhost:5173,',
      LOG_LEVEL: 'warn',
      LOGIN_MAX_FAILURES: '5',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      adminUsername: 'chief.admin',
      adminPassword: 'long-enough-password',
      jwtSecret: 'x'.repeat(32),
      siteTimezone: 'Europe/London',
      corsOrigins: ['https://example.com', 'http://localhost:5173'],
      logLevel: 'warn',
      loginMaxFailures: 5,
    });
  });

  it('treats blank optional secrets as unset', () => {
    const config = loadConfig({ ADMIN_PASSWORD: '   ', JWT_SECRET: '' });
    expect(config.adminPassword).toBeUndefined();
    expect(config.jwtSecret).toBeUndefined();
  });

  it('treats an empty PORT as unset', () => {
    expect(loadConfig({ PORT: '' }).port).toBe(3000);
    expect(loadConfig({ PORT: '  ' }).port).toBe(3000);
  });

  describe('DATABASE_URL', () => {
    it('selects SQLite files, SQLite in memory and PostgreSQL', () => {
      expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).database).toEqual({
        kind: 'sqlite',
        file: ':memory:',
      });
      expect(loadConfig({ DATABASE_URL: 'sqlite:./var/app.db' }).database).toEqual({
        kind: 'sqlite',
        file: path.resolve('var', 'app.db'),
      });
      expect(loadConfig({ DATABASE_URL: 'sqlite:///tmp/app.db' }).database).toEqual({
        kind: 'sqlite',
        file: '/tmp/app.db',
      });
      for (const url of ['postgres://user:pw@db:5432/app', 'postgresql://db/app']) {
        expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ kind: 'postgres', url });
      }
      expect(loadConfig({ DATABASE_URL: '  ' }).database.kind).toBe('sqlite');
    });

    it('stops with a message naming DATABASE_URL for anything else', () => {
      for (const DATABASE_URL of ['mysql://db/app', 'sqlite:', 'ghadi.db', 'http://db']) {
        expect(failureOf({ DATABASE_URL })).toContain('DATABASE_URL');
      }
    });
  });

  it('reads OVERDUE_AFTER_MINUTES from 0 to a day, blank as unset', () => {
    expect(loadConfig({ OVERDUE_AFTER_MINUTES: '30' }).overdueAfterMinutes).toBe(30);
    expect(loadConfig({ OVERDUE_AFTER_MINUTES: '0' }).overdueAfterMinutes).toBe(0);
    expect(loadConfig({ OVERDUE_AFTER_MINUTES: ' ' }).overdueAfterMinutes).toBe(15);
    for (const OVERDUE_AFTER_MINUTES of ['-1', '1441', '2.5', 'soon']) {
      expect(failureOf({ OVERDUE_AFTER_MINUTES })).toContain('OVERDUE_AFTER_MINUTES');
    }
  });

  it('reads ACTIVITY_RETENTION_DAYS as whole days from 1, 90 when blank or unset', () => {
    expect(loadConfig({}).activityRetentionDays).toBe(90);
    expect(loadConfig({ ACTIVITY_RETENTION_DAYS: ' ' }).activityRetentionDays).toBe(90);
    expect(loadConfig({ ACTIVITY_RETENTION_DAYS: '30' }).activityRetentionDays).toBe(30);
    for (const ACTIVITY_RETENTION_DAYS of ['0', '-5', '2.5', 'forever', '36501']) {
      expect(failureOf({ ACTIVITY_RETENTION_DAYS })).toContain('ACTIVITY_RETENTION_DAYS');
    }
  });

  it('reads REQUIRE_ADMIN_2FA as true or false, off when blank or unset', () => {
    expect(loadConfig({}).requireAdminTwoFactor).toBe(false);
    expect(loadConfig({ REQUIRE_ADMIN_2FA: '' }).requireAdminTwoFactor).toBe(false);
    expect(loadConfig({ REQUIRE_ADMIN_2FA: 'false' }).requireAdminTwoFactor).toBe(false);
    expect(loadConfig({ REQUIRE_ADMIN_2FA: ' true ' }).requireAdminTwoFactor).toBe(true);
    for (const REQUIRE_ADMIN_2FA of ['yes', '1', 'TRUE'])
      expect(failureOf({ REQUIRE_ADMIN_2FA })).toContain('REQUIRE_ADMIN_2FA: must be true or false');
  });

  it('stops with a message naming PORT for a bad port', () => {
    for (const PORT of ['abc', '70000', '-1', '80.5', '3000abc']) {
      const message = failureOf({ PORT });
      expect(message).toContain('PORT');
      expect(message).not.toContain('SITE_TIMEZONE');
    }
  });

  it('stops with a message naming SITE_TIMEZONE for an unknown zone', () => {
    for (const SITE_TIMEZONE of ['Mars/Olympus_Mons', 'India', 'GMT+25']) {
      expect(failureOf({ SITE_TIMEZONE })).toContain('SITE_TIMEZONE');
    }
  });

  it('stops with a message naming CORS_ORIGINS for something that is not an origin', () => {
    for (const CORS_ORIGINS of [
      'example.com',
      'https://example.com/',
      'ftp://example.com',
      'https://a.com, *',
    ]) {
      const message = failureOf({ CORS_ORIGINS });
      expect(message).toContain('CORS_ORIGINS');
    }
  });

  it('stops for other bad values, naming each', () => {
    expect(failureOf({ ADMIN_PASSWORD: 'short' })).toContain('ADMIN_PASSWORD');
    expect(failureOf({ JWT_SECRET: 'too-short' })).toContain('JWT_SECRET');
    expect(failureOf({ ADMIN_USERNAME: 'a b' })).toContain('ADMIN_USERNAME');
    expect(failureOf({ LOG_LEVEL: 'loud' })).toContain('LOG_LEVEL');
    expect(failureOf({ LOGIN_MAX_FAILURES: '0' })).toContain('LOGIN_MAX_FAILURES');
  });

  it('lists every bad variable at once', () => {
    const message = failureOf({ PORT: 'x', SITE_TIMEZONE: 'Nowhere/Land', DATABASE_URL: 'mysql://x' });
    expect(message).toMatch(/^Invalid configuration:/);
    for (const name of ['PORT', 'SITE_TIMEZONE', 'DATABASE_URL']) expect(message).toContain(name);
  });

  it('reads TRUST_PROXY as off, a hop count or the proxies’ addresses, ranges and names', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10' }).trustProxy).toBe(10);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8 ' }).trustProxy).toBe('10.0.0.0/8');
    for (const list of [
      '127.0.0.1',
      'loopback',
      'loopback, linklocal, uniquelocal',
      '10.0.0.5,::1, fd00::/8',
    ]) {
      expect(loadConfig({ TRUST_PROXY: list }).trustProxy).toBe(list);
    }
  });

  it('refuses TRUST_PROXY=true, saying what to set instead', () => {
    for (const TRUST_PROXY of ['true', 'TRUE', ' true ']) {
      const message = failureOf({ TRUST_PROXY });
      expect(message).toContain('TRUST_PROXY: "true" believes every X-Forwarded-For hop');
      expect(message).toContain('TRUST_PROXY=127.0.0.1 (or loopback) for a proxy on this machine');
      expect(message).toContain("the proxies' addresses or ranges");
      expect(message).toContain('the number of proxies in front of the app');
    }
  });

  it('refuses any other TRUST_PROXY that would trust every hop, and what is not an address', () => {
    for (const TRUST_PROXY of [
      '0.0.0.0/1,128.0.0.0/1',
      '::ffff:0:0/96',
      '::/1, 8000::/1',
      '0.0.0.0/0',
      '10.0.0.5, ::/0',
      '0.0.0.0/0.0.0.0',
    ]) {
      const message = failureOf({ TRUST_PROXY });
      expect(message).toContain(`TRUST_PROXY: "${TRUST_PROXY}" trusts every address`);
      expect(message).toContain('TRUST_PROXY=127.0.0.1');
    }
    expect(failureOf({ TRUST_PROXY: '11' })).toContain('TRUST_PROXY: 11 hops would let a client choose');
    for (const TRUST_PROXY of ['yes', '*', 'all', '10.0.0.300', 'proxy.internal', ',']) {
      const message = failureOf({ TRUST_PROXY });
      expect(message).toContain('TRUST_PROXY: ');
      expect(message).toContain('TRUST_PROXY=127.0.0.1');
    }
  });

  it('reads WORKERS as a count or auto (the CPUs), and PUBLIC_URL as an origin', () => {
    expect(loadConfig({ WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(os.availableParallelism());
    expect(failureOf({ WORKERS: '0' })).toContain('WORKERS');
    expect(failureOf({ WORKERS: 'many' })).toContain('WORKERS');
    expect(loadConfig({ PUBLIC_URL: 'https://Results.Example/' }).publicUrl).toBe('https://results.example');
    expect(loadConfig({ PUBLIC_URL: ' ' }).publicUrl).toBeUndefined();
    for (const bad of [
      'results.example',
      'ftp://results.example',
      'https://results.example/path',
      'https://x.example/?a=1',
    ]) {
      expect(failureOf({ PUBLIC_URL: bad })).toContain('PUBLIC_URL');
    }
  });
});
