import {
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import {
  MAX_PASSKEYS,
  PASSKEY_CONFIRM_FAILED_MESSAGE,
  PASSKEY_NO_SITE_MESSAGE,
  PASSKEY_REGISTRATION_FAILED_MESSAGE,
  PASSKEY_WRONG_PASSWORD_MESSAGE,
  type PasskeyRecord,
  type PasskeyRegisterInput,
  type PasskeyRegistrationOptions,
  type PasskeyRemoveInput,
} from '../../../shared/schemas/passkeys.js';
import { SITE_NAME } from '../../../shared/site.js';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../errors.js';
import type { Now } from '../../lib/clock.js';
import { plainText } from '../../lib/plain-text.js';
import type { RelyingParty } from '../../lib/relying-party.js';
import type { ActivityRecorder, Actor } from '../activity/activity-recorder.js';
import type { UserRow, UsersRepository } from '../users/users-repository.js';
import {
  CHALLENGE_TTL_MS,
  type PasskeyAssertions,
  transportsOf,
  userHandleOf,
} from './passkey-assertions.js';
import type { PasskeyRow, PasskeysRepository } from './passkeys-repository.js';
import type { AuthenticatedUser } from './session-service.js';
import type { ThrottledPasswords } from './throttled-passwords.js';

export interface PasskeyDependencies {
  repository: PasskeysRepository;
  assertions: PasskeyAssertions;
  users: UsersRepository;
  /** A removal's password, or its confirming assertion, is checked under the login throttle. */
  passwords: ThrottledPasswords;
  activity: ActivityRecorder;
  /** The app's clock: challenges expire by it. */
  now: Now;
}

type Caller = AuthenticatedUser & Actor;

const iso = (at: number) => new Date(at).toISOString();

/** The site as a relying party, or the 400 that says why there is none. */
export function siteOrRefuse(site: RelyingParty | null): RelyingParty {
  if (!site) throw new BadRequestError(PASSKEY_NO_SITE_MESSAGE);
  return site;
}

function toPasskeyRecord(row: PasskeyRow): PasskeyRecord {
  return {
    _id: String(row.passkey_id),
    Name: row.name,
    CreatedAt: row.created_at,
    LastUsedAt: row.last_used_at,
  };
}

/**
 * A signed-in user's own passkeys (decision 0024): registration options and registration, the list,
 * and removal (with the password or a fresh assertion). Each change is recorded in the activity trail.
 */
export class PasskeyService {
  constructor(private readonly deps: PasskeyDependencies) {}

  private async caller(user: AuthenticatedUser): Promise<UserRow> {
    const row = await this.deps.users.findById(user.userId);
    if (!row) throw new UnauthorizedError('Session expired or invalid; please log in again');
    return row;
  }

  count(userId: number): Promise<number> {
    return this.deps.repository.countFor(userId);
  }

  async list(user: AuthenticatedUser): Promise<PasskeyRecord[]> {
    return (await this.deps.repository.listFor(user.userId)).map(toPasskeyRecord);
  }

  /**
   * Options for a new discoverable credential with user verification, excluding the caller's own
   * passkeys (an authenticator that holds one makes no second); the challenge is kept for five minutes.
   */
  async registrationOptions(
    user: AuthenticatedUser,
    site: RelyingParty | null,
  ): Promise<PasskeyRegistrationOptions> {
    const rp = siteOrRefuse(site);
    const row = await this.caller(user);
    const own = await this.deps.repository.listFor(row.user_id);
    if (own.length >= MAX_PASSKEYS)
      throw new BadRequestError(`An account may hold at most ${MAX_PASSKEYS} passkeys; remove one first`);
    const options = await generateRegistrationOptions({
      rpName: SITE_NAME,
      rpID: rp.id,
      userName: row.username,
      userDisplayName: row.display_name || row.username,
      userID: userHandleOf(row.user_id),
      timeout: CHALLENGE_TTL_MS,
      attestationType: 'none',
      excludeCredentials: own.map((passkey) => ({
        id: passkey.credential_id,
        transports: transportsOf(passkey),
      })),
      authenticatorSelection: {
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: 'required',
      },
    });
    const at = this.deps.now();
    await this.deps.repository.addChallenge(
      options.challenge,
      'register',
      row.user_id,
      iso(at),
      iso(at + CHALLENGE_TTL_MS),
    );
    return options as PasskeyRegistrationOptions;
  }

  /**
   * Verifies the authenticator's answer to the caller's live registration challenge (consumed now),
   * from the site's origin and RP id, with user verification, and stores the passkey. A failure is a
   * 400, not a 401: the caller's session is fine.
   */
  async register(
    caller: Caller,
    input: PasskeyRegisterInput,
    site: RelyingParty | null,
  ): Promise<PasskeyRecord> {
    const rp = siteOrRefuse(site);
    const { repository, activity } = this.deps;
    const row = await this.caller(caller);
    const at = iso(this.deps.now());
    let credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] };
    try {
      const verification = await verifyRegistrationResponse({
        response: input.response as RegistrationResponseJSON,
        expectedChallenge: (challenge) => repository.consumeChallenge(challenge, 'register', row.user_id, at),
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
      });
      if (!verification.verified) throw new BadRequestError(PASSKEY_REGISTRATION_FAILED_MESSAGE);
      credential = verification.registrationInfo.credential;
    } catch {
      throw new BadRequestError(PASSKEY_REGISTRATION_FAILED_MESSAGE);
    }
    const name = plainText(input.Name, 64);
    const id = await repository.transaction(async (trx) => {
      const added = await repository.add(trx, {
        user_id: row.user_id,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? []),
        name,
        created_at: at,
        last_used_at: null,
      });
      if (added !== undefined)
        await activity.record(trx, caller, {
          action: 'passkey_add',
          target: { id: row.user_id, name: row.username },
          summary: `passkey "${name}" added`,
        });
      return added;
    });
    if (id === undefined) throw new BadRequestError('This passkey is already registered');
    return { _id: String(id), Name: name, CreatedAt: at, LastUsedAt: null };
  }

  /**
   * Removes one of the caller's passkeys, confirmed by the password or by a fresh assertion of any of
   * their passkeys (this one too). Either is checked under the login throttle (a wrong one is a failed
   * sign-in of the account) and a wrong one is a 400, nothing removed.
   */
  async remove(
    caller: Caller,
    passkeyId: number,
    input: PasskeyRemoveInput,
    site: RelyingParty | null,
  ): Promise<void> {
    const { repository, assertions, passwords, activity } = this.deps;
    const row = await this.caller(caller);
    const target = { id: row.user_id, name: row.username };
    const own = (await repository.listFor(row.user_id)).find((passkey) => passkey.passkey_id === passkeyId);
    if (!own) throw new NotFoundError('Passkey not found');
    const rp = input.Password === undefined ? siteOrRefuse(site) : null;
    const attempt = await passwords.admit(row.username, caller.ip);
    const refuse = async (summary: string, message: string) => {
      await activity.recordAlone(caller, { action: 'login_failed', target, summary });
      return new BadRequestError(message);
    };
    if (input.Password !== undefined) {
      if (!(await attempt.verify(row.password_hash, input.Password)))
        throw await refuse('wrong password (removing a passkey)', PASSKEY_WRONG_PASSWORD_MESSAGE);
    } else if (input.response && rp) {
      const confirming = await assertions.find(input.response.id);
      const why =
        confirming?.user_id !== row.user_id
          ? 'unknown passkey'
          : await assertions.check(confirming, input.response, rp);
      if (why)
        throw await refuse(`passkey refused: ${why} (removing a passkey)`, PASSKEY_CONFIRM_FAILED_MESSAGE);
    }
    await attempt.succeed(async (db) => {
      if (!(await repository.remove(db, row.user_id, passkeyId))) return;
      await activity.record(db, caller, {
        action: 'passkey_remove',
        target,
        summary: `passkey "${own.name}" removed`,
      });
    });
  }
}
