import type {
  PasskeyAuthenticationOptions,
  PasskeyAuthenticationResponse,
  PasskeyRegistrationOptions,
  PasskeyRegistrationResponse,
} from '../../shared/schemas/passkeys.js';
import { ApiError } from './api-client.js';

/**
 * The browser's half of a passkey ceremony (decision 0024). `@simplewebauthn/browser` is imported
 * on the click that needs it, never before: it stays out of every page's first load, the public
 * pages' above all.
 */

export const PASSKEY_UNSUPPORTED_MESSAGE =
  'This browser cannot use passkeys. Use a recent browser, or sign in with your password.';
export const PASSKEY_CANCELLED_MESSAGE =
  'The passkey request was cancelled or timed out. Nothing was changed.';
export const PASSKEY_ALREADY_REGISTERED_MESSAGE =
  'This device already holds a passkey for this account: it is in the list.';

/** Whether the browser speaks WebAuthn at all: a passkey button is shown only when it does. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** A ceremony the browser did not complete, with the words to show for it. */
export class PasskeyCeremonyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PasskeyCeremonyError';
  }
}

/** The user closed the browser's prompt, it timed out, or the browser refused it (all NotAllowedError). */
function ceremonyFailure(error: unknown): never {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') {
    throw new PasskeyCeremonyError(PASSKEY_CANCELLED_MESSAGE);
  }
  if (name === 'InvalidStateError') throw new PasskeyCeremonyError(PASSKEY_ALREADY_REGISTERED_MESSAGE);
  const message = (error as { message?: unknown } | null)?.message;
  throw new PasskeyCeremonyError(
    typeof message === 'string' && message ? message : 'The passkey request failed',
  );
}

async function library() {
  if (!passkeysSupported()) throw new PasskeyCeremonyError(PASSKEY_UNSUPPORTED_MESSAGE);
  return import('@simplewebauthn/browser');
}

/** Makes a new passkey on this device for the registration options the server gave. */
export async function createPasskey(
  optionsJSON: PasskeyRegistrationOptions,
): Promise<PasskeyRegistrationResponse> {
  const { startRegistration } = await library();
  try {
    const response = await startRegistration({
      optionsJSON: optionsJSON as Parameters<typeof startRegistration>[0]['optionsJSON'],
    });
    return response as PasskeyRegistrationResponse;
  } catch (error) {
    ceremonyFailure(error);
  }
}

/** Signs the server's challenge with one of this device's passkeys for the site (the user picks). */
export async function assertPasskey(
  optionsJSON: PasskeyAuthenticationOptions,
): Promise<PasskeyAuthenticationResponse> {
  const { startAuthentication } = await library();
  try {
    const response = await startAuthentication({
      optionsJSON: optionsJSON as Parameters<typeof startAuthentication>[0]['optionsJSON'],
    });
    return response as PasskeyAuthenticationResponse;
  } catch (error) {
    ceremonyFailure(error);
  }
}

/**
 * The words for a failed passkey step: the ceremony's own, or the server's message (the options
 * routes' 400 says why this address cannot serve passkeys), or the screen's fallback.
 */
export function passkeyFailure(error: unknown, fallback: string): string {
  if (error instanceof PasskeyCeremonyError) return error.message;
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return fallback;
}
