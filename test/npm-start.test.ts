import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portInUse } from '../infra/local/dynamodb-local';
import { patiently, StartUpTimeout } from '../infra/local/patience';
import { adminAt } from './support/admin-cli';
import { requestWithHost } from './support/host-header';
import { shortLivedJvmEnv } from './support/jvm';
import { freePort } from './support/ports';

const children: ChildProcess[] = [];
const servers: Server[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Something else listening on a port, as another program would. */
async function occupy(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, resolve));
  servers.push(server);
  return (server.address() as { port: number }).port;
}

/**
 * `npm start` with the given environment; `until` decides from its output when to stop watching. `slow` loads
 * test/support/slow-dynamodb.ts into it: its DynamoDB calls answer as on a machine at load ~20.
 */
function npmStart(env: Record<string, string>, until: (output: string) => boolean, { slow = false } = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...(slow ? ['--import', './test/support/slow-dynamodb.ts'] : []), 'infra/local/start.ts'], { env: { ...process.env, ...shortLivedJvmEnv(), TABLE_NAME: 'start', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const settled = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const timer = setInterval(() => {
      if (child.exitCode !== null || until(stdout + stderr)) {
        clearInterval(timer);
        resolve({ code: child.exitCode, stdout, stderr });
      }
    }, 100);
  });
  return { child, settled, output: () => stdout + stderr, exited: new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve))) };
}

const ready = (output: string) => output.includes('Press Ctrl-C to stop.');

