import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installN8n, n8nCache } from './install';

/**
 * `npm run e2e:n8n`: a real n8n runs the package's nodes against `npm start`. n8n is installed from the registry into
 * a cache outside the repository, once (tools/install.ts); the package is built and loaded as a custom extension; a
 * workflow made through n8n's REST API (the Sales Pipeline Trigger on lead.created, then the action node adding a
 * note to that lead) is activated, which subscribes it; then a lead made through the API must get the note.
 */

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));
const NOTE = 'Added by the n8n workflow';
const started = Date.now();
const say = (line: string) => console.log(`[e2e:n8n ${((Date.now() - started) / 1000).toFixed(1)} s] ${line}`);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

const children: ChildProcess[] = [];
/** Starts a process in its own group, so that stopping it stops what it started (npm start's DynamoDB Local). */
function start(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; name: string }) {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (process.env.E2E_VERBOSE) process.stdout.write(`[${options.name}] ${chunk}`);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { child, output: () => output };
}
const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
};
/** Stops what this run started: asked to (npm start stops its DynamoDB Local), then killed if still there after 20 s. */
async function stopAll() {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null && child.pid);
  for (const child of running) signalGroup(child, 'SIGINT');
  const deadline = Date.now() + 20_000;
  while (running.some((child) => child.exitCode === null && child.signalCode === null) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  for (const child of running) signalGroup(child, 'SIGKILL');
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll().then(() => process.exit(1)));

