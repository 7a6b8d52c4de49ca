import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Whether the hop at `address` (0 = the socket's peer) is a proxy whose X-Forwarded-For can be believed. */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as one function, given to Fastify (request.ip) and used by the fast path, so that both
 * name the same client: `true` trusts every hop, a number that many hops, text the listed addresses
 * or ranges (proxy-addr's syntax, comma-separated).
 */
export function trustProxyFunction(setting: boolean | number | string): TrustProxy | false {
  if (setting === false) return false;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting.split(',').map((part) => part.trim()));
}

/** The client's address as Fastify's request.ip gives it. */
export function clientAddressOf(request: IncomingMessage, trust: TrustProxy | false): string {
  if (!trust) return request.socket.remoteAddress ?? '';
  const addresses = proxyAddr.all(request, trust);
  return addresses[addresses.length - 1] ?? '';
}

/** Expands an IPv6 address (no zone) to its eight groups, or null when it is not one. */
function ipv6Groups(address: string): string[] | null {
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) takes two groups.
  const last = tail.length > 0 ? tail : head;
  if (last.length > 0 && last[last.length - 1]?.includes('.')) last.splice(-1, 1, '0', '0');
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  return groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group)) ? groups : null;
}

/**
 * Who a per-client limit counts: an IPv4 address as it is, an IPv6 address by its /64 (one phone or
 * household is given a whole /64 and can pick any address in it), and an IPv4-mapped address as IPv4.
 */
export function clientGroup(address: string): string {
  const bare = address.split('%')[0] ?? address;
  if (!bare.includes(':')) return bare;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped?.[1]) return mapped[1];
  const groups = ipv6Groups(bare);
  if (!groups) return bare;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
