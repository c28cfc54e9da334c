/** A bare JSON client for the stress runs: every answer is kept, none is asserted here. */
export interface Answer {
  status: number;
  body: any;
  /** The body was not JSON, or the request failed before an answer. */
  malformed?: string;
  headers?: Headers;
}

export function jsonClient(url: string, apiKey: string) {
  const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    try {
      const response = await fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      try {
        return { status: response.status, body: JSON.parse(text), headers: response.headers };
      } catch {
        return { status: response.status, body: null, malformed: text.slice(0, 200) };
      }
    } catch (error) {
      return { status: 0, body: null, malformed: `${String(error)} (${String((error as { cause?: unknown }).cause)})` };
    }
  };
  return {
    get: (path: string, options?: { headers?: Record<string, string> }) => request('GET', path, undefined, options?.headers),
    post: (path: string, body: unknown, options?: { headers?: Record<string, string> }) => request('POST', path, body, options?.headers),
    put: (path: string, body: unknown, options?: { headers?: Record<string, string> }) => request('PUT', path, body, options?.headers),
    patch: (path: string, body: unknown, options?: { headers?: Record<string, string> }) => request('PATCH', path, body, options?.headers),
    delete: (path: string, options?: { headers?: Record<string, string> }) => request('DELETE', path, undefined, options?.headers),
  };
}

export type JsonClient = ReturnType<typeof jsonClient>;

/**
 * A client whose every answer must be a success: a 429 of a usage plan or a 500 is quick to answer, and timed as a
 * success it would flatter the figure it lands in, so one stops the bench instead.
 */
export function succeeding(client: JsonClient): JsonClient {
  const checked =
    <Rest extends unknown[]>(method: string, call: (path: string, ...rest: Rest) => Promise<Answer>) =>
    async (path: string, ...rest: Rest): Promise<Answer> => {
      const answer = await call(path, ...rest);
      if (answer.status < 200 || answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.malformed ?? JSON.stringify(answer.body).slice(0, 300)}`);
      return answer;
    };
  return { get: checked('GET', client.get), post: checked('POST', client.post), put: checked('PUT', client.put), patch: checked('PATCH', client.patch), delete: checked('DELETE', client.delete) };
}

/** Runs `task(0)`, `task(1)`, … with `concurrency` workers until `count` tasks ran, or while `until` says not yet. */
export async function pool(count: number | ((started: number) => boolean), concurrency: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const more = typeof count === 'number' ? () => next < count : () => !count(next);
  const worker = async () => {
    while (more()) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return next;
}

/** Every row of a list, page by page, with the totalCount each page reported. */
export async function walk(client: JsonClient, path: string, key: string): Promise<{ rows: any[]; totalCounts: Set<number> }> {
  const rows: any[] = [];
  const totalCounts = new Set<number>();
  for (let page = 1; ; page++) {
    const { status, body } = await client.get(`${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`);
    if (status !== 200) throw new Error(`GET ${path} page ${page} answered ${status}`);
    rows.push(...body[key]);
    totalCounts.add(body.totalCount);
    if (page >= body.totalPages) return { rows, totalCounts };
  }
}

/** A tally of answers by status, for the report. */
export function tally(statuses: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[String(status)] = (counts[String(status)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort());
}
