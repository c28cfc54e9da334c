import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

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

/** Runs the admin CLI against this test file's table in the test DynamoDB Local. */
export async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return adminAt({ dynamoPort: new URL(process.env.AWS_ENDPOINT_URL_DYNAMODB!).port, tableName: process.env.TABLE_NAME! }, ...args);
}
