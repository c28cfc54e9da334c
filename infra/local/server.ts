import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { USAGE_PLANS } from '../../shared/auth/usage-plans';
import { getOrganizationUsagePlan } from '../../functions/organization/store';
import { routes } from '../../functions/resources';
import { createLocalGateway, type LocalGatewayOptions } from './gateway';
import { loadAuthorizer, loadFunction, loadHandler } from './handlers';
import { createUsagePlanMeter } from './rate-limiter';
import { LOCAL_INBOUND_SMS_PATH, simulateInboundSms, type InboundHandler } from './inbound-sms';
import { startTableStream, type StreamBatchHandler, type TableStream } from './table-stream';
import { startScheduledJobs } from './scheduler';
import { createLocalDeliveryQueue, type LocalDeliveryQueue } from './delivery-queue';
import { setDeliveryQueue } from '../../functions/webhooks/queue';
import { setLocalReceiptHandler } from '../../functions/sms/local-provider';
import { config } from '../../shared/config';
import { serveLocallyAt } from '../../shared/http/base-url';
import { logger } from '../../shared/observability';
import { localWorker, workerOn } from './workers';

// Each worker of the resource list on what npm start has for its trigger: the table's stream (below), the in-process
// delivery queue, and the two SMS topics: the local carrier's receipts (the configuration set's events) and the replies
// posted to LOCAL_INBOUND_SMS_PATH (the numbers' two-way channel). The receipts go through the worker's code from the
// first send on, the demo organization's included, which `npm start` seeds before the server starts.
setLocalReceiptHandler(localWorker(workerOn('topic', 'smsEvents')));

// The authorizer's usage identifier is the organization id (usageIdentifierKey), so it finds the organization's plan.
const planOf = async (usageIdentifierKey: string) => USAGE_PLANS[await getOrganizationUsagePlan(usageIdentifierKey)];

/** A server started without the stream consumer: nothing reads the stream, and waiting for it is a mistake. */
const streamNotRead: TableStream = {
  caughtUp: () => Promise.reject(new Error('This server runs without the stream consumer; start it with events: true')),
  nudge: () => undefined,
  stop: async () => undefined,
};

export interface LocalServer {
  server: Server;
  url: string;
  /** The table's stream consumer, as Lambda's event source mapping runs it. */
  stream: TableStream;
  /** Webhook deliveries waiting for their time, run in process. */
  deliveries: LocalDeliveryQueue;
  /** Stops the stream consumer, then the HTTP server. */
  close: () => Promise<void>;
}

/**
 * The local API: the route table behind a plain HTTP server, and the table's stream consumer and the webhook
 * delivery queue in process.
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
  }: Pick<LocalGatewayOptions, 'aroundInvoke' | 'aroundAuthorize' | 'authorizerCacheTtlMs'> & {
    streamFrom?: 'TRIM_HORIZON' | 'LATEST';
    /** Run the stream consumer (events, webhooks) and the scheduled jobs; tests that do not look at events leave it off, as it doubles DynamoDB Local's work. */
    events?: boolean;
    /** Run the scheduled jobs this often instead of at their own interval (tests). */
    scheduleEveryMs?: number;
    /**
     * The functions find the API as deployed, by PUBLIC_BASE_URL alone: the server does not give them its own address,
     * and no URL follows the request's Host (tests of the deployed rule, shared/http/base-url.ts).
     */
    asDeployed?: boolean;
  } = {},
): Promise<LocalServer> {
  const deliveries = createLocalDeliveryQueue({ deliver: localWorker(workerOn('queue', 'deliveries')) });
  setDeliveryQueue(deliveries);
  const handler = await loadFunction<StreamBatchHandler>(workerOn('stream').handler);
  const stream = events
    ? await startTableStream({
        endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB!,
        tableName: config.tableName,
        handler,
        from: streamFrom,
        onError: (error) => logger.error('stream batch failed; retrying it', { error }),
      })
    : streamNotRead;
  // After each request the stream is read at once: the request probably wrote something.
  const invokeAndNudge: NonNullable<LocalGatewayOptions['aroundInvoke']> = (route, invoke) => {
    const invoked = aroundInvoke ? aroundInvoke(route, invoke) : invoke();
    return invoked.finally(() => stream.nudge());
  };
  const gateway = createLocalGateway({ routes, loadHandler, loadAuthorizer, aroundInvoke: invokeAndNudge, aroundAuthorize, authorizerCacheTtlMs, meter: createUsagePlanMeter(planOf) });
  const inboundSms = await loadFunction<InboundHandler>(workerOn('topic', 'inboundSms').handler);
  const server = createServer((request, response) => {
    if (request.method === 'POST' && request.url === LOCAL_INBOUND_SMS_PATH) {
      simulateInboundSms(request, response, inboundSms)
        .catch((error: unknown) => {
          logger.error('simulated inbound SMS failed', { error });
          if (!response.headersSent) response.writeHead(500).end();
        })
        .finally(() => stream.nudge());
      return;
    }
    void gateway(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await stream.stop();
    throw error;
  });
  const { port: bound } = server.address() as AddressInfo;
  // The MCP server's tool calls come back here, to the address bound, whatever Host a request named.
  const releaseAddress = asDeployed ? () => undefined : serveLocallyAt(`http://127.0.0.1:${bound}`);
  const schedules = events ? startScheduledJobs({ everyMs: scheduleEveryMs, onError: (job, error) => logger.error('scheduled job failed', { job: job.name, error }) }) : undefined;
  const close = async () => {
    releaseAddress();
    schedules?.stop();
    await stream.stop();
    deliveries.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { server, url: `http://localhost:${bound}`, stream, deliveries, close };
}
