import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../infra/cdk/app';
import { apiTemplates, dockerHostEndpoint, samEnvVars, samLocalProblems, writeSamEnv } from '../infra/local/sam-env';
import { LOCAL_SERVICE_ENV } from '../infra/local/dynamodb-local';
import { routes } from '../functions/resources';
import { sendSms } from '../functions/sms/routes';
import { routeId } from '#shared/routes/route';

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

// `npx cdk synth -c samLocal=true -c architecture=x86_64`, written to a cloud assembly as the CLI writes cdk.out.
const outdir = mkdtempSync(join(tmpdir(), 'sam-local-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
const local = buildApp(new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], samLocal: 'true', architecture: 'x86_64' } }));
local.app.synth();
const resources = Template.fromStack(local.api).toJSON().Resources as Resources;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

describe('the API stack synthesized for sam local (-c samLocal=true)', () => {
  it('holds every function in its one template, x86_64 with -c architecture=x86_64', () => {
    expect(local.api.functionStacks.size).toBe(0);
    expect(ofType('AWS::CloudFormation::Stack')).toEqual([]);
    const functions = ofType('AWS::Lambda::Function');
    expect(functions).toHaveLength(routes.filter((route) => !route.aliasOf).length + 2);
    for (const [id, fn] of functions) expect(fn.Properties.Architectures, id).toEqual(['x86_64']);
  });

  it('names in each method’s and authorizer’s integration an alias of this template, whose function SAM CLI can find: no nested stack output', () => {
    const aliasIn = (uri: unknown) => {
      const refs = [...new Set([...JSON.stringify(uri).matchAll(/"Ref":"([^"]+)"/g)].map(([, id]) => id!))].filter((id) => resources[id]?.Type === 'AWS::Lambda::Alias');
      expect(JSON.stringify(uri)).not.toContain('Outputs.');
      expect(refs).toHaveLength(1);
      expect(resources[resources[refs[0]!]!.Properties.FunctionName.Ref]?.Type).toBe('AWS::Lambda::Function');
      return refs[0]!;
    };
    const methods = ofType('AWS::ApiGateway::Method');
    expect(methods).toHaveLength(routes.length + routes.filter((route) => route.preflight).length);
    for (const [id, method] of methods) expect(aliasIn(method.Properties.Integration.Uri), id).toMatch(/Live[0-9A-F]{8}$/);
    const authorizers = ofType('AWS::ApiGateway::Authorizer');
    expect(authorizers).toHaveLength(2);
    for (const [, authorizer] of authorizers) aliasIn(authorizer.Properties.AuthorizerUri);
  });

  it('leaves out the 405 mocks on ANY, which sam local cannot run and would take for the path’s own methods', () => {
    expect(ofType('AWS::ApiGateway::Method').filter(([, method]) => method.Properties.HttpMethod === 'ANY')).toEqual([]);
  });
});

describe('npm run sam:env', () => {
  const templates = apiTemplates(outdir);
  const vars = samEnvVars(templates, { dynamoEndpoint: dockerHostEndpoint(8123), tableName: 'pipeline-local' });

  it('has an entry for every function, by its logical id, setting the variables it declares to npm start’s DynamoDB Local and table', () => {
    const functions = ofType('AWS::Lambda::Function');
    expect(Object.keys(vars).sort()).toEqual(functions.map(([id]) => id).sort());
    for (const [id, fn] of functions) {
      const declared = fn.Properties.Environment.Variables as Record<string, unknown>;
      expect(vars[id], id).toMatchObject({ AWS_ENDPOINT_URL_DYNAMODB: 'http://host.docker.internal:8123', TABLE_NAME: 'pipeline-local' });
      for (const name of Object.keys(vars[id]!)) expect(declared, `${id} declares ${name}`).toHaveProperty(name);
      if ('CURSOR_SECRET' in declared) expect(vars[id]!.CURSOR_SECRET).toBe(LOCAL_SERVICE_ENV.CURSOR_SECRET);
      // npm start's key seals and opens secrets: no function asks KMS for the deployed key's alias.
      expect(declared, id).not.toHaveProperty('SECRETS_KEY_ALIAS_ARN');
      if ('SECRETS_LOCAL_KEY' in declared) expect(vars[id]!.SECRETS_LOCAL_KEY).toBe(LOCAL_SERVICE_ENV.SECRETS_LOCAL_KEY);
    }
    expect(functions.filter(([, fn]) => 'SECRETS_LOCAL_KEY' in fn.Properties.Environment.Variables).length).toBeGreaterThan(0);
    // The SMS-sending function uses the local provider: nothing leaves for a real phone.
    const [smsFunction] = functions.find(([id]) => id.startsWith(`${routeId(sendSms)}Function`))!;
    expect(vars[smsFunction]!.SMS_PROVIDER).toBe('local');
    // The MCP server's tool calls go to sam local itself, never to the stage's URL the template builds.
    const [mcpFunction] = functions.find(([id]) => id.startsWith('PostMcpFunction'))!;
    expect(vars[mcpFunction]!.PUBLIC_BASE_URL).toBe('http://host.docker.internal:3001');
  });

  it('says what stops sam local: functions in nested stacks, or arm64 functions on an x86 machine', () => {
    expect(samLocalProblems(templates, 'x64')).toEqual([]);
    const deployed = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none' } }));
    const nested = [Template.fromStack(deployed.api).toJSON(), ...[...deployed.api.functionStacks.values()].map((stack) => Template.fromStack(stack).toJSON())];
    const problems = samLocalProblems(nested, 'x64');
    expect(problems).toEqual([expect.stringContaining('-c samLocal=true'), expect.stringContaining('-c architecture=x86_64')]);
    expect(samLocalProblems(nested, 'arm64')).toEqual([expect.stringContaining('-c samLocal=true')]);
  });

  it('writes the file for a running npm start, and refuses when no table of that name answers on its DynamoDB Local', async () => {
    const dynamoPort = Number(new URL(process.env.AWS_ENDPOINT_URL_DYNAMODB!).port);
    const file = join(outdir, 'sam-env.json');
    const written = await writeSamEnv({ cdkOut: outdir, file, dynamoPort, tableName: process.env.TABLE_NAME! });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(written);
    expect(Object.values(written).every((entry) => entry.AWS_ENDPOINT_URL_DYNAMODB === `http://host.docker.internal:${dynamoPort}` && entry.TABLE_NAME === process.env.TABLE_NAME)).toBe(true);
    await expect(writeSamEnv({ cdkOut: outdir, file, dynamoPort, tableName: 'no-such-table' })).rejects.toThrow(/No table no-such-table answers on DynamoDB Local at port \d+.*start npm start first/);
  });
});
