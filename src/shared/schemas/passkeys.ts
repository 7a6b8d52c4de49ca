import { z } from 'zod';
import { requiredText } from './common.js';

/**
 * Passkeys (WebAuthn, decision 0024): a signed-in user's own (register, list, remove) and the sign-in
 * with one. The options and responses are the JSON forms of `@simplewebauthn/server` and
 * `@simplewebauthn/browser` (`startRegistration({ optionsJSON })`, `startAuthentication(...)`): the
 * schemas name the fields the server reads and let the others through.
 */

/** The 400 of an options route when the site's address cannot serve as a relying-party id. */
export const PASSKEY_NO_SITE_MESSAGE =
  'Passkeys need the site reached as localhost, or PUBLIC_URL set to its address: the browser ties a passkey to a host name, not to an IP address';
/** The 401 of a passkey sign-in that failed any check (never which one: a guess learns nothing). */
export const PASSKEY_LOGIN_FAILED_MESSAGE = 'The passkey could not be verified; try again';
/** The 400 of a registration whose response does not verify (wrong or used challenge, origin, no UV). */
export const PASSKEY_REGISTRATION_FAILED_MESSAGE = 'The passkey could not be added; try again';
/** The 400 of a removal whose password is wrong. */
export const PASSKEY_WRONG_PASSWORD_MESSAGE = 'The password is not correct';
/** The 400 of a removal whose assertion did not verify by one of the caller's passkeys. */
export const PASSKEY_CONFIRM_FAILED_MESSAGE = 'The passkey confirmation could not be verified; try again';
export const PASSKEY_ADDED_MESSAGE = 'Passkey added';
export const PASSKEY_REMOVED_MESSAGE = 'Passkey removed';

/** How many passkeys one account may hold. */
export const MAX_PASSKEYS = 20;

const base64url = (max: number) =>
  z
    .string('This field is required')
    .max(max, 'Is too long')
    .regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url');

const credentialDescriptor = z.looseObject({
  id: z.string(),
  type: z.literal('public-key'),
  transports: z.array(z.string()).optional(),
});

/** POST /api/users/me/passkeys/options: PublicKeyCredentialCreationOptionsJSON. */
export const passkeyRegistrationOptions = z.looseObject({
  rp: z.looseObject({ id: z.string().optional(), name: z.string() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.looseObject({ type: z.literal('public-key'), alg: z.number() })),
  timeout: z.number().optional(),
  /** The caller's own passkeys, so that an authenticator holding one does not make a second. */
  excludeCredentials: z.array(credentialDescriptor).optional(),
  /** residentKey 'required' (a discoverable credential) and userVerification 'required'. */
  authenticatorSelection: z.looseObject({}).optional(),
  attestation: z.string().optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
  hints: z.array(z.string()).optional(),
});
export type PasskeyRegistrationOptions = z.infer<typeof passkeyRegistrationOptions>;

/** POST /api/users/login/passkey/options: PublicKeyCredentialRequestOptionsJSON, allowCredentials empty. */
export const passkeyAuthenticationOptions = z.looseObject({
  challenge: z.string(),
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: z.string().optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
  hints: z.array(z.string()).optional(),
});
export type PasskeyAuthenticationOptions = z.infer<typeof passkeyAuthenticationOptions>;

export const passkeyRegistrationOptionsAnswer = z.object({
  success: z.literal(true),
  options: passkeyRegistrationOptions,
});
export type PasskeyRegistrationOptionsAnswer = z.infer<typeof passkeyRegistrationOptionsAnswer>;

export const passkeyAuthenticationOptionsAnswer = z.object({
  success: z.literal(true),
  options: passkeyAuthenticationOptions,
});
export type PasskeyAuthenticationOptionsAnswer = z.infer<typeof passkeyAuthenticationOptionsAnswer>;

/** RegistrationResponseJSON, as startRegistration() answers it. */
export const passkeyRegistrationResponse = z.object({
  id: base64url(1024),
  rawId: base64url(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8192),
    attestationObject: base64url(65_536),
    authenticatorData: base64url(65_536).optional(),
    transports: z.array(z.string().max(32)).max(16).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(8192).optional(),
  }),
  authenticatorAttachment: z.string().max(32).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export type PasskeyRegistrationResponse = z.infer<typeof passkeyRegistrationResponse>;

/** AuthenticationResponseJSON, as startAuthentication() answers it. */
export const passkeyAuthenticationResponse = z.object({
  id: base64url(1024),
  rawId: base64url(1024),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(8192),
    authenticatorData: base64url(65_536),
    signature: base64url(8192),
    userHandle: base64url(1024).optional(),
  }),
  authenticatorAttachment: z.string().max(32).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export type PasskeyAuthenticationResponse = z.infer<typeof passkeyAuthenticationResponse>;

/** A name the user gives a passkey ("Work laptop"). */
export const passkeyName = requiredText(64);

/** POST /api/users/me/passkeys: the response to the options of POST /api/users/me/passkeys/options. */
export const passkeyRegisterInput = z.object({ response: passkeyRegistrationResponse, Name: passkeyName });
export type PasskeyRegisterInput = z.infer<typeof passkeyRegisterInput>;

/** A passkey as its owner sees it: never its public key, credential id or counter. */
export const passkeyRecord = z.object({
  _id: z.string(),
  Name: z.string(),
  /** ISO 8601 UTC instants. */
  CreatedAt: z.string(),
  /** The latest sign-in or confirmation with it; null when never used. */
  LastUsedAt: z.string().nullable(),
});
export type PasskeyRecord = z.infer<typeof passkeyRecord>;

export const passkeyAddedAnswer = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: passkeyRecord.omit({ LastUsedAt: true }),
});
export type PasskeyAddedAnswer = z.infer<typeof passkeyAddedAnswer>;

export const passkeysAnswer = z.object({ success: z.literal(true), data: z.array(passkeyRecord) });
export type PasskeysAnswer = z.infer<typeof passkeysAnswer>;

export const passkeyIdParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/, 'Must be a passkey id')
    .refine((id) => Number(id) <= 2_147_483_647, 'Must be a passkey id'),
});

/**
 * DELETE /api/users/me/passkeys/{id}: the account's password, or a fresh assertion by any of the
 * caller's passkeys (to the options of POST /api/users/login/passkey/options).
 */
export const passkeyRemoveInput = z
  .object({
    Password: z
      .string()
      .min(1, 'This field is required')
      .max(128, 'Must be at most 128 characters')
      .optional(),
    response: passkeyAuthenticationResponse.optional(),
  })
  .refine((input) => input.Password !== undefined || input.response !== undefined, {
    path: ['Password'],
    message: 'Send the password, or confirm with one of your passkeys',
  });
export type PasskeyRemoveInput = z.infer<typeof passkeyRemoveInput>;

/** POST /api/users/login/passkey: answers as POST /api/users/login does (loginAnswer). */
export const passkeyLoginInput = z.object({ response: passkeyAuthenticationResponse });
export type PasskeyLoginInput = z.infer<typeof passkeyLoginInput>;
