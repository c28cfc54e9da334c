import { expect } from 'vitest';
import { instantOf, wallClockAt } from '#shared/schedule';
import { sentLocally } from '../../functions/sms/local-provider';
import type { Client, TestApi } from './api';
import { created } from './fixtures';

export const SYDNEY = 'Australia/Sydney';
export const DAY_MS = 86_400_000;
export const iso = (ms: number) => new Date(ms).toISOString();

export const leadWithPhone = (client: Client, phone: string, name = 'Olivia Nguyen') => created(client, '/v1/leads', 'lead', { name, phone });

/** The automation's runs, newest first. */
export async function runsOf(client: Client, automationId: string) {
  const res = await client.get(`/v1/automations/${automationId}/runs`);
  expect(res.status).toBe(200);
  return res.body.runs as any[];
}

export async function onlyRunOf(client: Client, automationId: string) {
  const runs = await runsOf(client, automationId);
  expect(runs).toHaveLength(1);
  return runs[0];
}

/** What the local provider sent for this organization (to one phone, if given), oldest first. */
export const sentFor = (organizationId: string, to?: string) => sentLocally.filter((sms) => sms.organizationId === organizationId && (to === undefined || sms.to === to));

/**
 * Automations as an organization in Sydney meets them, on a test API with events and the manual clock
 * (`useTestApi({ events: true, clock: 'manual' })`): its organizations, its clock moved to a local time, and the
 * replies of its leads.
 */
export function sydneyAutomations(api: TestApi) {
  let numbers = 0;

  /** A new organization in Sydney with a number of its own, so replies from its leads reach it. */
  async function sydneyOrganization() {
    const organization = await api.organization();
    const number = `+612888800${String(++numbers).padStart(2, '0')}`;
    const res = await organization.client.patch('/v1/organization', { timezone: SYDNEY, smsSenderId: number });
    expect(res.status).toBe(200);
    return { ...organization, number, name: res.body.organization.name as string };
  }

  /** Everything the stream and the engine had to do is done (no time passes). */
  const settled = async () => {
    await api.eventsCaughtUp();
    await api.advanceTime(0);
  };

  /** Moves the clock to the next time it is `hh:mm` in Sydney, the waits due by then run. */
  async function untilLocal(hhmm: string) {
    const [hours, minutes] = hhmm.split(':').map(Number) as [number, number];
    const now = api.clock.now();
    let at = instantOf(SYDNEY, wallClockAt(SYDNEY, now).date, hours * 60 + minutes);
    if (at <= now) at = instantOf(SYDNEY, wallClockAt(SYDNEY, now + DAY_MS).date, hours * 60 + minutes);
    await api.advanceTime(at - now);
    return at;
  }

  const advanceTo = (atMs: number) => api.advanceTime(Math.max(0, atMs - api.clock.now()));

  /** A reply from a lead, as the provider delivers it (`npm start`'s simulator). */
  async function reply(from: string, to: string, body: string) {
    const res = await fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from, to, body }) });
    expect(res.status).toBe(202);
    await settled();
  }

  return { sydneyOrganization, settled, untilLocal, advanceTo, reply };
}
