import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type {
  PasskeyAuthenticationOptions,
  PasskeyAuthenticationResponse,
  PasskeyRegistrationOptions,
  PasskeyRegistrationOptionsAnswer,
  PasskeyRegistrationResponse,
} from '../../src/shared/schemas/passkeys.js';
import { call, expectStatus } from './factories.js';

/**
 * A WebAuthn authenticator in a few lines of node:crypto, for tests: one ES256 (P-256) credential
 * per instance, a `none` attestation, and assertions whose every part a test can spoil (origin, RP
 * id, flags, counter, challenge). It does what a browser and a platform authenticator do together,
 * independently of the server's library, so that a test checks the server against the standard.
 */

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

/** The CBOR (RFC 8949) of the few types an attestation needs: integers, byte and text strings, maps. */
function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
    const four = Buffer.alloc(5);
    four[0] = (major << 5) | 26;
    four.writeUInt32BE(length, 1);
    return four;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [key, inner] of value) parts.push(cbor(key), cbor(inner));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

export const FLAG_UP = 0x01;
export const FLAG_UV = 0x04;
export const FLAG_AT = 0x40;

/** What a test may spoil in one ceremony. */
export interface Ceremony {
  origin?: string;
  rpId?: string;
  flags?: number;
  /** The signature counter to report (an assertion's default: one more than the last). */
  counter?: number;
  challenge?: string;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private counter = 0;
  /** The account's user handle from the registration options, returned with assertions. */
  private userHandle: string | undefined;

  constructor(
    private readonly origin: string,
    private readonly rpId: string,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The counter the last ceremony reported. */
  get lastCounter(): number {
    return this.counter;
  }

  private coseKey(): Map<number, Cbor> {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return new Map<number, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]);
  }

  private authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  /** navigator.credentials.create() with these options: a `none` attestation of a new credential. */
  register(options: PasskeyRegistrationOptions, spoil: Ceremony = {}): PasskeyRegistrationResponse {
    this.userHandle = options.user.id;
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), length, this.credentialId, cbor(this.coseKey())]);
    this.counter = spoil.counter ?? 0;
    const authData = this.authenticatorData(
      spoil.rpId ?? this.rpId,
      spoil.flags ?? FLAG_UP | FLAG_UV | FLAG_AT,
      this.counter,
      attested,
    );
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = this.clientData(
      'webauthn.create',
      spoil.challenge ?? options.challenge,
      spoil.origin ?? this.origin,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() with these options: an assertion signed by the credential. */
  assert(options: PasskeyAuthenticationOptions, spoil: Ceremony = {}): PasskeyAuthenticationResponse {
    const counter = spoil.counter ?? this.counter + 1;
    this.counter = counter;
    const authData = this.authenticatorData(
      spoil.rpId ?? this.rpId,
      spoil.flags ?? FLAG_UP | FLAG_UV,
      counter,
    );
    const clientDataJSON = this.clientData(
      'webauthn.get',
      spoil.challenge ?? options.challenge,
      spoil.origin ?? this.origin,
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
    };
  }
}

/**
 * Registers a new software passkey to the token's user on an app without PUBLIC_URL, reached as
 * localhost:3000 (the origin the authenticator then reports).
 */
export async function addLocalPasskey(app: FastifyInstance, token: string, Name = 'Laptop') {
  const headers = { host: 'localhost:3000' };
  const authenticator = new SoftwareAuthenticator('http://localhost:3000', 'localhost');
  const { options } = expectStatus<PasskeyRegistrationOptionsAnswer>(
    await call(app, { method: 'POST', url: '/api/users/me/passkeys/options', token, headers }),
    200,
  );
  const response = authenticator.register(options);
  expectStatus(
    await call(app, {
      method: 'POST',
      url: '/api/users/me/passkeys',
      token,
      headers,
      body: { response, Name },
    }),
    200,
  );
  return authenticator;
}
