import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { apiHandler, type HandlerOutput } from '#shared/http/api-handler';
import { defineRoute } from '#shared/routes/route';
import { described, describedByResource } from '#shared/routes/described';
import * as leadRoutes from '../functions/leads/routes';
import { Lead } from '../functions/leads/schema';

// `npm run typecheck` compiles this file: each @ts-expect-error below must be a type error, or the build fails.

const route = defineRoute({
  operationId: 'typedProbe',
  method: 'GET',
  path: '/v1/typed-probe',
  summary: 'A route for testing handler types',
  description: 'Answers one widget.',
  tag: 'Reference',
  auth: 'none',
  dynamodb: [],
  status: 200,
  request: {},
  response: v.object({ widget: v.object({ id: v.string(), count: v.number(), label: v.optional(v.string(), 'none') }) }),
  errors: [],
});

const event = { httpMethod: 'GET', path: '/v1/typed-probe', headers: {}, pathParameters: null, queryStringParameters: null, body: null, requestContext: {} } as never;
const context = { awsRequestId: 'lambda-1' } as never;

describe('a handler is typed by its route’s response schema', () => {
  it('must return the input type of the response schema (defaults may be left out)', () => {
    expectTypeOf<HandlerOutput<typeof route.response>>().toEqualTypeOf<{ widget: { id: string; count: number; label?: string | undefined } }>();
    expectTypeOf<HandlerOutput<typeof leadRoutes.createLead.response>>().toEqualTypeOf<{ lead: v.InferInput<typeof Lead> }>();
    // A lead as the domain holds it is a valid answer.
    expectTypeOf<{ lead: Lead }>().toExtend<HandlerOutput<typeof leadRoutes.createLead.response>>();
  });

  it('refuses, at compile time, a handler whose answer has another shape: exactly what the schema refuses', async () => {
    const wrongAnswers = [
      // @ts-expect-error a required field is missing
      apiHandler(route, async () => ({ widget: { id: 'w_1' } })),
      // @ts-expect-error a field has the wrong type
      apiHandler(route, async () => ({ widget: { id: 'w_1', count: '3' } })),
      // @ts-expect-error the answer is wrapped under the wrong key
      apiHandler(route, async () => ({ widgets: { id: 'w_1', count: 3 } })),
    ];
    for (const handler of wrongAnswers) {
      const response = await handler(event, context);
      expect(v.is(route.response, JSON.parse(response.body))).toBe(false);
    }
  });

  it('answers what the handler returned when it has the declared shape', async () => {
    const handler = apiHandler(route, async () => ({ widget: { id: 'w_1', count: 3 } }));
    const response = await handler(event, context);
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ widget: { id: 'w_1', count: 3 } });
  });

  it('holds a response its resource gives (describedByResource) to the route’s own type, so the handler is still checked against the document', () => {
    const marked = defineRoute({ ...route, response: describedByResource<typeof route.response>() });
    const answer = v.object({ widget: v.object({ id: v.string(), count: v.number(), label: v.optional(v.string(), 'none') }) });
    expect(described(marked, { response: answer }).response).toBe(answer);
    // @ts-expect-error the resource gives an answer of another shape than the route declares
    expect(() => described(marked, { response: v.object({ gadget: v.string() }) })).not.toThrow();
  });
});
