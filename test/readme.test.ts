import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The shell block under "## A session with curl" in the README, as a reader would paste it. */
function readmeCurlSession(): string {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## A session with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README has no curl session');
  return block;
}

describe('npm start and the README curl session', () => {
  const output: string[] = [];
  let child: ReturnType<typeof spawn> | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
  });

  it('starts DynamoDB Local, a demo organization and the API, the README session works, and Ctrl-C stops it all', async () => {
    const [port, dynamoPort] = [await freePort(), await freePort()];
    child = spawn('node_modules/.bin/tsx', ['infra/local/start.ts'], {
      env: { ...process.env, PORT: String(port), DYNAMODB_PORT: String(dynamoPort), TABLE_NAME: 'readme' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const { key, company } = await new Promise<{ key: string; company: string }>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /Demo API key:\s+(sp_live_\S+)\s+Demo company:\s+(company_\S+)/.exec(output.join(''));
        if (match) {
          clearInterval(timer);
          resolve({ key: match[1]!, company: match[2]! });
        } else if (child!.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`npm start exited: ${output.join('')}`));
        }
      }, 100);
    });
    expect(output.join('')).toContain(`running at http://localhost:${port}`);

    const session = readmeCurlSession()
      .replace(/^KEY=.*$/m, `KEY=${key}`)
      .replace(/^COMPANY=.*$/m, `COMPANY=${company}`)
      .replace(/^API=.*$/m, `API=http://localhost:${port}`);
    const { stdout } = await exec('bash', ['-euo', 'pipefail', '-c', session]);
    // One answer per resource, in the README's order.
    const expected = [
      '"leads":[',
      '"event":"LEAD_CREATED"',
      '{"message":"SMS sent"}',
      '"lead":{"id":"lead_',
      '"transcripts":[',
      '"notes":[{',
      '"categories":[{',
      '"scenario":{"id":',
      '"tradeServiceId":',
      '"name":"Tap washer replacement"',
      '"price":135',
      '"summary":{"total":2,"succeeded":1,"failed":1}',
      '"label":"After-hours emergencies"',
      '"isEnabled":false',
      '"policy":{"id":',
      '"faq":{"id":',
      '"success":true,"id":"lead_',
      '"message":"Invalid or expired token"',
      'limit must be at most 100',
      '"status":404',
    ];
    let from = 0;
    for (const text of expected) {
      const at = stdout.indexOf(text, from);
      expect(at, `README session output should contain ${text} after position ${from}:\n${stdout}`).toBeGreaterThanOrEqual(0);
      from = at;
    }

    child.kill('SIGINT');
    const code = await new Promise((resolve) => child!.once('exit', resolve));
    expect(code).toBe(0);
    await expect(fetch(`http://127.0.0.1:${dynamoPort}`)).rejects.toThrow();
  }, 120_000);
});