async function until<T>(what: string, timeoutMs: number, attempt: () => Promise<T | undefined>, log?: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}${log ? `\n--- its output ---\n${log().slice(-4000)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function main() {
  say(`n8n from the cache ${n8nCache()} (installed on first run)`);
  const n8n = installN8n();

  say('building the package (n8n-node build)');
  execFileSync('npm', ['run', 'build'], { cwd: PACKAGE_DIR, stdio: 'ignore' });
  // Beside n8n's own node_modules, so the nodes' `n8n-workflow` is the one n8n runs, as with an installed community package.
  const extensions = join(n8nCache(), 'extensions');
  rmSync(extensions, { recursive: true, force: true });
  cpSync(join(PACKAGE_DIR, 'dist'), join(extensions, 'n8n-nodes-sales-pipeline'), { recursive: true });

  const [apiPort, dynamoPort, n8nPort] = [await freePort(), await freePort(), await freePort()];
  say(`starting npm start on port ${apiPort}`);
  const api = start('npm', ['start'], { cwd: REPOSITORY, name: 'api', env: { ...process.env, PORT: String(apiPort), DYNAMODB_PORT: String(dynamoPort), AUTHORIZER_CACHE_TTL: '0' } });
  const apiKey = await until('npm start to print the demo API key', 240_000, async () => /Demo API key:\s+(\S+)/.exec(api.output())?.[1], api.output);
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${apiUrl}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  say(`starting n8n on port ${n8nPort}`);
  const userFolder = mkdtempSync(join(tmpdir(), 'n8n-e2e-'));
  const n8nUrl = `http://127.0.0.1:${n8nPort}`;
  const n8nProcess = start(n8n, ['start'], {
    cwd: userFolder,
    name: 'n8n',
    env: {
      ...process.env,
      N8N_USER_FOLDER: userFolder,
      N8N_PORT: String(n8nPort),
      N8N_LISTEN_ADDRESS: '127.0.0.1',
      N8N_WEBHOOK_URL: `${n8nUrl}/`,
      N8N_CUSTOM_EXTENSIONS: extensions,
      N8N_DIAGNOSTICS_ENABLED: 'false',
      N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
      N8N_SECURE_COOKIE: 'false',
      N8N_RUNNERS_ENABLED: 'false',
      N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    },
  });
  // Ready, not only up: /healthz answers while the database is still being migrated.
  await until('n8n to be ready (/healthz/readiness)', 600_000, async () => ((await fetch(`${n8nUrl}/healthz/readiness`)).ok ? true : undefined), n8nProcess.output);
  say('n8n is ready');

  // n8n's REST API, as its editor uses it: the owner set up, then a session cookie on every call.
  let cookie = '';
  const rest = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${n8nUrl}/rest${path}`, { method, headers: { 'content-type': 'application/json', 'browser-id': 'e2e', ...(cookie ? { cookie } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) cookie = setCookie.split(';')[0]!;
    const text = await response.text();
    if (!response.ok) throw new Error(`n8n ${method} /rest${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return (JSON.parse(text) as { data: Record<string, any> }).data;
  };
  await rest('POST', '/owner/setup', { email: 'owner@example.com', firstName: 'E2E', lastName: 'Owner', password: 'E2e-password-1' });
  // n8n names the nodes of a custom extensions folder CUSTOM.<name>.
  const types = { action: 'CUSTOM.salesPipeline', trigger: 'CUSTOM.salesPipelineTrigger' };
  const credential = await rest('POST', '/credentials', { name: 'Sales Pipeline', type: 'salesPipelineApi', data: { apiKey, baseUrl: apiUrl } });
  const credentials = { salesPipelineApi: { id: credential.id, name: 'Sales Pipeline' } };
  // n8n's credential test (its editor's Test button) calls GET /v1/organization with the key: passes, and fails with another key.
  const test = async (key: string) => (await rest('POST', '/credentials/test', { credentials: { id: credential.id, name: 'Sales Pipeline', type: 'salesPipelineApi', data: { apiKey: key, baseUrl: apiUrl } } })) as { status: string; message: string };
  const [right, wrong] = [await test(apiKey), await test('sp_live_not_a_key_of_this_api_0000000000')];
  if (right.status !== 'OK' || wrong.status === 'OK') throw new Error(`n8n's credential test answered ${JSON.stringify(right)} with the key and ${JSON.stringify(wrong)} with another`);
  say(`n8n's credential test passes with the key, and fails with another: ${wrong.message}`);
  const workflow = await rest('POST', '/workflows', {
    name: 'New lead gets a note',
    active: false,
    settings: { executionOrder: 'v1' },
    nodes: [
      { id: 'a1b2c3d4-0000-4000-8000-000000000001', name: 'New lead', type: types.trigger, typeVersion: 1, position: [0, 0], webhookId: 'a1b2c3d4-0000-4000-8000-0000000000aa', parameters: { events: ['lead.created'] }, credentials },
      {
        id: 'a1b2c3d4-0000-4000-8000-000000000002',
        name: 'Add a note',
        type: types.action,
        typeVersion: 1,
        position: [300, 0],
        parameters: { resource: 'leads', operation: 'createLeadActivity', leadId: '={{ $json.data.id }}', event: 'NOTE', data: NOTE },
        credentials,
      },
    ],
    connections: { 'New lead': { main: [[{ node: 'Add a note', type: 'main', index: 0 }]] } },
  });
  say(`workflow ${workflow.id} made; activating it (the trigger subscribes)`);
  const activated = await rest('POST', `/workflows/${workflow.id}/activate`, { versionId: workflow.versionId });
  if (!activated.activeVersionId) throw new Error(`n8n did not activate the workflow: ${JSON.stringify(activated).slice(0, 1000)}`);
  const subscription = await until('the trigger to subscribe', 30_000, async () => ((await call('GET', '/v1/webhooks?limit=100')).body.webhooks as { url: string; events: string[] }[]).find((webhook) => webhook.url.startsWith(n8nUrl)), n8nProcess.output);
  say(`subscribed ${subscription.url} to ${subscription.events.join(', ')}`);

  const made = await call('POST', '/v1/leads', { name: 'Erin Endtoend', email: `erin.${Date.now()}@example.com` });
  if (made.status !== 201) throw new Error(`creating the lead answered ${made.status}: ${JSON.stringify(made.body)}`);
  const leadId = made.body.lead.id as string;
  say(`lead ${leadId} created; waiting for the workflow's note`);
  await until(`the note on ${leadId}`, 120_000, async () => {
    const activities = (await call('GET', `/v1/leads/${leadId}/activities`)).body.activities as { event: string; data: unknown }[] | undefined;
    return activities?.some((activity) => activity.data === NOTE) ? true : undefined;
  }, n8nProcess.output);
  say('the note is on the lead');

  await rest('POST', `/workflows/${workflow.id}/deactivate`, {});
  await until('the trigger to unsubscribe', 30_000, async () => (((await call('GET', '/v1/webhooks?limit=100')).body.webhooks as { url: string }[]).some((webhook) => webhook.url.startsWith(n8nUrl)) ? undefined : true), n8nProcess.output);
  say(`deactivated: its subscription is gone. Passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  rmSync(userFolder, { recursive: true, force: true });
}

main()
  .then(async () => {
    await stopAll();
    process.exit(0);
  })
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    await stopAll();
    process.exit(1);
  });
