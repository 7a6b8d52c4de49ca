/** How `npm run verify` reads a site: plain fetch, and a site that cannot be read is not a verdict. */
export class ReadError extends Error {}

/** The longest wait a 429's Retry-After is honoured for; longer, and the site cannot be read now. */
const LONGEST_WAIT_SECONDS = 60;

/** A GET that waits out the site's rate limits (a million entries take thousands of reads). */
async function get(url: string, accept: string): Promise<Response> {
  for (;;) {
    const response = await fetch(url, { headers: { accept } });
    const wait = Number(response.headers.get('retry-after'));
    if (response.status !== 429 || !(wait >= 0 && wait <= LONGEST_WAIT_SECONDS)) return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, wait) * 1000));
  }
}

async function ok(url: string, accept: string): Promise<Response> {
  const response = await get(url, accept);
  if (!response.ok) throw new ReadError(`GET ${url} answered ${response.status}`);
  return response;
}

export async function getJson<T>(url: string): Promise<T> {
  return (await (await ok(url, 'application/json')).json()) as T;
}

export async function getText(url: string): Promise<string> {
  return (await ok(url, 'text/plain')).text();
}

export async function getBytes(url: string): Promise<Buffer> {
  return Buffer.from(await (await ok(url, 'application/octet-stream')).arrayBuffer());
}

/** A proof the site should give: its answer, or why not (a site that will not prove fails the check). */
export async function getProof<T>(url: string): Promise<T | string> {
  const response = await get(url, 'application/json');
  const body = await response.text();
  if (!response.ok) return `GET ${url} answered ${response.status}: ${body.slice(0, 200)}`;
  try {
    return JSON.parse(body) as T;
  } catch {
    return `GET ${url} answered something other than JSON`;
  }
}
