import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { admin } from '../../test/support/admin-cli';
import { useTestApi, type Client } from '../../test/support/api';
import { created } from '../../test/support/fixtures';
import { SYDNEY } from '../../test/support/report-workload';
import { localDay } from './contributions';
import { reportKeys } from './entity';

// Runs made through the automations' API on a clock the test moves, counted by the reports' consumer as `npm start`
// runs it: started on the day a run is made, completed and stopped by a reply on the day it ends.
const api = useTestApi({ events: true, clock: 'manual' });

/** Quiet hours that never defer: the tests run at whatever time it is. */
const ALWAYS = { allowedFrom: '00:00', allowedUntil: '24:00' };
let numbers = 0;

/** A Sydney organization with a number of its own, so replies from its leads reach it. */
async function sydneyOrganization() {
  const organization = await api.organization();
  const number = `+612777700${String(++numbers).padStart(2, '0')}`;
  expect((await organization.client.patch('/v1/organization', { timezone: SYDNEY, smsSenderId: number })).status).toBe(200);
  return { ...organization, number };
}

const automation = (client: Client, name: string, steps: unknown[], stopWhen: string[] = []) =>
  created(client, '/v1/automations', 'automation', { name, trigger: { event: 'lead.status_changed' }, steps, stopWhen, quietHours: ALWAYS });

const enrol = async (client: Client, automationId: string, leadId: string) => created(client, `/v1/automations/${automationId}/runs`, 'run', { leadId });
const readRun = async (client: Client, runId: string) => (await client.get(`/v1/automation-runs/${runId}`)).body.run;

async function reply(from: string, to: string, body: string) {
  const res = await fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from, to, body }) });
  expect(res.status).toBe(202);
  await api.advanceTime(0);
}

const automationsOn = async (client: Client, from: string, to: string) => {
  const res = await client.get(`/v1/reports/summary?from=${from}&to=${to}`);
  expect(res.status).toBe(200);
  return res.body.summary.automations;
};

/** An organization's day items as stored, by date, their counters only (0 read as absent, as the routes read it). */
async function dayItems(organizationId: string): Promise<Record<string, Record<string, unknown>>> {
  const { pk } = reportKeys.reportDay(organizationId, '');
  const { Items = [] } = await dynamo.send(new QueryCommand({ TableName: config.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }));
  return Object.fromEntries(Items.map(({ pk: _pk, sk, entity: _entity, v: _v, updatedAt: _updatedAt, ...counters }) => [String(sk).slice('DAY#'.length), Object.fromEntries(Object.entries(counters).filter(([, amount]) => amount !== 0))]));
}

async function rebuild(organizationId: string) {
  const { code, stdout, stderr } = await admin('reports', 'rebuild', '--org', organizationId);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout);
}

/**
 * Three runs enrolled on one day: one that texts, waits a day and completes; one that waits two days to text and stops
 * when the lead replies a day in; one cancelled at once (stopped, not by a reply).
 */
async function threeRuns() {
  const organization = await sydneyOrganization();
  const { client } = organization;
  const [ava, ben, cal] = [
    await created(client, '/v1/leads', 'lead', { name: 'Ava Chen', phone: '+61412555101' }),
    await created(client, '/v1/leads', 'lead', { name: 'Ben Ryan', phone: '+61412555102' }),
    await created(client, '/v1/leads', 'lead', { name: 'Cal Webb', phone: '+61412555103' }),
  ];
  const followUp = await automation(client, 'Follow up', [{ type: 'send_sms', template: 'Thanks for asking, {{lead.firstName|there}}' }, { type: 'wait', duration: 'P1D' }, { type: 'add_note', template: 'Followed up' }]);
  const chase = await automation(client, 'Chase', [{ type: 'wait', duration: 'P2D' }, { type: 'send_sms', template: 'Still keen?' }], ['lead.replied']);
  const completing = await enrol(client, followUp.id, ava.id);
  const replied = await enrol(client, chase.id, ben.id);
  const cancelled = await enrol(client, chase.id, cal.id);
  expect((await client.post(`/v1/automation-runs/${cancelled.id}/cancel`)).status).toBe(200);
  await api.advanceTime(0);

  await api.advanceTime('P1D');
  await reply('+61412555102', organization.number, 'Yes please, go ahead');
  await api.advanceTime(0);
  const runs = { completing: await readRun(client, completing.id), replied: await readRun(client, replied.id), cancelled: await readRun(client, cancelled.id) };
  expect(runs.completing).toMatchObject({ status: 'COMPLETED' });
  expect(runs.replied).toMatchObject({ status: 'STOPPED', stoppedReason: 'lead.replied' });
  expect(runs.cancelled).toMatchObject({ status: 'STOPPED', stoppedReason: 'cancelled' });
  return { ...organization, runs };
}

