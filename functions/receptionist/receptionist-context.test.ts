import { describe, expect, it } from 'vitest';
import { buildDocument } from '../meta/document';
import { useTestApi } from '../../test/support/api';
import { measureDynamoCalls } from '../../test/support/dynamo-calls';

/** GET /v1/receptionist/context: what an AI receptionist loads before it answers a call. */

const api = useTestApi();

describe('GET /v1/receptionist/context', () => {
  it('answers the organization with its hours and only what the receptionist may use, prices only where disclosed', async () => {
    const { client } = await api.organization();
    await client.patch('/v1/organization', { name: 'Northside Plumbing', timezone: 'Australia/Sydney', businessHours: { monday: [{ open: '07:00', close: '17:00' }] } });
    const service = (name: string, extra: Record<string, unknown>) =>
      client.post('/v1/services', { name, duration: 1, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'FIXED', price: 180, ...extra }).then((res) => res.body.service.id);
    const quoted = await service('Tap repair', { isDisclosePrice: true });
    const unquoted = await service('Leak detection', { isDisclosePrice: false });
    await service('Retired service', { isActive: false, isDisclosePrice: true });
    const product = (name: string, extra: Record<string, unknown>) =>
      client.post('/v1/products', { name, tradeCategoryId: 1, pricingType: 'RANGE', minPrice: 1200, maxPrice: 3500, ...extra }).then((res) => res.body.product.id);
    const shown = await product('Hot water system', { isDisclosePrice: true });
    const hidden = await product('Water filter', { isDisclosePrice: false });
    await product('Old boiler', { isActive: false });
    await client.post('/v1/faqs', { question: 'Are you licensed?', answer: 'Yes.' });
    await client.post('/v1/faqs', { question: 'Old question', answer: 'Old answer', isActive: false });
    await client.post('/v1/policies', { title: 'Call-out fee', content: 'A $90 call-out fee applies.' });
    const transfer = (label: string, isEnabled: boolean) => client.post('/v1/transfers', { label, method: 'WARM', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'Always', isEnabled }).then((res) => res.body.transfer.id);
    const enabled = await transfer('Office', true);
    await transfer('Retired rule', false);

    const res = await client.get('/v1/receptionist/context');
    expect(res.status).toBe(200);
    const context = res.body;
    expect(context.organization).toMatchObject({ name: 'Northside Plumbing', timezone: 'Australia/Sydney', businessHours: { monday: [{ open: '07:00', close: '17:00' }] }, closedDates: [] });
    expect(typeof context.organization.isOpenNow).toBe('boolean');
    const byId = (items: any[]): Record<string, any> => Object.fromEntries(items.map((item) => [String(item.id), item]));
    expect(Object.keys(byId(context.services)).sort()).toEqual([String(quoted), String(unquoted)].sort());
    expect(byId(context.services)[quoted].price).toBe(180);
    expect(byId(context.services)[unquoted].price).toBeNull();
    expect(Object.keys(byId(context.products)).sort()).toEqual([String(shown), String(hidden)].sort());
    expect(byId(context.products)[shown]).toMatchObject({ price: null, minPrice: 1200, maxPrice: 3500 });
    expect(byId(context.products)[hidden]).toMatchObject({ price: null, minPrice: null, maxPrice: null });
    expect(context.faqs.map((faq: { question: string }) => faq.question)).toEqual(['Are you licensed?']);
    expect(context.policies.map((policy: { title: string }) => policy.title)).toEqual(['Call-out fee']);
    // Each active service's scenario; the retired service's is left out with it.
    expect(context.scenarios.map((scenario: { tradeServiceId: number }) => scenario.tradeServiceId).sort()).toEqual([quoted, unquoted].sort());
    expect(context.transfers.map((rule: { id: number }) => rule.id)).toEqual([enabled]);
  });

  it('keeps an active service whose scenario is not active, without that scenario anywhere in the answer', async () => {
    const { client } = await api.organization();
    const created = (await client.post('/v1/services', { name: 'Gas fitting', duration: 2, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'NONE' })).body.service;
    const scenarioId = created.scenario.id;
    expect((await client.patch(`/v1/scenarios/${scenarioId}`, { isActive: false, response: 'RETIRED SCRIPT' })).status).toBe(200);

    const retired = (await client.get('/v1/receptionist/context')).body;
    expect(retired.services.map((service: { id: number; scenario: unknown }) => [service.id, service.scenario])).toEqual([[created.id, null]]);
    expect(retired.scenarios).toEqual([]);
    expect(JSON.stringify(retired)).not.toContain('RETIRED SCRIPT');

    expect((await client.patch(`/v1/scenarios/${scenarioId}`, { isActive: true })).status).toBe(200);
    const restored = (await client.get('/v1/receptionist/context')).body;
    expect(restored.services[0].scenario).toMatchObject({ id: scenarioId, response: 'RETIRED SCRIPT' });
    expect(restored.scenarios.map((scenario: { id: number }) => scenario.id)).toEqual([scenarioId]);
  });

  it('carries an ETag: sent back unchanged it answers 304 without a body, and any change gives a new one', async () => {
    const { client } = await api.organization({ demo: true });
    const context = (headers: Record<string, string> = {}) => client.get('/v1/receptionist/context', { headers });
    const first = await context();
    const etag = first.headers.get('etag')!;
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    const again = await context({ 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body, 'no body').toBeUndefined();
    expect(again.headers.get('etag')).toBe(etag);
    // Another validator, or this one with its last character changed, gets the whole context.
    const stale = `${etag.slice(0, -2)}${etag.at(-2) === 'A' ? 'B' : 'A'}"`;
    expect((await context({ 'if-none-match': stale })).status).toBe(200);
    expect((await context({ 'if-none-match': `"other", ${etag}` })).status).toBe(304);
    // Compared weakly, as HTTP says (RFC 9110, 13.1.2): a cache that compressed the answer sends it back as W/"…".
    expect((await context({ 'if-none-match': `W/${etag}` })).status).toBe(304);
    expect((await context({ 'if-none-match': `W/${stale}` })).status).toBe(200);
    expect((await context({ 'if-none-match': '*' })).status).toBe(304);
    await client.post('/v1/faqs', { question: 'Do you work weekends?', answer: 'Saturday mornings.' });
    const changed = await context({ 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('answers 400 naming If-None-Match when it is longer than the 2000 characters the document allows, and takes one of 2000 that ends in the current ETag', async () => {
    const { client } = await api.organization({ demo: true });
    const etag = (await client.get('/v1/receptionist/context')).headers.get('etag')!;
    const documented = (buildDocument() as unknown as { paths: Record<string, Record<string, { parameters: Array<{ name: string; schema: { maxLength: number } }> }>> }).paths['/v1/receptionist/context']!.get!.parameters.find((parameter) => parameter.name === 'If-None-Match')!;
    expect(documented.schema.maxLength).toBe(2000);
    // A long stale validator before the current one: at the length the document allows it names the ETag, one more is refused.
    const header = (length: number) => `"${'s'.repeat(length - etag.length - 3)}",${etag}`;
    expect(header(2000)).toHaveLength(2000);
    expect((await client.get('/v1/receptionist/context', { headers: { 'if-none-match': header(2000) } })).status).toBe(304);
    const over = await client.get('/v1/receptionist/context', { headers: { 'if-none-match': header(2001) } });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'If-None-Match', message: 'If-None-Match must be at most 2000 characters' }] });
  });

  it('declares the If-None-Match header its documented 304 answers, so a generated client can send it', () => {
    const operation = (buildDocument() as unknown as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; responses: Record<string, unknown> }>> }).paths['/v1/receptionist/context']!.get!;
    expect(Object.keys(operation.responses)).toContain('304');
    expect((operation.parameters ?? []).filter((parameter) => parameter.in === 'header').map((parameter) => parameter.name)).toEqual(['If-None-Match']);
  });

  it('reads everything in one parallel batch: the organization and one Query per collection, sent together', async () => {
    const { client } = await api.organization({ demo: true });
    const calls = await measureDynamoCalls(() => client.get('/v1/receptionist/context'));
    expect(calls.map((call) => call.command).sort()).toEqual(['GetItemCommand', ...Array(6).fill('QueryCommand')]);
    const firstAnswer = Math.min(...calls.map((call) => call.answeredAt));
    expect(calls.every((call) => call.sentAt < firstAnswer), 'every call sent before any answered').toBe(true);
  });
});
