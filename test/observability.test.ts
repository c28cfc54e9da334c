import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';

// Metrics are off in the tests (POWERTOOLS_DEV); this file turns them on before the handler factory loads.
process.env.POWERTOOLS_METRICS_DISABLED = 'false';
// As the stack sets it on every route's function: the handlers here run as in Lambda, with no local server.
process.env.PUBLIC_BASE_URL = 'https://api.example.com';
const { apiHandler } = await import('#shared/http/api-handler');
const { defineRoute } = await import('#shared/routes/route');
const { NotFoundError } = await import('#shared/errors');
const { dynamo } = await import('#shared/dynamo');

const route = defineRoute({
  operationId: 'getProbe',
  method: 'GET',
  path: '/v1/probes/{id}',
  summary: 'A route for testing the metrics',
  description: 'Answers one probe.',
  tag: 'Reference',
  dynamodb: [],
  status: 200,
  request: { path: v.object({ id: v.string() }) },
  response: v.object({ ok: v.boolean() }),
  errors: [404],
});

const event = (id: string) =>
  ({ httpMethod: 'GET', path: `/v1/probes/${id}`, headers: {}, pathParameters: { id }, queryStringParameters: null, body: null, requestContext: { requestId: `req-${id}`, authorizer: { organizationId: 'org_7', keyId: 'key_9' } } }) as never;
const context = { awsRequestId: 'lambda-1', functionName: 'getProbe-fn' } as never;

/** Every line written to the console while `run` ran. */
async function written(run: () => Promise<unknown>) {
  const lines: { method: string; line: string }[] = [];
  const spies = (['log', 'info', 'warn', 'error'] as const).map((method) => vi.spyOn(console, method).mockImplementation((...args) => void lines.push({ method, line: args.map(String).join(' ') })));
  await run().finally(() => spies.forEach((spy) => spy.mockRestore()));
  return lines;
}

/** Every EMF document written while `run` ran (each has an _aws.CloudWatchMetrics block). */
async function emfDocuments(run: () => Promise<unknown>) {
  return (await written(run)).map(({ line }) => JSON.parse(line) as Record<string, any>).filter((document) => document._aws?.CloudWatchMetrics);
}

describe('metrics in the Embedded Metric Format', () => {
  const handler = apiHandler(route, async ({ path }) => {
    if (path.id === 'missing') throw new NotFoundError('Probe not found');
    if (path.id === 'broken') throw new TypeError('Cannot read properties of undefined');
    return { ok: true };
  });

  it('emits requests and latency per operation, with the organization as metadata rather than a dimension', async () => {
    const documents = await emfDocuments(() => handler(event('one'), context));
    const request = documents.find((document) => 'Requests' in document)!;
    expect(request._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'SalesPipeline', Dimensions: [expect.arrayContaining(['service', 'operation'])] });
    expect(request._aws.CloudWatchMetrics[0].Metrics).toEqual(expect.arrayContaining([{ Name: 'Requests', Unit: 'Count' }, { Name: 'Latency', Unit: 'Milliseconds' }]));
    expect(request).toMatchObject({ operation: 'getProbe', service: 'sales-pipeline', Requests: 1, organizationId: 'org_7' });
    expect(request._aws.CloudWatchMetrics[0].Dimensions.flat()).not.toContain('organizationId');
  });

  it('counts an error answer by its code', async () => {
    const documents = await emfDocuments(() => handler(event('missing'), context));
    const error = documents.find((document) => 'Errors' in document)!;
    expect(error).toMatchObject({ operation: 'getProbe', errorCode: 'NOT_FOUND', Errors: 1 });
    expect(error._aws.CloudWatchMetrics[0].Dimensions[0]).toEqual(expect.arrayContaining(['operation', 'errorCode']));
    // A 4xx is the caller's: no server error, which would roll a canary back.
    expect(documents.filter((document) => 'ServerErrors' in document)).toEqual([]);
  });

  it('counts a 500 answer as a server error of the operation and of the Lambda version that answered, though the invocation succeeds', async () => {
    const invokedAs = (version: string) => ({ awsRequestId: `lambda-${version}`, functionName: 'getProbe-fn', functionVersion: version }) as never;
    const answers: { statusCode: number }[] = [];
    const documents = await emfDocuments(async () => {
      answers.push(await handler(event('broken'), invokedAs('12')));
      answers.push(await handler(event('one'), invokedAs('12')));
      answers.push(await handler(event('broken'), invokedAs('13')));
    });
    // Answered, not thrown: Lambda's own Errors never see these.
    expect(answers.map((answer) => answer.statusCode)).toEqual([500, 200, 500]);
    const failed = documents.filter((document) => 'ServerErrors' in document);
    expect(failed.map((document) => [document.operation, document.version, document.ServerErrors])).toEqual([
      ['getProbe', '12', 1],
      ['getProbe', '13', 1],
    ]);
    for (const document of failed) {
      expect(document._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'SalesPipeline', Dimensions: [['service', 'operation', 'version']], Metrics: [{ Name: 'ServerErrors', Unit: 'Count' }] });
    }
    // The version is on this count only: requests and latency stay one series per operation.
    const requests = documents.filter((document) => 'Requests' in document);
    expect(requests).toHaveLength(3);
    for (const document of requests) expect(document._aws.CloudWatchMetrics[0].Dimensions.flat()).not.toContain('version');
  });
});

