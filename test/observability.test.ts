import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';

// Metrics are off in the tests (POWERTOOLS_DEV); this file turns them on before the handler factory loads.
process.env.POWERTOOLS_METRICS_DISABLED = 'false';
const { apiHandler } = await import('../shared/http/api-handler');
const { defineRoute } = await import('../shared/routes/route');
const { NotFoundError } = await import('../shared/errors');

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

/** Every EMF document written while `run` ran (each has an _aws.CloudWatchMetrics block). */
async function emfDocuments(run: () => Promise<unknown>) {
  const written: string[] = [];
  const spies = (['log', 'info', 'warn', 'error'] as const).map((method) => vi.spyOn(console, method).mockImplementation((line) => void written.push(String(line))));
  await run().finally(() => spies.forEach((spy) => spy.mockRestore()));
  return written.map((line) => JSON.parse(line) as Record<string, any>).filter((document) => document._aws?.CloudWatchMetrics);
}

describe('metrics in the Embedded Metric Format', () => {
  const handler = apiHandler(route, async ({ path }) => {
    if (path.id === 'missing') throw new NotFoundError('Probe not found');
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
  });
});

describe('the products batch', () => {
  it('emits how many items it applied and refused (against this file’s table in DynamoDB Local)', async () => {
    const { batchUpdateProductsHandler: handler } = await import('../functions/products/handlers');
    const batchEvent = {
      httpMethod: 'PATCH',
      path: '/v1/products/batch',
      headers: {},
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
