/**
 * A real Web Push service on loopback, for tests of the sending side: it receives RFC 8030 push
 * messages over HTTPS, decrypts them (RFC 8291: it makes the subscriptions, so it holds their
 * private keys), checks their VAPID authorization (RFC 8292), records them, and tells listeners.
 * A test can make a subscription answer as a gone, missing, throttled or slow one.
 *
 * The certificate comes from the openssl command line: node:crypto can read certificates but not
 * make them. The sender must trust `caFile` (NODE_EXTRA_CA_CERTS for a process, or `agent`).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import fs from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { checkVapid, decryptPushPayload, newSubscriptionKeys, type SubscriptionKeys } from './push-crypto.js';

/** RFC 8030 section 7.2: a push service must take at least this much; we take no more. */
const MAX_BODY = 4096;

export interface PushTls {
  keyPem: string;
  certPem: string;
  /** The certificate's file: it is its own authority. */
  caFile: string;
}

/**
 * A self-signed certificate for 127.0.0.1 and localhost in `dir`, made once and then reused, so a
 * process started before the service (the e2e server) can be told to trust it.
 */
export function pushTls(dir = fs.mkdtempSync(path.join(os.tmpdir(), 'push-tls-'))): PushTls {
  fs.mkdirSync(dir, { recursive: true });
  const keyFile = path.join(dir, 'push-key.pem');
  const caFile = path.join(dir, 'push-cert.pem');
  if (!fs.existsSync(keyFile) || !fs.existsSync(caFile)) {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
        .concat(['-keyout', keyFile, '-out', caFile, '-days', '30', '-subj', '/CN=local push service'])
        .concat(['-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost']),
      { stdio: 'ignore' },
    );
  }
  return { keyPem: fs.readFileSync(keyFile, 'utf8'), certPem: fs.readFileSync(caFile, 'utf8'), caFile };
}

export interface TestSubscription {
  id: string;
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  subscriptionId: string;
  /** The decrypted body parsed as JSON; null when it did not decrypt or parse (see `error`). */
  payload: unknown;
  /** The decrypted body as text, e.g. to hand to a browser's service worker. */
  text: string | null;
  topic: string | null;
  urgency: string;
  ttl: number;
  vapidOk: boolean;
  /** Why VAPID or decryption failed. */
  error: string | null;
  /** The status this service answered with. */
  status: number;
  receivedAt: Date;
}

/** How a subscription answers: an error status, or 201 after a delay or a promise. */
export type PushBehaviour =
  | { status: 404 | 410 | 413 | 500 | 503 }
  | { status: 429; retryAfter: number }
  | { delayMs: number }
  | { until: Promise<unknown> };

export interface PushServiceOptions {
  /** Defaults to a fresh certificate in a temporary directory. */
  tls?: PushTls;
  /** The clock VAPID expiry is judged by; the real one unless a test injects its own. */
  now?: () => Date;
}

interface Entry {
  keys: SubscriptionKeys;
  applicationServerKey: string | null;
  behaviour: PushBehaviour | null;
}

export class PushService extends EventEmitter<{ message: [ReceivedPush] }> {
  readonly messages: ReceivedPush[] = [];
  readonly caPem: string;
  readonly caFile: string;
  /** An https.Agent that trusts this service, for senders in this process (web-push's `agent`). */
  readonly agent: https.Agent;
  private readonly entries = new Map<string, Entry>();
  private readonly server: https.Server;
  private readonly now: () => Date;
  private port = 0;
  /** The certificate's directory when this service made it, removed on close. */
  private readonly ownTlsDir: string | null;

