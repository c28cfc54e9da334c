import { constants, gzipSync } from 'node:zlib';

/**
 * A large text answer (the reference page's script): answered gzipped to a client that accepts it, as text otherwise.
 * Gzipped on the first such request, then kept. An answer kept for the container's life takes the best level (about
 * 150 ms for 4.3 MB, once; brotli at its best quality would take seconds); one made per request takes zlib's default
 * (about 5 ms for 400 KB, to a tenth of its size).
 */
export class CompressibleText {
  #gzipped: string | undefined;

  constructor(
    readonly text: string,
    private readonly level: number = constants.Z_BEST_COMPRESSION,
  ) {}

  /** The gzipped bytes, base64-encoded as a Lambda proxy answer carries binary. */
  get gzippedBase64(): string {
    return (this.#gzipped ??= gzipSync(this.text, { level: this.level }).toString('base64'));
  }
}

/** A large JSON answer (the API's own description, kept; an MCP tool list, made per request), typed as the value it holds. */
export class CompressibleJson<T> extends CompressibleText {
  constructor(
    readonly value: T,
    level?: number,
  ) {
    super(JSON.stringify(value), level);
  }
}

/** zlib's default level, for an answer gzipped once per request. */
export const PER_REQUEST_GZIP_LEVEL = constants.Z_DEFAULT_COMPRESSION;

/** Whether an Accept-Encoding header allows gzip: named, or `*`, with a q above 0. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  const weights = new Map(
    (acceptEncoding ?? '').split(',').map((entry) => {
      const [coding = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
      const q = params.find((param) => param.startsWith('q='));
      return [coding, q ? Number(q.slice(2)) : 1] as const;
    }),
  );
  return (weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*') ?? 0) > 0;
}