describe('the authorizers’ failures', () => {
  const invokedAs = { awsRequestId: 'lambda-auth', functionName: 'authorizer-fn', functionVersion: '7' } as never;
  const methodArn = 'arn:aws:execute-api:ap-southeast-2:123456789012:abc123/prod/POST/v1/inbound/x';
  /** DynamoDB failing every call while `run` runs, as an outage would. */
  async function duringOutage<T>(run: () => Promise<T>): Promise<T> {
    const name = 'tableUnavailable';
    dynamo.middlewareStack.add(
      () => async () => {
        throw Object.assign(new Error('Internal server error'), { name: 'InternalServerError', $fault: 'server' });
      },
      { step: 'initialize', name },
    );
    return run().finally(() => dynamo.middlewareStack.remove(name));
  }
  const failuresIn = (documents: Record<string, any>[]) => documents.filter((document) => 'AuthorizerFailures' in document);
  const quietly = <T>(run: () => Promise<T>) => {
    // The authorizers log their store's failures at ERROR: expected here.
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    return run().finally(() => spy.mockRestore());
  };

  it('count each refused API key and unknown inbound endpoint as a refusal, of the version that ran, and never as a failure', async () => {
    const { handler: apiKey } = await import('../functions/authorizer');
    const { handler: inbound } = await import('../functions/inbound-endpoints/authorizer');
    const documents = await emfDocuments(async () => {
      await expect(apiKey({ headers: { Authorization: 'Bearer sp_live_0000000000000000000000000000' }, methodArn } as never, invokedAs)).rejects.toThrow(/^Unauthorized$/);
      await expect(apiKey({ headers: {}, methodArn } as never, invokedAs)).rejects.toThrow(/^Unauthorized$/);
      await expect(inbound({ pathParameters: { inboundEndpointId: 'inbound_01HZZZZZZZZZZZZZZZZZZZZZZZ' }, methodArn } as never, invokedAs)).rejects.toThrow(/^Unauthorized$/);
      await expect(inbound({ pathParameters: { inboundEndpointId: 'not-an-id' }, methodArn } as never, invokedAs)).rejects.toThrow(/^Unauthorized$/);
    });
    expect(failuresIn(documents)).toEqual([]);
    // Lambda counts each of these as an error: its errors less these refusals are the version's failures.
    const refusals = documents.filter((document) => 'AuthorizerRefusals' in document);
    expect(refusals.map((document) => [document.authorizer, document.version, document.AuthorizerRefusals])).toEqual([
      ['apiKey', '7', 1],
      ['apiKey', '7', 1],
      ['inboundEndpoint', '7', 1],
      ['inboundEndpoint', '7', 1],
    ]);
  });

  it('count no refusal for a key it lets through', async () => {
    const { handler: apiKey } = await import('../functions/authorizer');
    const { createOrganizationWithKey } = await import('../infra/demo/organization');
    const { apiKey: token } = await createOrganizationWithKey('Refusals Plumbing');
    const documents = await emfDocuments(async () => {
      await expect(apiKey({ headers: { Authorization: `Bearer ${token}` }, methodArn } as never, invokedAs)).resolves.toMatchObject({ principalId: expect.any(String) });
    });
    expect(documents.filter((document) => 'AuthorizerRefusals' in document || 'AuthorizerFailures' in document)).toEqual([]);
  });

  it('count one failure, of the authorizer and the version that ran, when DynamoDB fails', async () => {
    const { handler: apiKey } = await import('../functions/authorizer');
    const { handler: inbound } = await import('../functions/inbound-endpoints/authorizer');
    const documents = await emfDocuments(() =>
      quietly(() =>
        duringOutage(async () => {
          await expect(apiKey({ headers: { Authorization: 'Bearer sp_live_0000000000000000000000000000' }, methodArn } as never, invokedAs)).rejects.toThrow('The API key store could not be read');
          // Another id than the refusals' above: the container remembers an id it found missing, and refuses it unread.
          await expect(inbound({ pathParameters: { inboundEndpointId: 'inbound_01HYYYYYYYYYYYYYYYYYYYYYYY' }, methodArn } as never, invokedAs)).rejects.toThrow('The inbound endpoint store could not be read');
        }),
      ),
    );
    const failures = failuresIn(documents);
    expect(failures.map((document) => [document.authorizer, document.version, document.AuthorizerFailures])).toEqual([
      ['apiKey', '7', 1],
      ['inboundEndpoint', '7', 1],
    ]);
    for (const document of failures) expect(document._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'SalesPipeline', Dimensions: [['service', 'authorizer', 'version']] });
  });
});

