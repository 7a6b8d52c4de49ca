import net from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a real server (PostgreSQL), so a test can make
 * the database misbehave the ways a network or a server does, for one app only:
 * - pause(): nothing is forwarded any more either way, but every socket stays open (and new ones are
 *   accepted and held): a database that stopped answering, which only a deadline can detect;
 * - cut(): every socket is destroyed, and new ones are until resume(): a database that went away;
 * - resume(): forwarding again; new connections reach the server.
 */
export interface TcpProxy {
  /** The proxy's port: put it in place of the server's in a connection string. */
  port: number;
  /** `url` (postgres://…) with its host and port replaced by the proxy's. */
  through(url: string): string;
  /** How many client connections are open through the proxy now. */
  readonly openConnections: number;
  pause(): void;
  cut(): void;
  resume(): void;
  /** Destroys every socket and stops listening. */
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  server: net.Socket;
}

/**
 * Starts the proxy in front of `target`. `options.port` listens on that port instead of a free one:
 * a port a process was told to use before anything listened there (a database that comes up late).
 */
export async function startTcpProxy(
  target: { host: string; port: number },
  options: { port?: number } = {},
): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let paused = false;
  let refusing = false;

  const destroy = (pair: Pair) => {
    pair.client.destroy();
    pair.server.destroy();
    pairs.delete(pair);
  };

  const listener = net.createServer((client) => {
    if (refusing) {
      // A reset, as a server that is gone would answer (after the handshake the kernel made).
      client.resetAndDestroy();
      return;
    }
    const server = net.connect(target.port, target.host);
    const pair: Pair = { client, server };
    pairs.add(pair);
    // Forwarded by hand, not piped: pipe() resumes a paused socket on its own when the other side drains.
    client.on('data', (chunk) => server.write(chunk));
    server.on('data', (chunk) => client.write(chunk));
    // Either side ending ends both: the other end then sees what it would see without the proxy.
    for (const socket of [client, server]) {
      socket.on('error', () => destroy(pair));
      socket.on('close', () => destroy(pair));
    }
    if (paused) {
      client.pause();
      server.pause();
    }
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (listener.address() as net.AddressInfo).port;

  return {
    port,
    through(url: string) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    get openConnections() {
      return pairs.size;
    },
    pause() {
      paused = true;
      for (const { client, server } of pairs) {
        client.pause();
        server.pause();
      }
    },
    cut() {
      refusing = true;
      for (const pair of [...pairs]) {
        pair.client.resetAndDestroy();
        destroy(pair);
      }
    },
    resume() {
      paused = false;
      refusing = false;
      for (const { client, server } of pairs) {
        client.resume();
        server.resume();
      }
    },
    async close() {
      for (const pair of [...pairs]) destroy(pair);
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}

/** The host and port a connection string names (PostgreSQL's default port when it names none). */
export function addressOf(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : 5432 };
}

/** A port nothing listens on now (asked of the kernel, then let go): a database not started yet. */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
