import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../functions/events/types';
import { shortLivedJvmEnv } from './support/jvm';
import { freePort } from './support/ports';

const exec = promisify(execFile);

/** The first shell block under a heading of the README, as a reader would paste it. */
function readmeShellBlock(heading: string): string {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf(heading));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error(`README has no shell block under ${heading}`);
  return block;
}
const readmeCurlSession = () => readmeShellBlock('## A session with curl');

/** The README's shell block that holds `text`. */
function readmeShellBlockWith(text: string): string {
  const block = [...readFileSync('README.md', 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map(([, lines]) => lines!).find((lines) => lines.includes(text));
  if (!block) throw new Error(`README has no shell block with ${text}`);
  return block;
}

interface Started {
  child: ChildProcess;
  port: number;
  dynamoPort: number;
  key: string;
  company: string;
  output: () => string;
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** `npm start` as a developer runs it, on free ports; resolves once it prints the demo key. */
async function npmStart(env: Record<string, string> = {}): Promise<Started> {
  const [port, dynamoPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
    env: { ...process.env, ...shortLivedJvmEnv(), PORT: String(port), DYNAMODB_PORT: String(dynamoPort), TABLE_NAME: 'readme', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const chunks: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const output = () => chunks.join('');
  const { key, company } = await new Promise<{ key: string; company: string }>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Demo API key:\s+(sp_live_\S+)\s+Demo company:\s+(company_\S+)/.exec(output());
      if (match) {
        clearInterval(timer);
        resolve({ key: match[1]!, company: match[2]! });
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`npm start exited: ${output()}`));
      }
    }, 100);
  });
  return { child, port, dynamoPort, key, company, output };
}

/** Ctrl-C, and the exit code. */
async function stop(child: ChildProcess): Promise<number | null> {
  child.kill('SIGINT');
  return new Promise((resolve) => child.once('exit', resolve));
}