describe('npm start with DATA_DIR, AUTHORIZER_CACHE_TTL and PUBLIC_BASE_URL set', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sales-pipeline-data-'));
  // How others reach this machine's API, say through a tunnel: no request of this test goes there.
  const TUNNEL = 'https://pipeline-tunnel.example';
  let started: ReturnType<typeof npmStart>;
  let port: number;
  let dynamoPort: number;
  let stdout: string;
  let demoKey: string;
  beforeAll(async () => {
    [port, dynamoPort] = [await freePort(), await freePort()];
    started = npmStart({ PORT: String(port), DYNAMODB_PORT: String(dynamoPort), DATA_DIR: relative(process.cwd(), dataDir), AUTHORIZER_CACHE_TTL: '8', PUBLIC_BASE_URL: TUNNEL }, ready);
    ({ stdout } = await started.settled);
    demoKey = /Demo API key:\s+(\S+)/.exec(stdout)![1]!;
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('reads a relative DATA_DIR from the current directory', () => {
    expect(stdout).toContain(`data in ${dataDir}`);
  });

  it('starts its DynamoDB Local with telemetry off, as no DDB_LOCAL_TELEMETRY is set: nothing leaves the machine', () => {
    expect(process.env.DDB_LOCAL_TELEMETRY, 'this test needs the variable unset').toBeUndefined();
    const commandLine = (pid: string): string[] => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      } catch {
        return []; // ended meanwhile
      }
    };
    // The Java process running DynamoDB Local on this npm start's port (a port one digit longer is another's).
    const jvm = readdirSync('/proc').filter((pid) => {
      const parts = commandLine(pid);
      return parts.some((part) => part.endsWith('DynamoDBLocal.jar')) && new RegExp(`(^| )-port ${dynamoPort}( |$)`).test(parts.join(' '));
    });
    expect(jvm).toHaveLength(1);
    const environment = readFileSync(`/proc/${jvm[0]}/environ`, 'utf8').split('\0');
    expect(environment).toContain('DDB_LOCAL_TELEMETRY=0');
  });

  it('reuses an API key’s authorization for AUTHORIZER_CACHE_TTL seconds, as API Gateway does deployed: a key revoked meanwhile works until then, and is refused after', async () => {
    expect(stdout).toContain('authorization is reused for 8 s');
    const organizationId = /Demo organization:\s+(\S+)/.exec(stdout)![1]!;
    const admin = async (...args: string[]) => {
      const { code, stdout: printed, stderr } = await adminAt({ dynamoPort: String(dynamoPort), tableName: 'start' }, ...args, '--org', organizationId);
      expect(code, stderr).toBe(0);
      return JSON.parse(printed);
    };
    const { keyId, apiKey } = await admin('key', 'create', '--name', 'cached');
    const leads = (key: string) => fetch(`http://localhost:${port}/v1/leads?limit=1`, { headers: { authorization: `Bearer ${key}` } }).then((response) => response.status);
    // The demo key first, so the authorizer is loaded and warm when the new key's answer is cached.
    expect(await leads(demoKey)).toBe(200);
    const askedAt = Date.now();
    expect(await leads(apiKey)).toBe(200);
    const cachedBy = Date.now();
    await admin('key', 'revoke', '--key', keyId);
    // Its answer, cached no earlier than askedAt, is reused within the 8 s, as API Gateway's cache would; a cache of
    // none would refuse it here.
    expect(await leads(apiKey)).toBe(200);
    expect(Date.now() - askedAt, 'still within the cache time when checked').toBeLessThan(8000);
    // And no later than cachedBy, so it has expired 8 s after that.
    await new Promise((resolve) => setTimeout(resolve, 8000 - (Date.now() - cachedBy) + 300));
    expect(await leads(apiKey)).toBe(401);
  });

  it('has seeded the demo organization’s SMS thread with the local carrier’s receipts applied', async () => {
    const { messages } = (await (await fetch(`http://localhost:${port}/v1/sms?limit=100`, { headers: { authorization: `Bearer ${demoKey}` } })).json()) as { messages: { direction: string; status: string }[] };
    // The demo's only outbound messages are its thread's two.
    expect(messages.filter((message) => message.direction === 'OUTBOUND').map((message) => message.status)).toEqual(['DELIVERED', 'DELIVERED']);
  });

  it('names PUBLIC_BASE_URL in what it answers, whatever Host is asked, and still sends a tool call to itself', async () => {
    const document = await requestWithHost(`http://localhost:${port}/openapi`, 'attacker.example');
    expect(document.body.servers[0].variables.base_url.default).toBe(TUNNEL);
    const answer = await requestWithHost(`http://localhost:${port}/mcp`, '169.254.169.254', {
      method: 'POST',
      headers: { authorization: `Bearer ${demoKey}` },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_leads', arguments: { limit: 1 } } },
    });
    expect(answer.body.result.isError ?? false, JSON.stringify(answer.body)).toBe(false);
    expect(answer.body.result.structuredContent.leads).toHaveLength(1);
  });

  it('prints the texts the local SMS provider sends: the owner of an organization made with the admin CLI reads their sign-in code there and signs in to the console', async () => {
    expect(stdout).toContain(`Owners' console: http://localhost:${port}/console`);
    const phone = '+61491570150';
    const { code, stderr } = await adminAt({ dynamoPort: String(dynamoPort), tableName: 'start' }, 'org', 'create', '--name', 'Printed Plumbing', '--owner-name', 'Ada Lovelace', '--owner-email', 'ada@printed.example.com', '--owner-phone', phone);
    expect(code, stderr).toBe(0);
    const post = (path: string, body: unknown) => fetch(`http://localhost:${port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/v1/sign-in/codes', { phone })).status).toBe(202);
    let texted: string | undefined;
    for (let waited = 0; !texted && waited < 50; waited++) {
      texted = new RegExp(`^SMS to \\${phone}: (\\d{6}) is your sign-in code`, 'm').exec(started.output())?.[1];
      if (!texted) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await post('/v1/sign-in/sessions', { phone, code: texted })).status).toBe(201);
  });

  it('stops on Ctrl-C', async () => {
    started.child.kill('SIGINT');
    expect(await started.exited).toBe(0);
  });
});

describe('npm start on a machine where things go wrong', () => {
  it('refuses a busy DYNAMODB_PORT in one line naming it, instead of writing into whatever answers there', async () => {
    const dynamoPort = await occupy();
    const { settled } = npmStart({ PORT: String(await freePort()), DYNAMODB_PORT: String(dynamoPort) }, () => false);
    const { code, stdout, stderr } = await settled;
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([`npm start: DYNAMODB_PORT ${dynamoPort} is already in use; stop what listens there or set DYNAMODB_PORT to a free port.`]);
  });

  it('refuses a busy PORT in one line naming it, and leaves no DynamoDB Local running', async () => {
    const [port, dynamoPort] = [await occupy(), await freePort()];
    const { settled } = npmStart({ PORT: String(port), DYNAMODB_PORT: String(dynamoPort) }, () => false);
    const { code, stderr } = await settled;
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([`npm start: PORT ${port} is already in use; stop what listens there or set PORT to a free port.`]);
    expect(await portInUse(dynamoPort)).toBe(false);
  });

  it.each([
    ['AUTHORIZER_CACHE_TTL', 'that is not whole seconds up to 3600', ['soon', '1.5', '3601'], (value: string) => `AUTHORIZER_CACHE_TTL must be whole seconds from 0 to 3600, as the stack's authorizerCacheTtl (got "${value}").`],
    ['VIEWER_EDGE', 'other than true or false', ['yes', 'TRUE', 'true '], (value: string) => `VIEWER_EDGE must be true or false (got "${value}").`],
  ] as const)('refuses a %s %s in one line naming it, before starting anything', async (variable, _, values, message) => {
    for (const value of values) {
      const dynamoPort = await freePort();
      const { settled } = npmStart({ PORT: String(await freePort()), DYNAMODB_PORT: String(dynamoPort), [variable]: value }, () => false);
      const { code, stderr } = await settled;
      expect(code, value).toBe(1);
      expect(stderr.trim().split('\n'), value).toEqual([`npm start: ${message(value)}`]);
      expect(await portInUse(dynamoPort), value).toBe(false);
    }
  });

  it('refuses a PUBLIC_BASE_URL that is no http(s) URL up to the stage in one line naming it, before starting anything', async () => {
    for (const value of ['api.example.com', 'ftp://api.example.com', 'https://api.example.com/prod?x=1']) {
      const dynamoPort = await freePort();
      const { settled } = npmStart({ PORT: String(await freePort()), DYNAMODB_PORT: String(dynamoPort), PUBLIC_BASE_URL: value }, () => false);
      const { code, stderr } = await settled;
      expect(code, value).toBe(1);
      expect(stderr.trim().split('\n'), value).toEqual([`npm start: PUBLIC_BASE_URL must be the API's http(s) URL up to its stage, with no query (got "${value}").`]);
      expect(await portInUse(dynamoPort), value).toBe(false);
    }
  });

  it('stops its DynamoDB Local when it fails after starting it', async () => {
    const dynamoPort = await freePort();
    // DynamoDB refuses a one-character table name, once its JVM is running.
    const { settled } = npmStart({ PORT: String(await freePort()), DYNAMODB_PORT: String(dynamoPort), TABLE_NAME: 'x' }, () => false);
    const { code, stderr } = await settled;
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/Table\/index names must be between 3 and 255 characters/);
    for (let waited = 0; (await portInUse(dynamoPort)) && waited < 5000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await portInUse(dynamoPort)).toBe(false);
  });

  it('gives up in one line and a non-zero exit when DynamoDB Local does not answer within START_TIMEOUT, and stops it', async () => {
    const dynamoPort = await freePort();
    // A JVM answers in seconds at best: one second is not enough.
    const { settled } = npmStart({ PORT: String(await freePort()), DYNAMODB_PORT: String(dynamoPort), START_TIMEOUT: '1' }, () => false);
    const { code, stdout, stderr } = await settled;
    expect(code).toBe(1);
    expect(stdout.trim().split('\n')).toEqual(['waiting for DynamoDB Local (JVM starting)…']);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^npm start: DynamoDB Local did not answer within 1 s of starting \(.+\); is the machine overloaded\? START_TIMEOUT gives it longer\.\n$/);
    for (let waited = 0; (await portInUse(dynamoPort)) && waited < 5000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await portInUse(dynamoPort)).toBe(false);
  });

  it('refuses a START_TIMEOUT that is not whole seconds in one line naming it, before starting anything', async () => {
    const dynamoPort = await freePort();
    const { settled } = npmStart({ PORT: String(await freePort()), DYNAMODB_PORT: String(dynamoPort), START_TIMEOUT: '0' }, () => false);
    const { code, stderr } = await settled;
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual(['npm start: START_TIMEOUT must be whole seconds from 1 to 9999 (got "0").']);
    expect(await portInUse(dynamoPort)).toBe(false);
  });
});

