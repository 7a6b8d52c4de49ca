import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * What a push endpoint may point at (decision 0025): the server sends requests there on a stranger's
 * word, so an endpoint that names, or resolves to, an address inside the server's own networks
 * (loopback, private, link-local, unique-local, CGNAT, multicast, unspecified, reserved, and IPv6
 * forms that embed an IPv4 address) is refused. Only ipaddr.js's "unicast" range is public.
 * `allowLoopback` (PUSH_ALLOW_LOOPBACK, tests) lets loopback through and nothing else.
 */
export interface EndpointPolicy {
  allowLoopback: boolean;
}

/** Whether an IP address (any spelling ipaddr.js reads) is one a push may go to. */
export function isPublicAddress(address: string, policy: EndpointPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  // IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === 'unicast') return true;
  return policy.allowLoopback && range === 'loopback';
}

/** Names that always mean this machine (RFC 6761), whatever a resolver says. */
function isLocalName(hostname: string): boolean {
  const name = hostname.replace(/\.$/, '').toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost');
}

export type EndpointCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Reads an endpoint as the server would send to it. The WHATWG URL parser normalises every IPv4
 * spelling (decimal, hex, octal, shortened: https://2130706433/, https://0x7f.1/) to dotted form and
 * IPv6 literals to their compressed form, so the literal checked here is the one that would be dialled.
 */
export function checkPushEndpoint(endpoint: string, policy: EndpointPolicy): EndpointCheck {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { ok: false, reason: 'is not a URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'must be an https: URL' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry a user name or password' };
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (ipaddr.isValid(host)) {
    if (!isPublicAddress(host, policy)) return { ok: false, reason: 'must be on a public address' };
  } else if (isLocalName(host) && !policy.allowLoopback) {
    return { ok: false, reason: 'must be on a public address' };
  }
  return { ok: true, url };
}

export class RefusedAddressError extends Error {
  readonly code = 'EPUSHADDRESS';
}

/**
 * A `lookup` for the sockets of push requests: the name is resolved when the connection is made and
 * every address it resolves to must be public, so a name that points inside (or is repointed there
 * after its subscription was accepted) is refused at send time rather than dialled.
 */
export function publicOnlyLookup(policy: EndpointPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 4);
        return;
      }
      const refused = addresses.find((entry) => !isPublicAddress(entry.address, policy));
      if (refused || addresses.length === 0) {
        callback(new RefusedAddressError(`${hostname} resolves to an address push may not reach`), '', 4);
        return;
      }
      if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      else {
        const [first] = addresses as [dns.LookupAddress];
        callback(null, first.address, first.family);
      }
    });
  };
}
