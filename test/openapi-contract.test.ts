import { describe, expect, it } from 'vitest';
import { assertMatchesDocument, type ObservedResponse } from './support/contract';
import { useTestApi } from './support/api';
import { componentExamples } from '../functions/resources';

const api = useTestApi();

/** A valid Lead: the document's own example, so these cases start from a body it accepts. */
const lead = componentExamples.Lead as Record<string, unknown>;
const json = 'application/json; charset=utf-8';
const created = (body: unknown): ObservedResponse => ({ method: 'POST', path: '/v1/leads', status: 201, contentType: json, body });
const notFound = { success: false, message: 'Not found', error: { status: 404, message: 'Not found', code: 'NOT_FOUND' } };

describe('the contract check every test response passes through', () => {
  it('accepts a response that matches the document', () => {
    expect(() => assertMatchesDocument(created({ lead }))).not.toThrow();
  });

  it('rejects a body that breaks the schema, naming the route, the status and the field', () => {
    expect(() => assertMatchesDocument(created({ lead: { ...lead, unreadSMS: '0' } }))).toThrow(
      /POST \/v1\/leads \(createLead\) answered 201: the body does not match the OpenAPI document: \/lead\/unreadSMS must be integer/,
    );
    const { hasFlaggedInquiry: _, ...missing } = lead;
    expect(() => assertMatchesDocument(created({ lead: missing }))).toThrow(/must have required property 'hasFlaggedInquiry'/);
    expect(() => assertMatchesDocument(created({ lead: { ...lead, status: 'ARCHIVED' } }))).toThrow(/\/lead\/status must be equal to one of the allowed values/);
  });

  it('rejects a status the document does not list for the route', () => {
    expect(() => assertMatchesDocument({ ...created({ lead }), status: 200 })).toThrow(/createLead\) answered 200, a status the OpenAPI document does not list/);
    expect(() => assertMatchesDocument({ method: 'GET', path: '/v1/leads', status: 404, contentType: json, body: notFound })).toThrow(/listLeads\) answered 404/);
  });

  it('rejects an error that is not the envelope, and the SMS failure that is', () => {
    expect(() => assertMatchesDocument({ method: 'DELETE', path: '/v1/leads/lead_1', status: 404, contentType: json, body: { message: 'Not found' } })).toThrow(
      /deleteLead\) answered 404: the body does not match/,
    );
    const sms = { method: 'POST', path: '/v1/sms', status: 502, contentType: json };
    expect(() => assertMatchesDocument({ ...sms, body: { message: 'SMS provider rejected the message' } })).not.toThrow();
    expect(() => assertMatchesDocument({ ...sms, body: { ...notFound, error: { ...notFound.error, status: 502 } } })).toThrow(/sendSms\) answered 502/);
  });

  it('rejects a media type the document does not give', () => {
    expect(() => assertMatchesDocument({ ...created({ lead }), contentType: 'text/plain' })).toThrow(/as text\/plain, but the OpenAPI document gives application\/json/);
  });

  it('matches literal segments before parameters, as API Gateway does', () => {
    const batch = { method: 'PATCH', path: '/v1/products/batch', status: 200, contentType: json, body: { results: [], summary: { total: 0, succeeded: 0, failed: 0, unknown: 0 } } };
    expect(() => assertMatchesDocument(batch)).not.toThrow();
  });

  it('lets a route the document does not list answer only the gateway 404 envelope', () => {
    const unknown = { method: 'GET', path: '/v1/nothing-here', contentType: json };
    expect(() => assertMatchesDocument({ ...unknown, status: 404, body: notFound })).not.toThrow();
    expect(() => assertMatchesDocument({ ...unknown, status: 200, body: {} })).toThrow(/no operation in the OpenAPI document\) answered 200/);
    expect(() => assertMatchesDocument({ ...unknown, status: 404, body: { message: 'nope' } })).toThrow(/the body does not match/);
  });

  it('lets a path the document lists answer a method it does not list only with the 405 envelope, chosen as API Gateway routes', () => {
    const refused = { success: false, message: 'This path answers GET, POST only', error: { status: 405, message: 'This path answers GET, POST only', code: 'METHOD_NOT_ALLOWED' } };
    const wrongVerb = { method: 'PUT', path: '/v1/leads', contentType: json };
    expect(() => assertMatchesDocument({ ...wrongVerb, status: 405, body: refused })).not.toThrow();
    expect(() => assertMatchesDocument({ ...wrongVerb, status: 404, body: notFound })).toThrow(/it may only answer 405/);
    expect(() => assertMatchesDocument({ ...wrongVerb, status: 405, body: { message: 'nope' } })).toThrow(/the body does not match/);
    // The literal path wins: GET /v1/products/batch is the batch path's, which takes PATCH only.
    expect(() => assertMatchesDocument({ method: 'GET', path: '/v1/products/batch', status: 405, contentType: json, body: refused })).not.toThrow();
  });

  it('is applied by the test client: an unknown route, a method the path does not take and a missing token pass as documented', async () => {
    const { client } = await api.organization();
    const unknown = await client.get('/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: { status: 404 } });
    const anonymous = await api.anonymous.get('/v1/leads');
    expect(anonymous.status).toBe(401);
    const wrongVerb = await client.put('/v1/leads');
    expect(wrongVerb.status).toBe(405);
    expect(wrongVerb.headers.get('allow')).toBe('GET, POST');
  });
});
