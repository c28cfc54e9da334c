import { constants, gzipSync } from 'node:zlib';

/**
 * A large text answer a function keeps for its container's life (the reference page's script): answered
 * gzipped to a client that accepts it, as text otherwise. Gzipped on the first such request, then kept:
 * level 9 takes about 150 ms for 4.3 MB, once; brotli at its best quality would take seconds.
 */
export class CompressibleText {
  #gzipped: string | undefined;

  constructor(readonly text: string) {}

  /** The gzipped bytes, base64-encoded as a Lambda proxy answer carries binary. */
  get gzippedBase64(): string {
    return (this.#gzipped ??= gzipSync(this.text, { level: constants.Z_BEST_COMPRESSION }).toString('base64'));
  }
}

/** A large JSON answer kept for the container's life (the API's own description), typed as the value it holds. */
export class CompressibleJson<T> extends CompressibleText {
  constructor(readonly value: T) {
    super(JSON.stringify(value));
  }
}

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
