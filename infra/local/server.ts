import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getOrganizationUsagePlan } from '../../functions/organization/store';
import { CHANNELS, routes, WORKERS } from '../../functions/resources';
import { createLocalGateway, type LocalGatewayOptions } from './gateway';
import { behindConsoleEdge, originGate } from './edge';
import { VIEWER_ADDRESS_HEADER, VIEWER_ADDRESS_STAGE_VARIABLE } from '#shared/http/caller-address';
import { loadAuthorizer, loadFunction, loadHandler } from './handlers';
import { createUsagePlanMeter, meteredPlanOf } from './rate-limiter';
import { startTableStream, type StreamBatchHandler, type TableStream } from './table-stream';
import { startScheduledJobs } from './scheduler';
import { createLocalQueue, type LocalQueue } from './queue';
import { clock } from '#shared/clock';
import { config } from '#shared/config';
import { serveLocallyAt } from '#shared/http/base-url';
import { logger } from '#shared/observability';
import { addLocalAuthorizerCache } from '#shared/auth/authorizer-cache';
import { localWorker, workerOn } from './workers';
import { duringRoute, duringWorker, installStrictAccess } from './strict-access';

/**
 * Overlapping requests share this process, as invocations share an environment on Lambda's multi-concurrency runtime.
 * That runtime holds each invocation's context in its InvokeStore (`awslambda.InvokeStore`), and Powertools, seeing
 * AWS_LAMBDA_MAX_CONCURRENCY, keeps a logger's per-request keys there (the function the Lambda context names, the
 * operation and request the access log appends): without it a line carries whichever request set them last. This is
 * that store, one context per invocation in an AsyncLocalStorage; work outside any invocation (the stream readers,
 * queues, jobs) keeps the logger's shared keys, as before.
 */
const invocations = new AsyncLocalStorage<Record<string | symbol, unknown>>();
const REQUEST_ID = Symbol.for('_AWS_LAMBDA_REQUEST_ID');
const invokeStore = {
  getContext: () => invocations.getStore(),
  hasContext: () => invocations.getStore() !== undefined,
  get: (key: string | symbol) => invocations.getStore()?.[key],
  set: (key: string | symbol, value: unknown) => {
    const context = invocations.getStore();
    if (!context) throw new Error('No invocation context to set a value in');
    context[key] = value;
  },
  run: <T>(context: Record<string | symbol, unknown>, fn: () => T): T => invocations.run(context, fn),
  getRequestId: () => String(invocations.getStore()?.[REQUEST_ID] ?? '-'),
  getXRayTraceId: () => undefined,
  getTenantId: () => undefined,
  getTraceparent: () => undefined,
  getTracestate: () => undefined,
  getBaggage: () => undefined,
};
process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '100';
const runtime = globalThis as { awslambda?: Record<string, unknown> };
runtime.awslambda = { ...runtime.awslambda, InvokeStore: invokeStore };

/** Runs one invocation (a route's function, an authorizer) in a context of its own. */
const invocation = <T>(invoke: () => Promise<T>): Promise<T> => invocations.run({ [REQUEST_ID]: randomUUID() }, invoke);

// Each worker of the resource list on what npm start has for its trigger: the table's stream (below), and for each
// channel a resource declares, its local stand-in: an in-process queue, a local publisher handed the worker's code, or
// a local path whose POSTs become the topic's messages. A publisher gets the worker's code now, so what it publishes
// goes through it from the first message on, the demo seed's included, which `npm start` makes before the server starts.
for (const channel of CHANNELS) {
  if (channel.kind === 'topic' && 'install' in channel.local) (await loadFunction<(take: unknown) => void>(channel.local.install))(localWorker(workerOn('topic', channel.name)));
}

/** A topic's simulator: it answers the POST, handing the worker's code what the topic would deliver. */
type Simulator = (request: IncomingMessage, response: ServerResponse, handler: (message: unknown) => Promise<void>) => Promise<void>;

/** What a queue's install put in place, when it can say it has nothing left to do now. */
interface Settling {
  readonly busy: boolean;
  idle(): Promise<void>;
}
const isSettling = (installed: unknown): installed is Settling => typeof (installed as Partial<Settling> | undefined)?.idle === 'function';

/**
 * Each declared queue in process, installed where its senders find it, its worker taking each job; a queue that
 * follows the clock waits and redelivers on shared/clock.ts. Answers the queues and what their installs put in place
 * that can say they are idle.
 */
