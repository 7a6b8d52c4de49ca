import { describe, expect, it } from 'vitest';
import webPush from 'web-push';
import { ConfigError, loadConfig } from './config.js';

function failureOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('notification settings', () => {
  it('are off by default, the VAPID subject following PUBLIC_URL', () => {
    expect(loadConfig({}).push).toEqual({
      vapidKeys: undefined,
      vapidSubject: undefined,
      allowLoopback: false,
      subscriptionsPerMinute: 10,
    });
    expect(loadConfig({}).telegram).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: 'https://results.example' }).push.vapidSubject).toBe(
      'https://results.example',
    );
    expect(loadConfig({ VAPID_SUBJECT: 'mailto:ops@results.example' }).push.vapidSubject).toBe(
      'mailto:ops@results.example',
    );
  });

  it('take a VAPID pair made by web-push, and refuse half a pair or a mismatched one', () => {
    const keys = webPush.generateVAPIDKeys();
    const other = webPush.generateVAPIDKeys();
    expect(
      loadConfig({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey }).push.vapidKeys,
    ).toEqual(keys);
    expect(failureOf({ VAPID_PUBLIC_KEY: keys.publicKey })).toMatch(/VAPID_PRIVATE_KEY: .*together/);
    expect(failureOf({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: other.privateKey })).toMatch(
      /VAPID_PUBLIC_KEY: is not the public key of VAPID_PRIVATE_KEY/,
    );
    expect(failureOf({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: keys.privateKey })).toMatch(
      /VAPID_PUBLIC_KEY/,
    );
    expect(failureOf({ VAPID_SUBJECT: 'http://results.example' })).toMatch(/VAPID_SUBJECT/);
    expect(failureOf({ PUSH_ALLOW_LOOPBACK: 'yes' })).toMatch(/PUSH_ALLOW_LOOPBACK: must be true or false/);
  });

  it('turn Telegram on with a token and a chat, and check both', () => {
    expect(loadConfig({ TELEGRAM_BOT_TOKEN: '123:abc-DEF_g' }).telegram).toBeUndefined();
    expect(loadConfig({ TELEGRAM_BOT_TOKEN: '123:abc-DEF_g', TELEGRAM_CHAT_ID: '-1001' }).telegram).toEqual({
      token: '123:abc-DEF_g',
      chatId: '-1001',
      apiUrl: 'https://api.telegram.org',
    });
    expect(
      loadConfig({
        TELEGRAM_BOT_TOKEN: '1:a',
        TELEGRAM_CHAT_ID: '@results_channel',
        TELEGRAM_API_URL: 'http://127.0.0.1:9/',
      }).telegram?.apiUrl,
    ).toBe('http://127.0.0.1:9');
    const refused = failureOf({ TELEGRAM_BOT_TOKEN: 'not a token with spaces' });
    expect(refused).toMatch(/TELEGRAM_BOT_TOKEN/);
    // The refusal names the variable, never the value.
    expect(refused).not.toContain('not a token with spaces');
    expect(failureOf({ TELEGRAM_CHAT_ID: 'chat' })).toMatch(/TELEGRAM_CHAT_ID/);
    expect(failureOf({ TELEGRAM_API_URL: 'ftp://example' })).toMatch(/TELEGRAM_API_URL/);
  });
});