describe('automation runs in the reports', () => {
  it('counts a run started on the day it is made, completed or stopped by the lead’s reply on the day it ends', async () => {
    const { client, runs } = await threeRuns();
    const started = localDay(runs.completing.createdAt, SYDNEY);
    const ended = localDay(runs.completing.updatedAt, SYDNEY);
    expect(localDay(runs.replied.updatedAt, SYDNEY)).toBe(ended);
    // A day apart, so a count on the wrong day shows.
    expect(ended > started).toBe(true);

    // The automation's text opened Ava's thread: an inquiry the organization started, neither her source nor a speed to
    // lead of 0 s. Ben's reply opened his own thread: an inquiry he started, his source.
    const summaryOf = async (from: string, to: string) => (await client.get(`/v1/reports/summary?from=${from}&to=${to}`)).body.summary;
    const both = await summaryOf(started, ended);
    expect(both.inquiries).toMatchObject({ total: 2, startedByLead: { total: 1, bySource: { SMS: 1 } }, startedByBusiness: { total: 1, bySource: { SMS: 1 }, byAutomation: 1 } });
    expect([both.leads.bySource, both.speedToLead.leads]).toEqual([{ CALL: 0, EMAIL: 0, CHATBOT: 0, SMS: 1, WEBFORM: 0, NONE: 2 }, 0]);

    expect(await automationsOn(client, started, started)).toEqual({ started: 3, completed: 0, stoppedByReply: 0 });
    expect(await automationsOn(client, ended, ended)).toEqual({ started: 0, completed: 1, stoppedByReply: 1 });
    for (const [metric, values] of [['automations.started', [3, 0]], ['automations.completed', [0, 1]], ['automations.stoppedByReply', [0, 1]]] as const) {
      const res = await client.get(`/v1/reports/timeseries?metric=${metric}&from=${started}&to=${ended}`);
      expect(res.status).toBe(200);
      expect(res.body.timeseries.points.map(({ value }: { value: number }) => value), metric).toEqual(values);
    }
  });

  it('is counted again by a rebuild exactly as the stream counted it', async () => {
    const { organizationId, runs } = await threeRuns();
    const days = await dayItems(organizationId);
    expect(Object.values(days).map(({ rs, rc, rp }) => [rs ?? 0, rc ?? 0, rp ?? 0])).toContainEqual([3, 0, 0]);

    expect(await rebuild(organizationId)).toMatchObject({ changes: [], daysChanged: 0, runAgain: [] });
    // The days the runs were counted on, deleted: the rebuild writes them back from the runs.
    for (const at of [runs.completing.createdAt, runs.completing.updatedAt]) await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: reportKeys.reportDay(organizationId, localDay(at, SYDNEY)) }));
    const restored = await rebuild(organizationId);
    expect(restored.changes).toEqual(
      expect.arrayContaining([
        { day: localDay(runs.completing.createdAt, SYDNEY), metric: 'automations.started', before: 0, after: 3 },
        { day: localDay(runs.completing.updatedAt, SYDNEY), metric: 'automations.completed', before: 0, after: 1 },
        { day: localDay(runs.replied.updatedAt, SYDNEY), metric: 'automations.stoppedByReply', before: 0, after: 1 },
      ]),
    );
    expect(await dayItems(organizationId)).toEqual(days);
  });
});