async function startLocalQueues(): Promise<{ queues: Map<string, LocalQueue<object>>; settling: Settling[] }> {
  const queues = new Map<string, LocalQueue<object>>();
  const settling: Settling[] = [];
  for (const channel of CHANNELS) {
    if (channel.kind !== 'queue') continue;
    const { what, logged, followsClock, install } = channel.local;
    const onClock = followsClock ? { clock, redeliverAfterMs: channel.visibilityTimeoutSeconds * 1000, maxReceives: channel.deadLetters.maxReceiveCount } : undefined;
    const queue = createLocalQueue<object>({ what, logged, onClock, group: channel.messageGroup, take: localWorker(workerOn('queue', channel.name)) });
    const installed = (await loadFunction<(queue: LocalQueue<object>) => unknown>(install))(queue);
    if (isSettling(installed)) settling.push(installed);
    queues.set(channel.name, queue);
  }
  return { queues, settling };
}

/** Each topic with a local path: its simulator and its worker's code, by the path. */
async function simulatedTopics(): Promise<Map<string, { simulate: Simulator; handler: (message: unknown) => Promise<void> }>> {
  const byPath = new Map<string, { simulate: Simulator; handler: (message: unknown) => Promise<void> }>();
  for (const channel of CHANNELS) {
    if (channel.kind !== 'topic' || !('post' in channel.local)) continue;
    const worker = workerOn('topic', channel.name);
    byPath.set(channel.local.post, { simulate: await loadFunction<Simulator>(channel.local.simulate), handler: await loadFunction(worker.local ?? worker.handler) });
  }
  return byPath;
}

/** A server started without the stream consumer: nothing reads the stream, and waiting for it is a mistake. */
const streamNotRead: TableStream = {
  caughtUp: () => Promise.reject(new Error('This server runs without the stream consumer; start it with events: true')),
  nudge: () => undefined,
  stop: async () => undefined,
};

/**
 * Every worker on the table's stream, each with a reader of its own, as each has its own event source mapping in AWS:
 * a fault of one holds back none of the others. Waiting for the stream waits until every reader has caught up.
 */
async function startStreamReaders(from: 'TRIM_HORIZON' | 'LATEST' | undefined, minPollGapMs: number | undefined): Promise<TableStream> {
  const readers: TableStream[] = [];
  for (const worker of WORKERS.filter(({ trigger }) => trigger.kind === 'stream')) {
    const handler = await loadFunction<StreamBatchHandler>(worker.handler);
    readers.push(
      await startTableStream({
        endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB!,
        tableName: config.tableName,
        handler: (...args) => duringWorker(worker.name, () => handler(...args)),
        from,
        ...(worker.trigger.kind === 'stream' ? { parallelization: worker.trigger.parallelization, entities: worker.trigger.entities } : {}),
        minPollGapMs,
        onError: (error) => logger.error('stream batch failed; retrying it', { worker: worker.name, error }),
      }),
    );
  }
  return {
    caughtUp: async () => void (await Promise.all(readers.map((reader) => reader.caughtUp()))),
    nudge: () => readers.forEach((reader) => reader.nudge()),
    stop: async () => void (await Promise.all(readers.map((reader) => reader.stop()))),
  };
}

/** A POST to a simulated topic's path goes to its simulator, the stream read after it; every other request to the gateway. */
async function withSimulatedTopics(gateway: ReturnType<typeof createLocalGateway>, stream: TableStream): Promise<RequestListener> {
  const simulated = await simulatedTopics();
  return (request, response) => {
    const topic = request.method === 'POST' ? simulated.get(request.url ?? '') : undefined;
    if (!topic) return void gateway(request, response);
    topic
      .simulate(request, response, topic.handler)
      .catch((error: unknown) => {
        logger.error('simulated message failed', { path: request.url, error });
        if (!response.headersSent) response.writeHead(500).end();
      })
      .finally(() => stream.nudge());
  };
}

/** Listens on the loopback address, or rejects (the port taken). */
/**
 * An idle connection is kept a minute, as API Gateway and CloudFront keep theirs, not Node's 5 s: a client reusing a
 * connection just as the server drops it gets ECONNRESET, and on a loaded machine timers fire late enough for the
 * client's 4 s reuse window to overlap the server's 5 s one. The headers' timeout must stay above it.
 */
const IDLE_CONNECTION_MS = 60_000;

export function keepIdleConnectionsAMinute(server: Server): void {
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  server.headersTimeout = IDLE_CONNECTION_MS + 1_000;
}