  private constructor(options: PushServiceOptions) {
    super();
    const tls = options.tls ?? pushTls();
    this.ownTlsDir = options.tls ? null : path.dirname(tls.caFile);
    this.caPem = tls.certPem;
    this.caFile = tls.caFile;
    this.now = options.now ?? (() => new Date());
    this.agent = new https.Agent({ ca: tls.certPem });
    this.server = https.createServer({ key: tls.keyPem, cert: tls.certPem }, (req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
  }

  static async start(options: PushServiceOptions = {}): Promise<PushService> {
    const service = new PushService(options);
    service.server.listen(0, '127.0.0.1');
    await once(service.server, 'listening');
    service.port = (service.server.address() as AddressInfo).port;
    return service;
  }

  /** e.g. https://127.0.0.1:43121 */
  get origin(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  /**
   * A new subscription, as a browser's PushSubscription.toJSON() gives it. With an
   * applicationServerKey (base64url), messages must be VAPID-signed by that key.
   */
  subscription(options: { applicationServerKey?: string } = {}): TestSubscription {
    const id = crypto.randomUUID();
    const keys = newSubscriptionKeys();
    this.entries.set(id, {
      keys,
      applicationServerKey: options.applicationServerKey ?? null,
      behaviour: null,
    });
    return {
      id,
      endpoint: `${this.origin}/push/${id}`,
      expirationTime: null,
      keys: { p256dh: keys.publicKey.toString('base64url'), auth: keys.authSecret.toString('base64url') },
    };
  }

  /** Sets how a subscription answers from now on; null restores 201 Created. */
  behave(subscriptionId: string, behaviour: PushBehaviour | null): void {
    const entry = this.entries.get(subscriptionId);
    if (!entry) throw new Error(`no subscription ${subscriptionId}`);
    entry.behaviour = behaviour;
  }

  /** Forgets a subscription: its endpoint answers 404 as an unknown one. */
  forget(subscriptionId: string): void {
    this.entries.delete(subscriptionId);
  }

  /** The first message, received already or later, that matches. */
  waitForMessage(match: (message: ReceivedPush) => boolean = () => true): Promise<ReceivedPush> {
    const found = this.messages.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const listener = (message: ReceivedPush) => {
        if (!match(message)) return;
        this.off('message', listener);
        resolve(message);
      };
      this.on('message', listener);
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (this.ownTlsDir) fs.rmSync(this.ownTlsDir, { recursive: true, force: true });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'POST' || !id) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    }
    const entry = this.entries.get(id);
    if (!entry) {
      res.writeHead(404).end();
      return;
    }
    const body = Buffer.concat(chunks);
    const ttlHeader = req.headers.ttl;
    const ttl = Number(ttlHeader);
    const urgency = String(req.headers.urgency ?? 'normal');
    const problems: string[] = [];
    if (ttlHeader === undefined || !Number.isInteger(ttl) || ttl < 0) problems.push('missing or bad TTL');
    if (!['very-low', 'low', 'normal', 'high'].includes(urgency)) problems.push(`bad Urgency ${urgency}`);

    const vapid = await checkVapid(req.headers.authorization, this.origin, this.now());
    let vapidOk = vapid.ok;
    if (!vapid.ok) problems.push(vapid.reason);
    else if (entry.applicationServerKey !== null && vapid.publicKey !== entry.applicationServerKey) {
      vapidOk = false;
      problems.push('VAPID key is not the subscription’s applicationServerKey');
    }

    let text: string | null = null;
    let payload: unknown = null;
    if (size > MAX_BODY) problems.push(`body of ${size} bytes`);
    else if (req.headers['content-encoding'] !== 'aes128gcm')
      problems.push('Content-Encoding is not aes128gcm');
    else {
      try {
        text = decryptPushPayload(body, entry.keys).toString('utf8');
        payload = JSON.parse(text);
      } catch (error) {
        problems.push(`payload: ${(error as Error).message}`);
      }
    }

    const behaviour = entry.behaviour;
    let status = 201;
    if (size > MAX_BODY) status = 413;
    else if (!vapidOk) status = vapid.ok ? 403 : 401;
    else if (problems.length > 0) status = 400;
    else if (behaviour && 'status' in behaviour) status = behaviour.status;

    const message: ReceivedPush = {
      subscriptionId: id,
      payload,
      text,
      topic: typeof req.headers.topic === 'string' ? req.headers.topic : null,
      urgency,
      ttl,
      vapidOk,
      error: problems.length > 0 ? problems.join('; ') : null,
      status,
      receivedAt: this.now(),
    };
    this.messages.push(message);
    this.emit('message', message);

    if (behaviour && 'delayMs' in behaviour) await new Promise((r) => setTimeout(r, behaviour.delayMs));
    if (behaviour && 'until' in behaviour) await behaviour.until;
    const headers: Record<string, string> = {};
    if (status === 201) headers.Location = `${this.origin}/message/${crypto.randomUUID()}`;
    if (behaviour && 'retryAfter' in behaviour) headers['Retry-After'] = String(behaviour.retryAfter);
    res.writeHead(status, headers).end(message.error ?? '');
  }
}

export function startPushService(options: PushServiceOptions = {}): Promise<PushService> {
  return PushService.start(options);
}