describe('npm start and the README curl session', () => {
  it('starts DynamoDB Local, a demo organization and the API, the README session works, and Ctrl-C stops it all', async () => {
    const { child, port, dynamoPort, key, company, output } = await npmStart();
    expect(output()).toContain(`running at http://localhost:${port}`);

    const session = readmeCurlSession()
      .replace(/^KEY=.*$/m, `KEY=${key}`)
      .replace(/^COMPANY=.*$/m, `COMPANY=${company}`)
      .replace(/^API=.*$/m, `API=http://localhost:${port}`);
    const { stdout } = await exec('bash', ['-euo', 'pipefail', '-c', session]);
    // One answer per resource, in the README's order.
    const expected = [
      '"leads":[',
      '"event":"NOTE_ADDED"',
      '"event":"LEAD_CREATED"',
      '"firstName":"Jane"',
      '"phone":"+61412345678"',
      '"created":false',
      '"code":"DUPLICATE_CONTACT"',
      '"name":"Harbourside Strata Management"',
      '{"message":"SMS sent","sms":{',
      '"messages":[{',
      '"lead":{"id":"lead_',
      '"transcripts":[',
      '"notes":[{',
      '"categories":[{',
      '"businessHours":{"monday":[{"open":"07:00","close":"17:00"}]',
      '{"caller":{"lead":{"id":"lead_',
      '"scenario":{"id":',
      '"I can book a licensed gasfitter for you."',
      '"services":[',
      '"name":"Tap washer replacement"',
      '"price":135',
      '"product":{"id":',
      '"summary":{"total":2,"succeeded":1,"failed":1,"unknown":0}',
      '"label":"After-hours emergencies"',
      '"isEnabled":false',
      '"transfers":[{',
      '"success":true,"id":',
      '"policy":{"id":',
      '"policy":{"id":',
      '"faq":{"id":',
      '303 https://example.com/thanks?form=quote&inquiryId=inquiry_',
      '"summary":"Leaking tap; wants someone today."',
      '"attempt":{"id":"delivery_',
      '"deliveries":[{',
      '"delivery":{"id":"delivery_',
      '"success":true,"id":',
      '"success":true,"id":"lead_',
      '"updatedAt":"',
      '"message":"Invalid or expired token"',
      'limit must be at most 100',
      'suburb is not a query parameter of this operation',
      '"status":404',
    ];
    let from = 0;
    for (const text of expected) {
      const at = stdout.indexOf(text, from);
      expect(at, `README session output should contain ${text} after position ${from}:\n${stdout}`).toBeGreaterThanOrEqual(0);
      from = at;
    }

    // The missed-call text-back, with the session's variables (its lines before the first blank one).
    const variables = session.slice(0, session.indexOf('\n\n'));
    const { stdout: automation } = await exec('bash', ['-euo', 'pipefail', '-c', `${variables}\n${readmeShellBlock('## Automations')}`]);
    expect(automation).toContain('"direction":"OUTBOUND"');
    // The session's key is the demo organization's, which npm start names (infra/local/start.ts).
    expect(automation).toContain(`"body":"Sorry we missed your call, Priya. This is Harbour City Plumbing & Electrical: reply here and we'll call you back."`);
    expect(automation).toContain('"status":"COMPLETED"');

    // The SMS simulator's lines: a first text from a number no lead has is a lead with its SMS inquiry, then a lead's STOP.
    const { stdout: texts } = await exec('bash', ['-euo', 'pipefail', '-c', `${variables}\n${readmeShellBlockWith('/local/sms/inbound')}`]);
    expect(texts).toMatch(/"source":"SMS".*"isFirstInquiry":true.*"lead":\{"id":"lead_\w+","firstName":null,"lastName":null,"email":null,"phone":"\+61412555088"/);
    expect(texts.match(/\{"received":true\}/g)).toHaveLength(2);

    expect(await stop(child)).toBe(0);
    await expect(fetch(`http://127.0.0.1:${dynamoPort}`)).rejects.toThrow();
  });

  it('keeps data and the demo key across restarts with DATA_DIR', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sales-pipeline-data-'));
    try {
      const first = await npmStart({ DATA_DIR: dataDir });
      const created = await fetch(`http://localhost:${first.port}/v1/leads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${first.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Kept Between Runs', email: 'kept@example.com' }),
      });
      expect(created.status).toBe(201);
      expect(await stop(first.child)).toBe(0);

      const second = await npmStart({ DATA_DIR: dataDir });
      expect(second.key).toBe(first.key);
      const leads = await fetch(`http://localhost:${second.port}/v1/leads?limit=1`, { headers: { authorization: `Bearer ${second.key}` } });
      expect(((await leads.json()) as { leads: unknown[] }).leads[0]).toMatchObject({ firstName: 'Kept', lastName: 'Between Runs' });
      expect(await stop(second.child)).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('README: Events and webhooks', () => {
  // The section an integrator reads to choose what to subscribe to names the types whose actions are not a record's
  // create, update and delete, and says every other type is one of those: each named type exists, every type it does
  // not name is `<record>.created|updated|deleted`, and it points to the generated list.
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## Events and webhooks'), readme.indexOf('Each `*.updated` event'));
  const listed = new Set([...section.matchAll(/`([a-z_]+)\.([a-z_|]+)`/g)].flatMap(([, resource, actions]) => actions!.split('|').map((action) => `${resource}.${action}`)));

  it('names only event types a subscription can name', () => {
    expect([...listed].filter((type) => !(EVENT_TYPES as readonly string[]).includes(type))).toEqual([]);
  });

  it('names every event type that is not a created, updated or deleted, and points to the whole list', () => {
    expect(EVENT_TYPES.filter((type) => !listed.has(type) && !/\.(created|updated|deleted)$/.test(type))).toEqual([]);
    expect(section).toContain('`<record>.created|updated|deleted`');
    expect(section).toContain('[functions/events/types.ts](functions/events/types.ts)');
  });
});

describe('README: installing and starting', () => {
  it('decides on every dependency install script in package.json, so npm ci runs and warns about none', () => {
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const { allowScripts = {} } = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts?: Record<string, boolean> };
    const withScripts = new Set(Object.entries(lock.packages).flatMap(([path, entry]) => (entry.hasInstallScript ? [path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)] : [])));
    expect(withScripts.size).toBeGreaterThan(0);
    expect(Object.keys(allowScripts).sort()).toEqual([...withScripts].sort());
    // The project needs none of them: each is declined, as the README says.
    expect(Object.values(allowScripts).every((allowed) => allowed === false)).toBe(true);
    const readme = readFileSync('README.md', 'utf8');
    for (const name of withScripts) expect(readme).toContain(name);
  });

  it('says how long npm start takes, on a quiet machine and on a busy one', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).not.toMatch(/ready in a few seconds/);
    expect(readme).toMatch(/`npm start` prints the base URL and a demo API key once it is ready: about \d+ s on a two-core machine with little else\s+running, and \d+ to \d+ s on a busy one \(measured [\d.]+ s; [\d.]+ s beside/);
  });
});