function listen(server: Server, port: number): Promise<void> {
  keepIdleConnectionsAMinute(server);
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export interface LocalServer {
  server: Server;
  url: string;
  /** With `viewerEdge`, the API's own address behind the edge, as the execute-api URL is deployed. */
  originUrl?: string;
  /** The table's stream consumers, as Lambda's event source mappings run them. */
  stream: TableStream;
  /** The declared queues in process, by name: their jobs wait for their time, then their worker takes them. */
  queues: ReadonlyMap<string, LocalQueue<object>>;
  /** Whether what the queues' installs put in place (the engines that follow the clock) has work in flight now. */
  busy: () => boolean;
  /** Resolves once none of them is busy. */
  idle: () => Promise<void>;
  /** Stops the stream consumer, then the HTTP server. */
  close: () => Promise<void>;
}

/**
 * The local API: the route table behind a plain HTTP server, and the table's stream consumer and the declared queues
 * and topics in process.
 * Needs TABLE_NAME and the DynamoDB endpoint in the environment.
 */
export async function startLocalServer(
  port: number,
  {
    aroundInvoke,
    aroundAuthorize,
    authorizerCacheTtlMs,
    streamFrom,
    events = true,
    scheduleEveryMs,
    asDeployed = false,
    streamPollGapMs,
    viewerEdge = false,
  }: Pick<LocalGatewayOptions, 'aroundInvoke' | 'aroundAuthorize' | 'authorizerCacheTtlMs'> & {
    streamFrom?: 'TRIM_HORIZON' | 'LATEST';
    /** The shortest time between two reads of the stream, when not the reader's own (tests, which wait on it often). */
    streamPollGapMs?: number;
    /** Run the stream consumer (events, webhooks) and the scheduled jobs; tests that do not look at events leave it off, as it doubles DynamoDB Local's work. */
    events?: boolean;
    /** Run the scheduled jobs this often instead of at their own interval (tests). */
    scheduleEveryMs?: number;
    /**
     * The functions find the API as deployed, by PUBLIC_BASE_URL alone: the server does not give them its own address,
     * and no URL follows the request's Host (tests of the deployed rule, shared/http/base-url.ts).
     */
    asDeployed?: boolean;
    /**
     * The deployed edge's hop (infra/cdk/console-site.ts, firewall.ts): the server's address is the distribution's,
     * which adds the viewer's address and the origin secret to each request; the API's own address (`originUrl`, as
     * the execute-api URL) refuses a request without the secret; and the stage counts the viewer's address.
     */
    viewerEdge?: boolean;
  } = {},
): Promise<LocalServer> {
  const { queues, settling } = await startLocalQueues();
  const stream = events ? await startStreamReaders(streamFrom, streamPollGapMs) : streamNotRead;
  // After each request the stream is read at once: the request probably wrote something.
  installStrictAccess();
  const invokeAndNudge: NonNullable<LocalGatewayOptions['aroundInvoke']> = (route, invoke) => {
    const invoked = invocation(() => duringRoute(route, () => (aroundInvoke ? aroundInvoke(route, invoke) : invoke())));
    return invoked.finally(() => stream.nudge());
  };
  const authorizeAlone: NonNullable<LocalGatewayOptions['aroundAuthorize']> = (authorize) => invocation(() => (aroundAuthorize ? aroundAuthorize(authorize) : authorize()));
  const stageVariables = viewerEdge ? { [VIEWER_ADDRESS_STAGE_VARIABLE]: VIEWER_ADDRESS_HEADER } : undefined;
  const gateway = createLocalGateway({ routes, loadHandler, loadAuthorizer, aroundInvoke: invokeAndNudge, aroundAuthorize: authorizeAlone, authorizerCacheTtlMs, meter: createUsagePlanMeter(meteredPlanOf(getOrganizationUsagePlan)), stageVariables });
  const releaseCache = addLocalAuthorizerCache(gateway.authorizerCache);
  const originSecret = viewerEdge ? randomBytes(32).toString('base64url') : undefined;
  const api = await withSimulatedTopics(gateway, stream);
  const origin = originSecret === undefined ? api : originGate(originSecret, api);
  const server = createServer(behindConsoleEdge(origin, { originSecret }));
  const originServer = originSecret === undefined ? undefined : createServer(origin);
  await listen(server, port).catch(async (error: unknown) => {
    releaseCache();
    await stream.stop();
    throw error;
  });
  if (originServer) await listen(originServer, 0);
  const { port: bound } = server.address() as AddressInfo;
  // The MCP server's tool calls come back here, to the address bound, whatever Host a request named.
  const releaseAddress = asDeployed ? () => undefined : serveLocallyAt(`http://127.0.0.1:${bound}`);
  const schedules = events ? startScheduledJobs({ everyMs: scheduleEveryMs, onError: (job, error) => logger.error('scheduled job failed', { job: job.name, error }) }) : undefined;
  const close = async () => {
    releaseAddress();
    releaseCache();
    schedules?.stop();
    await stream.stop();
    for (const queue of queues.values()) queue.stop();
    for (const each of originServer ? [server, originServer] : [server]) {
      each.closeAllConnections();
      await new Promise((resolve) => each.close(resolve));
    }
  };
  const busy = () => settling.some((installed) => installed.busy);
  const idle = async () => {
    while (busy()) await Promise.all(settling.map((installed) => installed.idle()));
  };
  const originUrl = originServer ? `http://localhost:${(originServer.address() as AddressInfo).port}` : undefined;
  return { server, url: `http://localhost:${bound}`, ...(originUrl ? { originUrl } : {}), stream, queues, busy, idle, close };
}
