import { type TrustProxySetting, trustProxyFunction, trustsEveryAddress } from './client-address.js';

/**
 * The most proxies in a row TRUST_PROXY may count: a count above the proxies really in front of the
 * app lets a client choose its address, and a large one trusts every hop in practice.
 */
const MAX_TRUSTED_HOPS = 10;

export const TRUST_WHAT_INSTEAD =
  'name the proxies instead: TRUST_PROXY=127.0.0.1 (or loopback) for a proxy on this machine, ' +
  "the proxies' addresses or ranges (e.g. 10.0.0.5,10.0.1.0/24), or the number of proxies in front of the app (e.g. 1)";

/**
 * TRUST_PROXY read: off, a hop count, or proxy-addr's addresses, ranges and names. Anything that
 * trusts every hop is refused, since the client writes the leftmost X-Forwarded-For entries itself
 * (a proxy appends to them) and would then pick the address every per-address limit counts.
 */
export function parseTrustProxy(text: string): { setting: TrustProxySetting } | { refused: string } {
  const word = text.toLowerCase();
  if (word === '' || word === 'false') return { setting: false };
  if (word === 'true') {
    return { refused: '"true" believes every X-Forwarded-For hop, which any client can write' };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops === 0) return { setting: false };
    if (hops <= MAX_TRUSTED_HOPS) return { setting: hops };
    return { refused: `${text} hops would let a client choose its address (at most ${MAX_TRUSTED_HOPS})` };
  }
  const parts = text.split(',').map((part) => part.trim());
  if (!parts.some(Boolean)) return { refused: `"${text}" names no proxy` };
  // proxy-addr refuses a zero-length prefix as a bad range; say what it would have meant.
  const everyAddress = `"${text}" trusts every address, as "true" would`;
  if (parts.some((part) => /\/(0+|0\.0\.0\.0)$/.test(part))) return { refused: everyAddress };
  let trust: ReturnType<typeof trustProxyFunction>;
  try {
    trust = trustProxyFunction(text);
  } catch (error) {
    return { refused: `"${text}": ${(error as Error).message}` };
  }
  if (trust && trustsEveryAddress(trust)) return { refused: everyAddress };
  return { setting: text };
}