describe('an /mcp body that is no JSON-RPC message', () => {
  it('counts its 400 by its JSON-RPC error code, a dimension Powertools keeps, with no warning', async () => {
    const { postMcpHandler } = await import('../functions/mcp/handlers');
    const mcpEvent = (body: string) =>
      ({ httpMethod: 'POST', path: '/mcp', headers: { 'content-type': 'application/json' }, pathParameters: null, queryStringParameters: null, body, requestContext: { requestId: 'req-mcp', authorizer: { organizationId: 'org_7', keyId: 'key_9', scope: 'read' } } }) as never;
    for (const [body, code] of [['not JSON', 'JSONRPC_-32700'], ['[]', 'JSONRPC_-32600']] as const) {
      const lines = await written(() => postMcpHandler(mcpEvent(body), context));
      expect(lines.filter(({ method }) => method === 'warn'), body).toEqual([]);
      const error = lines.map(({ line }) => JSON.parse(line) as Record<string, any>).find((document) => 'Errors' in document)!;
      expect(error, body).toMatchObject({ operation: 'postMcp', errorCode: code, Errors: 1 });
      expect(error._aws.CloudWatchMetrics[0].Dimensions[0], body).toEqual(expect.arrayContaining(['operation', 'errorCode']));
    }
  });
});

describe('the products batch', () => {
  it('emits how many items it applied and refused (against this file’s table in DynamoDB Local)', async () => {
    const { batchUpdateProductsHandler: handler } = await import('../functions/products/handlers');
    const batchEvent = {
      httpMethod: 'PATCH',
      path: '/v1/products/batch',
      headers: { 'content-type': 'application/json' },
      pathParameters: null,
      queryStringParameters: null,
      body: JSON.stringify({ updates: [{ id: 987654, name: 'No such product' }, { name: 'No id' }] }),
      requestContext: { requestId: 'req-batch', authorizer: { organizationId: 'org_01JZ0000000000000000000000', keyId: 'key_1' } },
    } as never;
    const documents = await emfDocuments(() => handler(batchEvent, context));
    const request = documents.find((document) => 'BatchItemsApplied' in document)!;
    expect(request).toMatchObject({ operation: 'batchUpdateProducts', BatchItemsApplied: 0, BatchItemsRefused: 2 });
  });
});