describe('npm start on a busy machine, every kind of DynamoDB call timing out at first', () => {
  let started: ReturnType<typeof npmStart>;
  let port: number;
  let dynamoPort: number;
  beforeAll(async () => {
    [port, dynamoPort] = [await freePort(), await freePort()];
    // The first four attempts of each kind of call (CreateTable, PutItem, …) time out: more than the SDK's own retries.
    started = npmStart({ PORT: String(port), DYNAMODB_PORT: String(dynamoPort), SLOW_DYNAMODB_TIMEOUTS: '4' }, ready, { slow: true });
    await started.settled;
  });

  it('waits them out, saying what it waits for, and comes up with its demo organization', async () => {
    const output = started.output();
    expect(output, output).toContain('Press Ctrl-C to stop.');
    const lines = output.split('\n');
    expect(lines[0]).toBe('waiting for DynamoDB Local (JVM starting)…');
    for (const doing of ['creating table start', 'seeding the demo organization', 'starting the stream reader']) {
      expect(lines.some((line) => line.startsWith(`waiting for DynamoDB Local (${doing}: TimeoutError`) && line.endsWith('s)…'))).toBe(true);
    }
    expect(output).not.toMatch(/^\s+at /m);
    const demoKey = /Demo API key:\s+(\S+)/.exec(output)![1]!;
    const { leads } = (await (await fetch(`http://localhost:${port}/v1/leads?limit=100`, { headers: { authorization: `Bearer ${demoKey}` } })).json()) as { leads: unknown[] };
    // The demo's nine leads, each once: a write retried is that write again.
    expect(leads).toHaveLength(9);
  });

  it('says so and exits non-zero when DynamoDB Local dies, instead of serving errors', async () => {
    const { exited, output } = started;
    // The Java process is the one listening on DYNAMODB_PORT; find it by its command line and kill it.
    const { execSync } = await import('node:child_process');
    execSync(`pkill -KILL -f "[-]port ${dynamoPort}( |$)"`);
    expect(await exited).toBe(1);
    expect(output()).toMatch(/npm start: DynamoDB Local stopped unexpectedly \(exit code \S+\); the API cannot serve without it\./);
  });
});

