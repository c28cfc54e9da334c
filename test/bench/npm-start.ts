import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface NpmStart {
  url: string;
  apiKey: string;
  organizationId: string;
  endpoint: string;
  tableName: string;
  startSeconds: number;
  stop: () => Promise<void>;
  newOrganization: (name: string) => Promise<{ organizationId: string; apiKey: string }>;
}

/**
 * `npm start` in a child process on free ports, as a developer runs it (its own DynamoDB Local, the demo organization,
 * the stream consumer and the workers), read from what it prints: its URL and its DynamoDB Local's endpoint and table;
 * and an organization of the bench's own in it.
 */
export async function npmStartInItsOwnProcess(): Promise<NpmStart> {
  const { freePort } = await import('../support/ports');
  const tableName = 'bench-npm-start';
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
    env: { ...process.env, PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()), TABLE_NAME: tableName, AWS_ENDPOINT_URL_DYNAMODB: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const printed = await new Promise<Record<string, string>>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}`)));
    const found: Record<string, string> = {};
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /^\s*(Sales Pipeline API running at|DynamoDB Local:|Demo organization:|Demo API key:)\s+(\S+?),?(?:\s|$)/.exec(line);
      if (match) found[match[1]!] = match[2]!;
      if (Object.keys(found).length === 4) {
        lines.removeAllListeners('line');
        // Its request log lines are read and dropped, so the pipe never fills.
        child.stdout!.resume();
        resolve(found);
      }
    });
  });
  // However this process ends, `npm start` and its DynamoDB Local end with it.
  process.once('exit', () => child.kill('SIGTERM'));
  const stop = () => new Promise<void>((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  // Until it printed its URL and key: its DynamoDB Local up, the table made, the demo seeded, the server listening.
  const startSeconds = (performance.now() - spawnedAt) / 1000;
  // The demo organization is on the standard plan (50 requests a second), which a run at 16 clients passes; the bench's
  // own is on the internal plan, as an operator's load test would be, made with the admin CLI as a developer would.
  const endpoint = printed['DynamoDB Local:']!;
  const { adminAt } = await import('../support/admin-cli');
  const newOrganization = async (name: string) => {
    const created = await adminAt({ dynamoPort: new URL(endpoint).port, tableName }, 'org', 'create', '--name', name, '--plan', 'internal');
    if (created.code !== 0) throw new Error(`admin org create exited ${created.code}: ${created.stderr}`);
    return JSON.parse(created.stdout) as { organizationId: string; apiKey: string };
  };
  const { organizationId, apiKey } = await newOrganization('Bench served');
  return { url: printed['Sales Pipeline API running at']!, endpoint, organizationId, apiKey, tableName, startSeconds, stop, newOrganization };
}
