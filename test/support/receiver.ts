import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepIdleConnectionsAMinute } from '../../infra/local/server';

export interface Received {
  headers: IncomingHttpHeaders;
  /** The request's path, query included. */
  path: string;
  body: string;
  /** The body's bytes, for what is not text (an encrypted push). */
  raw: Buffer;
  /** The status the receiver answered. */
  answered: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Statuses to answer, in order; 200 once they run out. */
  answerWith: (...statuses: number[]) => void;
  /** Resolves once `count` requests have arrived (throws after `timeoutMs`). */
  waitFor: (count: number, timeoutMs?: number) => Promise<Received[]>;
  close: () => Promise<void>;
}

/** A webhook receiver on a free local port that records every request it gets. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let statuses: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answered = statuses.shift() ?? 200;
      const raw = Buffer.concat(chunks);
      received.push({ headers: request.headers, path: request.url ?? '', body: raw.toString('utf8'), raw, answered });
      response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'not now');
    });
  });
  keepIdleConnectionsAMinute(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answerWith: (...next) => {
      statuses = next;
    },
    waitFor: async (count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} expected deliveries`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
