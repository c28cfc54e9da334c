/**
 * The local server in a process of its own, for the throughput run: measured from outside, as a client sees it,
 * so the client's CPU is not the server's. It reads the environment the bench set (table, endpoint, cursor key),
 * keeps the authorizer's answers for 300 s as API Gateway does deployed, and prints its URL as its first line.
 */
export {};

for (const method of ['log', 'info', 'warn', 'error'] as const) console[method] = () => undefined;
const { startLocalServer } = await import('../../infra/local/server');
const local = await startLocalServer(0, { events: false, authorizerCacheTtlMs: 300_000 });
process.stdout.write(`${local.url}\n`);
// From here on the handlers' log lines and metrics (as in Lambda, the environment has no POWERTOOLS_DEV) are written
// and discarded, so the bench reading this pipe pays nothing for them.
process.stdout.write = () => true;
process.once('SIGTERM', () => void local.close().then(() => process.exit(0)));
