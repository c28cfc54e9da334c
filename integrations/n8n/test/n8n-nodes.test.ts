import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../functions/events/types';
import { useTestApi, type Client } from '../../../test/support/api';
import { SalesPipeline } from '../nodes/SalesPipeline/SalesPipeline.node';
import { SalesPipelineTrigger } from '../nodes/SalesPipelineTrigger/SalesPipelineTrigger.node';
import { keyedRoutes, resourceValue, staleN8nFiles } from '../tools/generate';
import { runAction, testCredential, triggerHost, type ApiCredentials, type TriggerHost } from './n8n-host';

/**
 * The n8n package: its description generated from the route table and the event types, its lint, and its nodes run
 * by n8n's own packages (n8n-core's executor and contexts, n8n-workflow's Workflow) against the local API.
 */

const api = useTestApi({ events: true });

describe('the n8n node as generated', () => {
  it('is what the route table and the event types generate now (npm run generate writes it)', () => {
    expect(staleN8nFiles().map(({ path }) => path.pathname)).toEqual([]);
  });

  it('has every keyed route as an operation of its resource, and every event type as a trigger event', () => {
    const properties = new SalesPipeline().description.properties;
    const operationsOf = (resource: string) => properties.find((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource))?.options?.map((option) => ('value' in option ? option.value : undefined)) ?? [];
    const missing = keyedRoutes().filter((route) => !operationsOf(resourceValue(route.tag)).includes(route.operationId));
    expect(missing.map((route) => `${route.method} ${route.path}`)).toEqual([]);
    const events = new SalesPipelineTrigger().description.properties.find((property) => property.name === 'events')?.options?.map((option) => ('value' in option ? option.value : undefined));
    expect(events).toEqual([...EVENT_TYPES]);
  });

  it('passes the community-nodes ESLint rules with no finding (n8n-node lint)', async () => {
    // Without the test run's NODE_ENV: n8n's ESLint plugin reads `test` as its own tests' run and names files as they do.
    const { NODE_ENV: _test, ...env } = process.env;
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', '--silent', 'lint'], { cwd: new URL('..', import.meta.url), env: { ...env, FORCE_COLOR: '0' } });
    expect(`${stdout}${stderr}`).not.toMatch(/problem|error|warning/i);
  });
});

