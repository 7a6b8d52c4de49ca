/**
 * Chromium with a virtual authenticator (CDP WebAuthn: CTAP2, internal, resident keys, user
 * verification) on a page of the site at http://localhost:PORT, making and using passkeys through
 * navigator.credentials from inside the page: the options come from the API as JSON and go back as
 * JSON, base64url converted here, so that nothing depends on the web app's screens.
 */
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/support/chromium.js';

export interface Authenticator {
  /** navigator.credentials.create with registration options (JSON) → RegistrationResponseJSON. */
  create(options: unknown): Promise<Record<string, unknown>>;
  /** navigator.credentials.get with authentication options (JSON) → AuthenticationResponseJSON. */
  get(options: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

type Mode = 'create' | 'get';

/**
 * Runs in the page: the WebAuthn call, with the JSON forms converted both ways. Plain JavaScript in a
 * string: tsx would wrap a function's inner functions in a helper (__name) the page does not have.
 */
const IN_PAGE = `async ({ mode, options }) => {
  const toBuffer = (text) => {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
  };
  const toText = (buffer) => {
    if (!buffer) return undefined;
    let binary = '';
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  };
  const descriptors = (list) => (list ?? []).map((item) => ({ ...item, id: toBuffer(item.id) }));
  const common = (credential) => ({
    id: credential.id,
    rawId: toText(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults(),
  });
  if (mode === 'create') {
    const credential = await navigator.credentials.create({
      publicKey: {
        ...options,
        challenge: toBuffer(options.challenge),
        user: { ...options.user, id: toBuffer(options.user.id) },
        excludeCredentials: descriptors(options.excludeCredentials),
      },
    });
    const response = credential.response;
    return {
      ...common(credential),
      response: {
        clientDataJSON: toText(response.clientDataJSON),
        attestationObject: toText(response.attestationObject),
        transports: response.getTransports(),
      },
    };
  }
  const credential = await navigator.credentials.get({
    publicKey: {
      ...options,
      challenge: toBuffer(options.challenge),
      allowCredentials: descriptors(options.allowCredentials),
    },
  });
  const response = credential.response;
  return {
    ...common(credential),
    response: {
      clientDataJSON: toText(response.clientDataJSON),
      authenticatorData: toText(response.authenticatorData),
      signature: toText(response.signature),
      userHandle: toText(response.userHandle),
    },
  };
}`;

/** Chromium on `pageUrl` (http://localhost:PORT/...) with one virtual platform authenticator. */
export async function openAuthenticator(pageUrl: string): Promise<Authenticator> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context: BrowserContext = await browser.newContext();
    const page: Page = await context.newPage();
    const response = await page.goto(pageUrl);
    if (response?.status() !== 200) throw new Error(`${pageUrl} answered ${response?.status()} in Chromium`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const run = (mode: Mode, options: unknown) =>
      page.evaluate(`(${IN_PAGE})(${JSON.stringify({ mode, options })})`) as Promise<Record<string, unknown>>;
    return {
      create: (options) => run('create', options),
      get: (options) => run('get', options),
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
