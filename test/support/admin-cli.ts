import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Runs the admin CLI against this test file's table in the test DynamoDB Local, as `npm run admin` does against npm start's. */
export async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const port = new URL(process.env.AWS_ENDPOINT_URL_DYNAMODB!).port;
  const { AWS_ENDPOINT_URL_DYNAMODB: _, ...inherited } = process.env;
  const env = { ...inherited, DYNAMODB_PORT: port, TABLE_NAME: process.env.TABLE_NAME! };
  return exec(process.execPath, ['--import', 'tsx', 'infra/admin/cli.ts', ...args], { env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}