describe('start-up’s patience with a DynamoDB Local that answers slowly', () => {
  const timeout = () => Object.assign(new Error('Request timed out'), { name: 'TimeoutError' });
  const lines: string[] = [];
  const slept: number[] = [];
  const patience = (seconds: number) => ({ deadline: Date.now() + seconds * 1000, seconds, say: (line: string) => lines.push(line), sleep: async (ms: number) => void slept.push(ms) });

  it('retries a timeout with backoff, saying so each time, until it answers', async () => {
    lines.length = slept.length = 0;
    let attempts = 0;
    const answer = await patiently('creating table start', async () => (++attempts < 4 ? Promise.reject(timeout()) : 'created'), patience(60));
    expect(answer).toBe('created');
    expect(slept).toEqual([250, 500, 1000]);
    expect(lines).toEqual([0.3, 0.5, 1.0].map((seconds) => `waiting for DynamoDB Local (creating table start: TimeoutError: Request timed out; retrying in ${seconds.toFixed(1)} s)…`));
  });

  it('gives up at its deadline with the one line to show, and throws any other error at once', async () => {
    lines.length = 0;
    const never = patiently('seeding the demo organization', async () => Promise.reject(timeout()), { ...patience(2), sleep: () => new Promise((resolve) => setTimeout(resolve, 0)) });
    await expect(never).rejects.toThrow(StartUpTimeout);
    await expect(never).rejects.toThrow('DynamoDB Local did not answer within 2 s (seeding the demo organization: TimeoutError: Request timed out); is the machine overloaded? START_TIMEOUT gives it longer.');
    let attempts = 0;
    const refused = Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException', $metadata: { httpStatusCode: 400 } });
    await expect(patiently('seeding the demo organization', async () => Promise.reject((attempts++, refused)), patience(60))).rejects.toBe(refused);
    expect(attempts).toBe(1);
  });
});
