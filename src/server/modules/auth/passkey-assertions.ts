import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  verifyAuthenticationResponse,
} from '@simplewebauthn/server';
import type { PasskeyAuthenticationResponse } from '../../../shared/schemas/passkeys.js';
import type { Now } from '../../lib/clock.js';
import type { RelyingParty } from '../../lib/relying-party.js';
import type { PasskeyRow, PasskeysRepository } from './passkeys-repository.js';

/** How long a challenge of the options routes can be answered. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * The WebAuthn user handle of an account: its id, not its name, so that renaming keeps it and the
 * authenticator stores nothing personal. An assertion's userHandle must be its passkey owner's.
 */
export function userHandleOf(userId: number): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`user-${userId}`);
}

export function transportsOf(row: PasskeyRow): AuthenticatorTransportFuture[] {
  return JSON.parse(row.transports) as AuthenticatorTransportFuture[];
}

/** Why the library refused an assertion, for the trail (its message may quote the challenge). */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/challenge/i.test(message)) return 'used, expired or unknown challenge';
  if (/origin/i.test(message)) return 'another origin';
  if (/RP ID/i.test(message)) return 'another relying party';
  if (/verif/i.test(message)) return 'no user verification';
  if (/present/i.test(message)) return 'no user presence';
  if (/counter/i.test(message)) return 'signature counter not increased';
  return 'malformed assertion';
}

/**
 * Checks an assertion (a sign-in's, or a removal's confirmation) against a stored passkey: the
 * challenge is one this site handed out for a sign-in, live and consumed now (one conditional delete,
 * so a replay finds none); origin and RP id the site's; user presence and verification flagged; the
 * signature the passkey's; the user handle, when sent, its owner's; and the counter above the stored
 * one (unless both are 0), raised by one conditional update so two concurrent uses cannot both pass.
 */
export class PasskeyAssertions {
  constructor(
    private readonly repository: PasskeysRepository,
    private readonly now: Now,
  ) {}

  find(credentialId: string): Promise<PasskeyRow | undefined> {
    return this.repository.findByCredential(credentialId);
  }

  /** Null when the assertion holds (and the passkey's use is recorded); else why not, for the trail. */
  async check(
    passkey: PasskeyRow,
    response: PasskeyAuthenticationResponse,
    site: RelyingParty,
  ): Promise<string | null> {
    const at = new Date(this.now()).toISOString();
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verification = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: (challenge) =>
          this.repository.consumeChallenge(challenge, 'authenticate', null, at),
        expectedOrigin: site.origin,
        expectedRPID: site.id,
        requireUserVerification: true,
        credential: {
          id: passkey.credential_id,
          publicKey: Buffer.from(passkey.public_key, 'base64url'),
          counter: Number(passkey.counter),
          transports: transportsOf(passkey),
        },
      });
    } catch (error) {
      return reasonOf(error);
    }
    if (!verification.verified) return 'wrong signature';
    const handle = response.response.userHandle;
    if (handle && handle !== Buffer.from(userHandleOf(passkey.user_id)).toString('base64url'))
      return 'another user handle';
    const { newCounter } = verification.authenticationInfo;
    if (!(await this.repository.recordUse(passkey.passkey_id, newCounter, at)))
      return 'signature counter not increased';
    return null;
  }
}
