import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { arch } from 'node:process';
import { join, resolve } from 'node:path';
import { BASE_URL_VARIABLE } from '#shared/http/base-url';
import { LOCAL_SERVICE_ENV, localClient } from './dynamodb-local';

/**
 * `npm run sam:env`: the `--env-vars` file for `sam local start-api` on the API stack's template, pointing every
 * function at the DynamoDB Local and table of a running `npm start`. SAM CLI overrides only the variables a function
 * declares, and takes a function's own entry by its logical id, so the file has one entry per function of the
 * synthesized template. DYNAMODB_PORT and TABLE_NAME are read as `npm start` reads them.
 */

type Template = { Resources?: Record<string, { Type: string; Properties?: Record<string, any>; Metadata?: Record<string, string> }> };

export interface SamEnvSettings {
  /** DynamoDB Local as the Lambda containers reach it. */
  dynamoEndpoint: string;
  tableName: string;
}

/** Docker's name for the machine it runs on (Linux needs `--add-host host.docker.internal:host-gateway`). */
export const dockerHostEndpoint = (port: number) => `http://host.docker.internal:${port}`;

/** `sam local start-api --port`, as the README runs it beside `npm start`'s 3000. */
export const SAM_LOCAL_PORT = 3001;

/**
 * Each function's overrides, by logical id, for the variables it declares: the local table and endpoint, the cursor
 * key `npm start` signs with (so cursors work across both), the local key its secrets are sealed with, the local SMS provider (no message leaves), and the
 * API's base URL as sam local serves it.
 */
export function samEnvVars(templates: Template[], { dynamoEndpoint, tableName }: SamEnvSettings): Record<string, Record<string, string>> {
  const values: Record<string, string> = {
    AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
    TABLE_NAME: tableName,
    CURSOR_SECRET: LOCAL_SERVICE_ENV.CURSOR_SECRET,
    SECRETS_LOCAL_KEY: LOCAL_SERVICE_ENV.SECRETS_LOCAL_KEY,
    SMS_PROVIDER: 'local',
    // The API as a container reaches it: the MCP server's tool calls go there, and inbound URLs name it.
    [BASE_URL_VARIABLE]: dockerHostEndpoint(SAM_LOCAL_PORT),
  };
  const entries: [string, Record<string, string>][] = [];
  for (const template of templates) {
    for (const [logicalId, resource] of Object.entries(template.Resources ?? {})) {
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      const declared = Object.keys(resource.Properties?.Environment?.Variables ?? {});
      entries.push([logicalId, Object.fromEntries(declared.filter((name) => name in values).map((name) => [name, values[name]!]))]);
    }
  }
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

/** The API stack's template in a cloud assembly, and any nested templates it names. */
export function apiTemplates(cdkOut: string, stack = 'SalesPipelineApi'): Template[] {
  const path = join(cdkOut, `${stack}.template.json`);
  if (!existsSync(path)) throw new Error(`${path} does not exist: synthesize first (npx cdk synth -c samLocal=true)`);
  const parent = JSON.parse(readFileSync(path, 'utf8')) as Template;
  const nested = Object.values(parent.Resources ?? {})
    .filter((resource) => resource.Type === 'AWS::CloudFormation::Stack' && resource.Metadata?.['aws:asset:path'])
    .map((resource) => JSON.parse(readFileSync(join(cdkOut, resource.Metadata!['aws:asset:path']!), 'utf8')) as Template);
  return [parent, ...nested];
}

/** What stops `sam local start-api` on these templates here, in one line each. */
export function samLocalProblems(templates: Template[], machine: string = arch): string[] {
  const [parent] = templates;
  const problems: string[] = [];
  if (Object.values(parent?.Resources ?? {}).some((resource) => resource.Type === 'AWS::CloudFormation::Stack')) {
    problems.push('The API stack has its functions in nested stacks, whose outputs sam local cannot follow to a route’s function: synthesize with -c samLocal=true.');
  }
  const architectures = new Set(templates.flatMap((template) => Object.values(template.Resources ?? {}).filter((resource) => resource.Type === 'AWS::Lambda::Function').flatMap((resource) => resource.Properties?.Architectures ?? ['x86_64'])));
  // Docker runs an arm64 image on an x86 machine only under an emulator most machines lack.
  if (machine === 'x64' && architectures.has('arm64')) problems.push('The functions are arm64 and this machine is x86: synthesize with -c architecture=x86_64.');
  return problems;
}

/** Writes the file and answers what it wrote; refuses when no `npm start` table answers or the templates cannot run. */
export async function writeSamEnv({ cdkOut, file, dynamoPort, tableName }: { cdkOut: string; file: string; dynamoPort: number; tableName: string }): Promise<Record<string, Record<string, string>>> {
  const client = localClient(`http://127.0.0.1:${dynamoPort}`);
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    throw new Error(`No table ${tableName} answers on DynamoDB Local at port ${dynamoPort} (${(error as Error).name}): start npm start first, with the same DYNAMODB_PORT and TABLE_NAME.`);
  } finally {
    client.destroy();
  }
  const templates = apiTemplates(cdkOut);
  const problems = samLocalProblems(templates);
  if (problems.length) throw new Error(problems.join('\n'));
  const vars = samEnvVars(templates, { dynamoEndpoint: dockerHostEndpoint(dynamoPort), tableName });
  writeFileSync(file, `${JSON.stringify(vars, null, 2)}\n`);
  return vars;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  // The file is written where the command was typed; cdk.out is the project's (npm runs scripts from its root).
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? 'sam-env.json');
  writeSamEnv({ cdkOut: resolve('cdk.out'), file, dynamoPort: Number(process.env.DYNAMODB_PORT ?? 8000), tableName: process.env.TABLE_NAME ?? 'sales-pipeline' })
    .then((vars) => console.log(`Wrote ${file}: ${Object.keys(vars).length} functions pointed at DynamoDB Local on port ${process.env.DYNAMODB_PORT ?? 8000}, table ${process.env.TABLE_NAME ?? 'sales-pipeline'}.`))
    .catch((error: unknown) => {
      process.stderr.write(`npm run sam:env: ${(error as Error).message}\n`);
      process.exit(1);
    });
}