describe('the action node, run by n8n-core', () => {
  let client: Client;
  let credentials: ApiCredentials;
  beforeAll(async () => {
    const organization = await api.organization();
    client = organization.client;
    credentials = { apiKey: organization.apiKey, baseUrl: api.url };
  });

  it('takes a base URL with or without /v1 (as the Zapier app does), in its credential test and its requests', async () => {
    const read = { resource: 'organization', operation: 'getOrganization' };
    for (const baseUrl of [api.url, `${api.url}/`, `${api.url}/v1`, `${api.url}/v1/`, `${api.url}//v1//`]) {
      expect({ baseUrl, status: await testCredential({ ...credentials, baseUrl }) }).toEqual({ baseUrl, status: 200 });
      expect((await runAction({ ...credentials, baseUrl }, read)).error, baseUrl).toBeUndefined();
    }
    // Near misses: another path stays as typed, and the API answers it 404.
    for (const baseUrl of [`${api.url}/v10`, `${api.url}/v1x`, `${api.url}/v1/v1`]) expect({ baseUrl, status: await testCredential({ ...credentials, baseUrl }) }).toEqual({ baseUrl, status: 404 });
    expect(await testCredential({ ...credentials, apiKey: `${credentials.apiKey}x` })).toBe(401);
  });

  it('creates, reads, lists and updates a lead', async () => {
    const created = await runAction(credentials, { resource: 'leads', operation: 'createLead', additionalFields: { name: 'Jane Citizen', email: 'jane@example.com', suburb: 'Marrickville' } });
    expect(created.error).toBeUndefined();
    const lead = created.items[0]!.lead as { id: string; firstName: string; lastName: string; suburb: string };
    expect(lead).toMatchObject({ firstName: 'Jane', lastName: 'Citizen', suburb: 'Marrickville' });
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.email).toBe('jane@example.com');

    const read = await runAction(credentials, { resource: 'leads', operation: 'getLead', leadId: lead.id });
    expect(read.items).toEqual([{ lead: (await client.get(`/v1/leads/${lead.id}`)).body.lead }]);

    const updated = await runAction(credentials, { resource: 'leads', operation: 'updateLead', leadId: lead.id, updateFields: { status: 'CONTACTED', suburb: 'Newtown' } });
    expect(updated.items[0]!.lead).toMatchObject({ id: lead.id, status: 'CONTACTED', suburb: 'Newtown' });

    const listed = await runAction(credentials, { resource: 'leads', operation: 'listLeads', returnAll: false, limit: 10, filters: { q: 'jane' } });
    expect(listed.items.map((item) => item.id)).toEqual([lead.id]);
  });

  it('writes once when the same node of the same execution sends its POST again (Retry On Fail)', async () => {
    const { client: other, apiKey } = await api.organization();
    const same = { executionId: '4711', nodeId: 'b0a1c2d3-0000-4000-8000-000000000001' };
    const create = () => runAction({ apiKey, baseUrl: api.url }, { resource: 'leads', operation: 'createLead', additionalFields: { name: 'Retried Lead', email: 'retried@example.com' } }, same);
    const [first, again] = [await create(), await create()];
    expect(again.error).toBeUndefined();
    expect((again.items[0]!.lead as { id: string }).id).toBe((first.items[0]!.lead as { id: string }).id);
    expect((await other.get('/v1/leads')).body.totalCount).toBe(1);
    // Another execution is another write
    const next = await runAction({ apiKey, baseUrl: api.url }, { resource: 'leads', operation: 'createLead', additionalFields: { name: 'Next Lead', email: 'next@example.com' } }, { ...same, executionId: '4712' });
    expect(next.error).toBeUndefined();
    expect((await other.get('/v1/leads')).body.totalCount).toBe(2);
  });

  it("fails with the API's own message and code, not n8n's generic one for the status", async () => {
    const refused = await client.post('/v1/leads', { name: 'Bad Email', email: 'not-an-email' });
    expect(refused.status).toBe(400);
    const run = await runAction(credentials, { resource: 'leads', operation: 'createLead', additionalFields: { name: 'Bad Email', email: 'not-an-email' } });
    expect(run.items).toEqual([]);
    expect(run.error).toMatchObject({ message: refused.body.message, httpCode: '400', description: `${refused.body.error.code} (HTTP 400)` });

    const missing = await runAction(credentials, { resource: 'leads', operation: 'getLead', leadId: 'lead_01JZZZZZZZZZZZZZZZZZZZZZZZ' });
    expect(missing.error).toMatchObject({ message: 'Lead not found', httpCode: '404' });
  });
});

