import { generateAuthenticationOptions } from '@simplewebauthn/server';
import {
  PASSKEY_LOGIN_FAILED_MESSAGE,
  type PasskeyAuthenticationOptions,
  type PasskeyLoginInput,
} from '../../../shared/schemas/passkeys.js';
import type { LoginAnswer } from '../../../shared/schemas/users.js';
import { UnauthorizedError } from '../../errors.js';
import { clientGroup } from '../../lib/client-address.js';
import type { Now } from '../../lib/clock.js';
import { plainText } from '../../lib/plain-text.js';
import type { RelyingParty } from '../../lib/relying-party.js';
import type { ActivityRecorder, Client } from '../activity/activity-recorder.js';
import type { UsersRepository } from '../users/users-repository.js';
import { CHALLENGE_TTL_MS, type PasskeyAssertions } from './passkey-assertions.js';
import { siteOrRefuse } from './passkey-service.js';
import type { PasskeysRepository } from './passkeys-repository.js';
import { type SessionService, signInActivity } from './session-service.js';
import type { ThrottledPasswords } from './throttled-passwords.js';

export interface PasskeySignInDependencies {
  repository: PasskeysRepository;
  assertions: PasskeyAssertions;
  users: UsersRepository;
  passwords: ThrottledPasswords;
  sessions: Pick<SessionService, 'signedIn'>;
  activity: ActivityRecorder;
  now: Now;
}

const iso = (at: number) => new Date(at).toISOString();

/**
 * The throttle's account for an assertion naming no stored credential: one per address group, so that
 * guessing credentials is counted per address, as an unknown user name's password is. Longer than any
 * typed name (50 at most), so that no sign-in by name shares its count; no NUL, which PostgreSQL's
 * text refuses.
 */
const unknownPasskeyAccount = (ip: string) => `(a passkey unknown to the site, from) ${clientGroup(ip)}`;

/**
 * Signing in with a passkey (decision 0024): options with an empty allowCredentials (the
 * authenticator offers its discoverable credentials for the site), and the assertion, which stands
 * for both factors. Every refusal is the same 401, counted by the login throttle as a failed sign-in.
 */
export class PasskeySignIn {
  constructor(private readonly deps: PasskeySignInDependencies) {}

  async options(site: RelyingParty | null): Promise<PasskeyAuthenticationOptions> {
    const rp = siteOrRefuse(site);
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: [],
      userVerification: 'required',
      timeout: CHALLENGE_TTL_MS,
    });
    const at = this.deps.now();
    await this.deps.repository.addChallenge(
      options.challenge,
      'authenticate',
      null,
      iso(at),
      iso(at + CHALLENGE_TTL_MS),
    );
    return { ...options, allowCredentials: [] } as PasskeyAuthenticationOptions;
  }

  async login(input: PasskeyLoginInput, client: Client, site: RelyingParty | null): Promise<LoginAnswer> {
    const rp = siteOrRefuse(site);
    const { assertions, users, passwords, activity, sessions } = this.deps;
    const passkey = await assertions.find(input.response.id);
    const owner = passkey ? await users.findById(passkey.user_id) : undefined;
    // Counted before the assertion is checked, as a password is, per account when the credential is known.
    const attempt = await passwords.admit(
      owner ? owner.username : unknownPasskeyAccount(client.ip),
      client.ip,
    );
    const why =
      !passkey || !owner
        ? 'unknown passkey'
        : owner.is_active !== 1
          ? 'account inactive'
          : await assertions.check(passkey, input.response, rp);
    if (why || !passkey || !owner) {
      const failed = owner
        ? signInActivity('login_failed', client, owner, owner.username, `passkey refused: ${why}`)
        : {
            who: { ...client, userId: null },
            activity: {
              action: 'login_failed' as const,
              target: { id: null, name: 'unknown passkey' },
              summary: why ?? '',
            },
          };
      await activity.recordAlone(failed.who, failed.activity);
      throw new UnauthorizedError(PASSKEY_LOGIN_FAILED_MESSAGE);
    }
    return sessions.signedIn(
      owner,
      client,
      'passkey',
      `with a passkey ("${plainText(passkey.name, 64)}")`,
      attempt,
    );
  }
}
