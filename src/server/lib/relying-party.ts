/**
 * The WebAuthn relying party a request is served as (decision 0024): the browser ties a passkey to a
 * host name (the RP id) and signs the page's origin, so both must be the site's as its users reach it.
 */
export interface RelyingParty {
  /** A host name, without port. */
  id: string;
  /** scheme://host[:port], as the browser reports it in clientDataJSON. */
  origin: string;
}

const LOCALHOST = /^localhost(?::(\d{1,5}))?$/i;

/**
 * PUBLIC_URL's host name and origin when it is set. Without it, only a request whose Host is
 * `localhost[:port]` has one (RP id `localhost`): a name taken from any other Host header could be an
 * attacker's choice, and an IP address can be no RP id at all. Null otherwise.
 */
export function relyingPartyOf(
  publicUrl: string | undefined,
  request: { host: string; protocol: string },
): RelyingParty | null {
  if (publicUrl) {
    const url = new URL(publicUrl);
    return { id: url.hostname, origin: url.origin };
  }
  const local = LOCALHOST.exec(request.host);
  if (!local) return null;
  // As a browser writes the origin: without the scheme's default port.
  const number = local[1] ? Number(local[1]) : null;
  const standard = number === (request.protocol === 'https' ? 443 : 80);
  const port = number === null || standard ? '' : `:${number}`;
  return { id: 'localhost', origin: `${request.protocol}://localhost${port}` };
}