describe('the trigger node, run by n8n-core', () => {
  let client: Client;
  let credentials: ApiCredentials;
  let host: TriggerHost;
  beforeAll(async () => {
    const organization = await api.organization();
    client = organization.client;
    credentials = { apiKey: organization.apiKey, baseUrl: api.url };
    host = await triggerHost(credentials, ['lead.created']);
  });
  afterAll(() => host?.close());

  const subscriptions = async () => ((await client.get(`/v1/webhooks?url=${encodeURIComponent(host.url)}`)).body.webhooks as { id: string; url: string; events: string[] }[]);

  it('subscribes its URL on activation, finds it with checkExists, and never subscribes twice', async () => {
    expect(await host.method('checkExists')).toBe(false);
    await host.activate();
    const [subscription, ...more] = await subscriptions();
    expect(more).toEqual([]);
    expect(subscription).toMatchObject({ url: host.url, events: ['lead.created'] });
    expect(await host.method('checkExists')).toBe(true);
    // n8n activating the workflow again (a restart) finds the subscription and leaves it
    await host.activate();
    expect((await subscriptions()).map(({ id }) => id)).toEqual([subscription!.id]);
    // Its static data lost (the workflow imported again): subscribing again is the same subscription, and its secret
    const kept = host.workflow.getStaticData('node', host.workflow.getNode('Sales Pipeline Trigger')!);
    const secret = kept.secret;
    expect(secret).toMatch(/^whsec_/);
    delete kept.webhookId;
    delete kept.secret;
    expect(await host.method('checkExists')).toBe(false);
    await host.activate();
    expect((await subscriptions()).map(({ id }) => id)).toEqual([subscription!.id]);
    expect(kept).toMatchObject({ webhookId: subscription!.id, secret });
  });

  it('starts the workflow with a delivery signed with its secret, and refuses a wrong or stale signature', async () => {
    await host.activate();
    const made = await client.post('/v1/leads', { name: 'Trigger Lead', email: 'trigger@example.com' });
    expect(made.status).toBe(201);
    const lead = made.body.lead as { id: string };
    await api.eventsCaughtUp();
    await expect.poll(() => host.started.length, { timeout: 15_000 }).toBe(1);
    expect(host.started[0]).toEqual([expect.objectContaining({ type: 'lead.created', data: expect.objectContaining({ id: lead.id }) })]);
    expect(host.answers).toEqual([200]);

    const kept = host.workflow.getStaticData('node', host.workflow.getNode('Sales Pipeline Trigger')!);
    const body = JSON.stringify({ id: 'evt_forged', type: 'lead.created', data: { id: lead.id } });
    const send = (headers: Record<string, string>) => fetch(host.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const signed = (secret: string, at: Date) => {
      const signature = new StandardWebhook(secret).sign('msg_1', at, body);
      return { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
    };
    const other = `whsec_${Buffer.from('another secret of 32 bytes!!!!!!').toString('base64')}`;
    expect((await send(signed(other, new Date()))).status).toBe(401);
    expect((await send(signed(kept.secret as string, new Date(Date.now() - 6 * 60_000)))).status).toBe(401);
    expect((await send(signed(kept.secret as string, new Date(Date.now() + 6 * 60_000)))).status).toBe(401);
    expect((await send({})).status).toBe(401);
    const tampered = signed(kept.secret as string, new Date());
    expect((await fetch(host.url, { method: 'POST', headers: { 'content-type': 'application/json', ...tampered }, body: body.replace('lead.created', 'lead.deleted') })).status).toBe(401);
    expect(host.started).toHaveLength(1);
    // The same signature made now with its secret is accepted: what was refused was the signature alone.
    expect((await send(signed(kept.secret as string, new Date()))).status).toBe(200);
    expect(host.started).toHaveLength(2);
  });

  it('replaces its subscription when its events change, so nothing is delivered twice', async () => {
    await host.activate();
    const [before] = await subscriptions();
    const node = host.workflow.getNode('Sales Pipeline Trigger')!;
    node.parameters.events = ['lead.created', 'lead.updated'];
    try {
      // n8n's check finds the subscription for other events, so it subscribes for these
      expect(await host.method('checkExists')).toBe(false);
      await host.activate();
      const after = await subscriptions();
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ url: host.url, events: ['lead.created', 'lead.updated'] });
      expect(after[0]!.id).not.toBe(before!.id);
      expect(await host.method('checkExists')).toBe(true);
    } finally {
      node.parameters.events = ['lead.created'];
    }
  });

  it('unsubscribes on deactivation, and deactivating again finds nothing to delete', async () => {
    await host.activate();
    expect(await subscriptions()).toHaveLength(1);
    expect(await host.method('delete', 'activate')).toBe(true);
    expect(await subscriptions()).toEqual([]);
    expect(await host.method('checkExists')).toBe(false);
    expect(await host.method('delete', 'activate')).toBe(true);
    // Its static data lost, deactivating still removes the subscription to its URL rather than leave it behind
    await host.activate();
    const kept = host.workflow.getStaticData('node', host.workflow.getNode('Sales Pipeline Trigger')!);
    delete kept.webhookId;
    delete kept.secret;
    expect(await subscriptions()).toHaveLength(1);
    expect(await host.method('delete', 'activate')).toBe(true);
    expect(await subscriptions()).toEqual([]);
  });
});
