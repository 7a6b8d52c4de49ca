import type { IncomingMessage } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';

/** Whether the hop at `address` (0 = the socket's peer) is a proxy whose X-Forwarded-For can be believed. */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as trust-proxy-setting.ts has read it: off, the number of proxies in front of the app, or the
 * proxies' addresses and ranges (proxy-addr's syntax, comma-separated). Never "every hop": the
 * leftmost X-Forwarded-For entries are whatever the client wrote.
 */
export type TrustProxySetting = false | number | string;

/**
 * TRUST_PROXY as one function, given to Fastify (request.ip) and used by the fast path, so that both
 * name the same client: the rightmost address that is not a trusted proxy's.
 */
export function trustProxyFunction(setting: TrustProxySetting): TrustProxy | false {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  // Throws a TypeError naming the first entry that is not an address, a range or a known name.
  return proxyAddr.compile(
    setting
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  );
}

/**
 * Spread over each family's whole space, its first and last addresses among them: a list that trusts
 * every one of them (e.g. 0.0.0.0/1,128.0.0.0/1) trusts any client, as `true` would.
 */
const EVERY_ADDRESS_PROBES = {
  ipv4: Array.from({ length: 256 }, (_, index) => `${index}.${255 - index}.${index}.${255 - index}`).concat([
    '0.0.0.0',
    '255.255.255.255',
  ]),
  ipv6: Array.from({ length: 256 }, (_, index) => {
    const group = (index * 257).toString(16);
    return `${group}:${group}::${group}`;
  }).concat(['::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']),
};

/** Whether a list of trusted proxies takes in every IPv4 or every IPv6 address: anyone is a proxy then. */
export function trustsEveryAddress(trust: TrustProxy): boolean {
  return Object.values(EVERY_ADDRESS_PROBES).some((probes) => probes.every((address) => trust(address, 0)));
}

/** The client's address as Fastify's request.ip gives it. */
export function clientAddressOf(request: IncomingMessage, trust: TrustProxy | false): string {
  if (!trust) return request.socket.remoteAddress ?? '';
  const addresses = proxyAddr.all(request, trust);
  return addresses[addresses.length - 1] ?? '';
}

/** An IPv6 address with its dotted IPv4 tail, if any, written as two hex groups ("::ffff:1.2.3.4" → "::ffff:102:304"). */
function withHexTail(address: string): string {
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  if (!isIPv4(tail)) return address;
  const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number];
  return `${address.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** The eight 16-bit groups of a valid IPv6 address (node:net has checked it). */
function ipv6Groups(address: string): number[] {
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const [head = '', rest] = withHexTail(address).split('::');
  const first = parse(head);
  const last = rest === undefined ? [] : parse(rest);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

const PLAIN_IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * Who a per-client limit (failed logins, live streams, new visitors) counts: an IPv4 address as itself
 * (IPv4-mapped IPv6 included), an IPv6 address by its /64 network, which one subscriber usually holds whole, so that hopping
 * between the addresses of one's own /64 gains nothing. Anything else is kept as given.
 */
export function clientGroup(address: string): string {
  // The common case: a plain IPv4 address is itself, without the IPv6 parsing below.
  if (PLAIN_IPV4.test(address)) return address;
  const text = address.trim().toLowerCase().replace(/%.*$/, '');
  if (!isIPv6(text)) return text;
  const groups = ipv6Groups(text);
  const isMappedIpv4 = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (isMappedIpv4) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
