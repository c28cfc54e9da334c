import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runAdmin } from '../../infra/admin/admin';

const exec = promisify(execFile);

/** Where the admin CLI works in its local mode: a DynamoDB Local's port and a table in it. */
export interface LocalTable {
  dynamoPort: string;
  tableName: string;
}

/** Runs the admin CLI against a table of a DynamoDB Local, as `npm run admin` does against npm start's. */
export async function adminAt({ dynamoPort, tableName }: LocalTable, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { AWS_ENDPOINT_URL_DYNAMODB: _, ...inherited } = process.env;
  const env = { ...inherited, DYNAMODB_PORT: dynamoPort, TABLE_NAME: tableName };
  return exec(process.execPath, ['--import', 'tsx', 'infra/admin/cli.ts', ...args], { env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

/**
 * Runs the admin CLI's command against this test file's table, in this process (the CLI's own code, without a process
 * and a module graph started for each command): the file's environment already points the shared code at it.
 * `adminAt` runs the script itself, as `npm run admin` does.
 */
export async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runAdmin(args, {
    configure: ({ TABLE_NAME }) => {
      if (TABLE_NAME !== process.env.TABLE_NAME) throw new Error(`The admin CLI in process works on this file's table, not ${TABLE_NAME}: use adminAt`);
    },
  });
}
