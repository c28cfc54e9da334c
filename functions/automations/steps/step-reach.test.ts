import type * as dnsPromises from 'node:dns/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestApi, type Client } from '../../../test/support/api';
import { memberSession } from '../../../test/support/member-session';
import { webhookSettings } from '../../webhooks/settings';
import { readAutomationDefinition } from '../store';
import { signingSecretOf } from '../signing-secret';

/** What a step reaches beyond its automation, checked when the steps are written: a webhook's receiver, a member to text. */
/**
 * Names under `.test` (a TLD reserved never to resolve, RFC 2606) that resolve, here, to a loopback address, as a
 * public-looking name can; every other name goes to the system resolver.
 */
const loopbackNames = vi.hoisted(() => new Set(['hooks.loopback.test']));
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof dnsPromises>();
  const lookup = async (hostname: string, options?: { all?: boolean }) => {
    if (!loopbackNames.has(hostname)) return real.lookup(hostname, options as never);
    const answer = { address: '127.0.0.1', family: 4 };
    return options?.all ? [answer] : answer;
  };
  return { ...real, lookup, default: { ...real, lookup } };
});

const api = useTestApi();

/** Two steps before the one a test adds, so its fields are named `steps.2.…`. */
const quoted = {
  name: 'Quoted',
  trigger: { event: 'lead.status_changed', filter: { to: 'QUOTED' } },
  steps: [
    { type: 'add_note', template: 'Quote sent' },
    { type: 'wait', duration: 'P1D' },
  ],
};

async function create(client: Client, body: unknown) {
  const res = await client.post('/v1/automations', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.automation;
}

/** A 400 whose first detail names `path` and says `words`. */
async function refused(client: Client, body: unknown, path: string, words: string) {
  const res = await client.post('/v1/automations', body);
  expect([res.status, res.body.error?.details?.[0]]).toEqual([400, { path, message: expect.stringContaining(words) }]);
}

describe('webhook steps', () => {
  afterEach(() => {
    webhookSettings.allowPrivateUrls = true;
  });

  it('answers the signing secret once, from the write that first has a webhook step, and stores it with the version', async () => {
    const { client, organizationId } = await api.organization();
    const made = await client.post('/v1/automations', quoted);
    expect(made.body.signingSecret).toBeUndefined();
    const steps = [...quoted.steps, { type: 'webhook', url: 'https://hooks.example.com/automations' }];
    const patched = await client.patch(`/v1/automations/${made.body.automation.id}`, { steps });
    expect(patched.body.signingSecret).toMatch(/^whsec_/);
    const again = await client.patch(`/v1/automations/${made.body.automation.id}`, { name: 'Renamed' });
    expect(again.body.signingSecret).toBeUndefined();
    const kept = (await readAutomationDefinition(organizationId, made.body.automation.id, 3))?.signingSecret;
    expect(await signingSecretOf(organizationId, made.body.automation.id, kept)).toBe(patched.body.signingSecret);
    expect((await client.get(`/v1/automations/${made.body.automation.id}`)).body.automation.signingSecret).toBeUndefined();
  });

  it('refuses a URL the webhooks refuse: plain http, private or loopback (400 naming the step’s url)', async () => {
    const { client } = await api.organization();
    webhookSettings.allowPrivateUrls = false;
    const withUrl = (url: string) => ({ ...quoted, steps: [...quoted.steps, { type: 'webhook', url }] });
    await refused(client, withUrl('https://10.0.0.8/hook'), 'steps.2.url', 'url must not point at a private, loopback or link-local address');
    await refused(client, withUrl('https://localhost/hook'), 'steps.2.url', 'url must not point at a private, loopback or link-local address');
    await refused(client, withUrl('http://hooks.example.com/hook'), 'steps.2.url', 'url must be an https URL');
    await create(client, withUrl('https://1.1.1.1/hook'));
  });

  it('refuses a name that resolves to a loopback address when the automation is written (400 naming the step’s url), nothing written', async () => {
    const { client } = await api.organization();
    webhookSettings.allowPrivateUrls = false;
    const withUrl = (url: string) => ({ ...quoted, steps: [...quoted.steps, { type: 'webhook', url }] });
    await refused(client, withUrl('https://hooks.loopback.test/automations'), 'steps.2.url', 'url must not resolve to a private, loopback or link-local address');
    expect((await client.get('/v1/automations')).body.totalCount).toBe(0);
    const made = await create(client, quoted);
    const patched = await client.patch(`/v1/automations/${made.id}`, { steps: withUrl('https://hooks.loopback.test/automations').steps });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details[0]).toMatchObject({ path: 'steps.2.url', message: 'url must not resolve to a private, loopback or link-local address' });
    expect((await client.get(`/v1/automations/${made.id}`)).body.automation.version).toBe(1);
  });
});

describe('notify_member steps', () => {
  const notify = (memberId: number) => ({ ...quoted, steps: [{ type: 'notify_member', memberId, template: '{{lead.firstName|A lead}} was quoted: call {{member.firstName}} back.' }] });

  async function member(client: Client, phone: string | null = null) {
    const res = await client.post('/v1/organization/members', { email: `tradie${Math.random()}@example.com`, firstName: 'Sam', lastName: 'Lee', phone });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.member.id as number;
  }

  it('takes a member of the organization who has a phone', async () => {
    const { client } = await api.organization();
    const memberId = await member(client, '+61412345678');
    expect((await create(client, notify(memberId))).steps[0]).toMatchObject({ type: 'notify_member', memberId });
  });

  it('checks the member again when a PATCH sends steps, and not when it changes anything else', async () => {
    const { client, organizationId } = await api.organization();
    const memberId = await member(client, '+61412345678');
    const made = await create(client, notify(memberId));
    // A member's phone is changed by an ADMIN signed in.
    expect((await (await memberSession(api, organizationId)).patch(`/v1/organization/members/${memberId}`, { phone: null })).status).toBe(200);
    const resent = await client.patch(`/v1/automations/${made.id}`, { steps: made.steps });
    expect([resent.status, resent.body.error?.details]).toEqual([400, [{ path: 'steps.0.memberId', message: 'the member has no phone' }]]);
    const disabled = await client.patch(`/v1/automations/${made.id}`, { isEnabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.body.automation).toMatchObject({ isEnabled: false, steps: made.steps, version: 2 });
  });

  it('answers 400 for a member without a phone, and for a member of another organization', async () => {
    const { client } = await api.organization();
    const phoneless = await member(client);
    await refused(client, notify(phoneless), 'steps.0.memberId', 'the member has no phone');
    const other = await api.organization();
    await member(other.client);
    const theirs = await member(other.client, '+61412345678');
    const mine = (await client.get('/v1/organization/members')).body.members.map((one: { id: number }) => one.id);
    expect(mine).not.toContain(theirs);
    await refused(client, notify(theirs), 'steps.0.memberId', `member ${theirs} is not a member of the organization`);
  });
});
