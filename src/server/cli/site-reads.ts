/** How `npm run verify` reads a site: plain fetch, and a site that cannot be read is not a verdict. */
export class ReadError extends Error {}

export async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new ReadError(`GET ${url} answered ${response.status}`);
  return (await response.json()) as T;
}

export async function getText(url: string): Promise<string> {
  const response = await fetch(url, { headers: { accept: 'text/plain' } });
  if (!response.ok) throw new ReadError(`GET ${url} answered ${response.status}`);
  return response.text();
}

/** A proof the site should give: its answer, or why not (a site that will not prove fails the check). */
export async function getProof<T>(url: string): Promise<T | string> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  const body = await response.text();
  if (!response.ok) return `GET ${url} answered ${response.status}: ${body.slice(0, 200)}`;
  try {
    return JSON.parse(body) as T;
  } catch {
    return `GET ${url} answered something other than JSON`;
  }
}
