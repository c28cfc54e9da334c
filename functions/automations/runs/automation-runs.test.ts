import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#shared/auth/api-keys';
import { clock } from '#shared/clock';
import { instantOf, wallClockAt } from '#shared/schedule';
import { automationEngine, setAfterEffect, setAutomationEngine, type AutomationEngine, type StepMessage } from '../engine/engine';
import type { LocalAutomationEngine } from '../engine/local-engine';
import { runStepMessage } from '../engine/step-worker';
import { sentLocally } from '../../sms/local-provider';
import { useTestApi, type Client } from '../../../test/support/api';
import { senderOrganizations } from '../../../test/support/sms';
import { DAY_MS, iso, sentFor } from '../../../test/support/automations';
import { dynamo } from '#shared/dynamo';
import { DEFAULT_CONCURRENCY } from '../../../infra/cdk/options';
import { runKeys } from './entity';
import { startReceiver, type Receiver } from '../../../test/support/receiver';
import { webhookSettings } from '../../webhooks/settings';

/** Runs of automations, through the API and the engine's own messages: enrolled, previewed, read, cancelled, and each step made once. */

const api = useTestApi({ events: true, clock: 'manual' });
const organizationWithSender = senderOrganizations(api);

/** Quiet hours that never defer: the tests run at whatever time it is. */
const ALWAYS = { allowedFrom: '00:00', allowedUntil: '24:00' };

/** A trigger leads may be enrolled in by hand that no test's step fires (a status moved to LOST), so every run is the test's own. */
const BY_HAND = { event: 'lead.status_changed', filter: { to: 'LOST' } };

async function createAutomation(client: Client, steps: unknown[], more: Record<string, unknown> = {}): Promise<string> {
  const created = await client.post('/v1/automations', { name: 'Follow up', trigger: BY_HAND, steps, quietHours: ALWAYS, ...more });
  expect(created.status).toBe(201);
  return created.body.automation.id;
}

async function enrol(client: Client, automationId: string, leadId: string, appointmentId?: string) {
  const enrolled = await client.post(`/v1/automations/${automationId}/runs`, { leadId, ...(appointmentId ? { appointmentId } : {}) });
  expect(enrolled.status).toBe(201);
  return enrolled.body.run;
}

const readRun = async (client: Client, runId: string) => (await client.get(`/v1/automation-runs/${runId}`)).body.run;
const textsOf = (body: string) => sentLocally.filter((sms) => sms.body === body);
/** Lets every message, timer and event due now be handled. */
const settle = () => api.advanceTime('PT0S');

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
  setAfterEffect(async () => {});
});

/** The engine in place with its messages changed on their way (duplicated, dropped), until the test ends. */
function routeMessages(change: { send?: (messages: readonly StepMessage[]) => readonly StepMessage[]; schedule?: (name: string, atMs: number, message: StepMessage) => [string, number][] }): AutomationEngine {
  const engine = automationEngine();
  setAutomationEngine({
    queue: { send: (messages) => engine.queue.send(change.send ? change.send(messages) : messages) },
    scheduler: {
      create: async (name, atMs, message) => {
        for (const [copy, at] of change.schedule ? change.schedule(name, atMs, message) : [[name, atMs] as [string, number]]) await engine.scheduler.create(copy, at, message);
      },
      delete: async (name) => {
        await engine.scheduler.delete(name);
        await engine.scheduler.delete(`${name}-twin`);
      },
    },
  });
  restore = () => setAutomationEngine(engine);
  return engine;
}

describe('a lead enrolled by hand', () => {
  it('runs the automation: the text sent to the lead, the note added, the run COMPLETED with each step’s result', async () => {
    const { client, leadId } = await organizationWithSender();
    const body = `Hi {{lead.firstName|there}}, thanks from {{organization.name}} (${leadId})`;
    const automationId = await createAutomation(client, [{ type: 'send_sms', template: body }, { type: 'add_note', template: 'Texted by the follow-up' }]);

    const run = await enrol(client, automationId, leadId);
    expect(run).toMatchObject({ automationId, automationVersion: 1, leadId, appointmentId: null, triggerEventId: null });
    await settle();

    const done = await readRun(client, run.id);
    expect(done).toMatchObject({ status: 'COMPLETED', stoppedReason: null, failedReason: null, nextStepAt: null });
    expect(done.steps.map((step: any) => [step.type, step.status])).toEqual([['send_sms', 'DONE'], ['add_note', 'DONE']]);
    const sent = sentLocally.filter((sms) => sms.messageId === done.steps[0].result.smsId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: '+61412345001' });
    expect(sent[0]!.body).toMatch(new RegExp(`^Hi Olivia, thanks from Test organization \\d+ \\(${leadId}\\)$`));
    const notes = (await client.get(`/v1/leads/${leadId}/activities`)).body.activities.filter((activity: any) => activity.event === 'NOTE_ADDED');
    expect(notes.map((note: any) => note.data)).toEqual(['Texted by the follow-up']);
    expect((await client.get(`/v1/automations/${automationId}/runs`)).body).toMatchObject({ runs: [done], totalCount: 1 });
  });

  it('is refused for an automation whose runs only start from their events or that is disabled, and for a lead or automation that is not there', async () => {
    const { client, leadId } = await organizationWithSender();
    const onCalls = await createAutomation(client, [{ type: 'add_note', template: 'Missed call' }], { trigger: { event: 'call.missed' } });
    expect((await client.post(`/v1/automations/${onCalls}/runs`, { leadId })).body.error).toMatchObject({ status: 409, code: 'NOT_ENROLLABLE' });
    const automationId = await createAutomation(client, [{ type: 'add_note', template: 'Hello' }]);
    expect((await client.post(`/v1/automations/${automationId}/runs`, { leadId: 'lead_01JA0000000000000000000000' })).status).toBe(404);
    expect((await client.post('/v1/automations/automation_01JA0000000000000000000000/runs', { leadId })).status).toBe(404);
    expect((await client.post(`/v1/automations/${automationId}/runs`, { leadId, extra: 1 })).status).toBe(400);
    await client.patch(`/v1/automations/${automationId}`, { isEnabled: false });
    expect((await client.post(`/v1/automations/${automationId}/runs`, { leadId })).body.error).toMatchObject({ status: 409, code: 'AUTOMATION_DISABLED' });
    expect((await client.get(`/v1/automations/${automationId}/runs`)).body.totalCount).toBe(0);
  });
});

describe('a run’s writes', () => {
  it('are in the audit log as the run’s own: via automation, its id as the request', async () => {
    const { client, leadId } = await organizationWithSender();
    const automationId = await createAutomation(client, [{ type: 'add_note', template: 'Called back' }, { type: 'set_lead_status', status: 'CONTACTED' }]);
    const run = await enrol(client, automationId, leadId);
    await settle();
    const audit = await client.get(`/v1/audit-log?resourceType=lead&resourceId=${leadId}`);
    expect(audit.status).toBe(200);
    const byRun = audit.body.entries.filter((entry: any) => entry.requestId === run.id);
    expect(byRun).toEqual([expect.objectContaining({ resourceType: 'lead', action: 'updated', via: 'automation', keyId: null, method: null, path: null })]);
    // The run was created by the request that enrolled the lead, and moved by itself after.
    const runEntries = (await client.get(`/v1/audit-log?resourceType=automation_run&resourceId=${run.id}`)).body.entries;
    expect(runEntries.filter((entry: any) => entry.action === 'created')).toEqual([expect.objectContaining({ via: 'api', method: 'POST', path: `/v1/automations/${automationId}/runs` })]);
    const moves = runEntries.filter((entry: any) => entry.action === 'updated');
    // Each of its two steps claimed and recorded, then the run completed.
    expect(moves.length).toBe(5);
    expect(moves.filter((entry: any) => entry.via !== 'automation' || entry.requestId !== run.id)).toEqual([]);
  });
});

describe('a cancelled run', () => {
  it('is STOPPED cancelled, its waiting step CANCELLED and its schedule deleted, and sends nothing after', async () => {
    const { client, leadId } = await organizationWithSender();
    const body = `Still keen? ${leadId}`;
    const automationId = await createAutomation(client, [{ type: 'wait', duration: 'PT1H' }, { type: 'send_sms', template: body }]);
    const run = await enrol(client, automationId, leadId);
    await settle();
    const scheduled = () => (automationEngine() as LocalAutomationEngine).scheduled();
    expect(scheduled()).toContain(`${run.id}-0-1`);
    const waiting = await readRun(client, run.id);
    expect(waiting).toMatchObject({ status: 'WAITING', nextStepAt: new Date(clock.now() + 3_600_000).toISOString() });
    expect(waiting.steps[0]).toMatchObject({ status: 'WAITING', dueAt: waiting.nextStepAt });

    const cancelled = await client.post(`/v1/automation-runs/${run.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.run).toMatchObject({ status: 'STOPPED', stoppedReason: 'cancelled', nextStepAt: null });
    expect(cancelled.body.run.steps.map((step: any) => step.status)).toEqual(['CANCELLED', 'CANCELLED']);
    await settle();
    expect(scheduled()).not.toContain(`${run.id}-0-1`);

    await api.advanceTime('PT2H');
    expect(textsOf(body)).toEqual([]);
    expect(await readRun(client, run.id)).toEqual(cancelled.body.run);
    // Cancelling it again answers it as it stands.
    expect((await client.post(`/v1/automation-runs/${run.id}/cancel`)).body.run).toEqual(cancelled.body.run);
  });
});

describe('runs of another organization', () => {
  it('answer 404 to read, cancel and list, and a read key may read runs but not enrol, preview or cancel (403)', async () => {
    const a = await organizationWithSender();
    const automationId = await createAutomation(a.client, [{ type: 'wait', duration: 'PT1H' }, { type: 'add_note', template: 'Later' }]);
    const run = await enrol(a.client, automationId, a.leadId);
    const b = await api.organization();
    expect((await b.client.get(`/v1/automation-runs/${run.id}`)).status).toBe(404);
    expect((await b.client.post(`/v1/automation-runs/${run.id}/cancel`)).status).toBe(404);
    expect((await b.client.get(`/v1/automations/${automationId}/runs`)).status).toBe(404);
    expect((await b.client.post(`/v1/automations/${automationId}/preview`, { leadId: a.leadId })).status).toBe(404);

    const read = api.as((await createApiKey(a.organizationId, null, 'Dashboard', 'read')).token);
    expect((await read.get(`/v1/automation-runs/${run.id}`)).status).toBe(200);
    expect((await read.get(`/v1/automations/${automationId}/runs`)).body.totalCount).toBe(1);
    for (const path of [`/v1/automation-runs/${run.id}/cancel`, `/v1/automations/${automationId}/runs`, `/v1/automations/${automationId}/preview`]) {
      expect((await read.post(path, path.endsWith('cancel') ? undefined : { leadId: a.leadId })).body.error).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    }
    await settle();
    expect((await readRun(a.client, run.id)).status).toBe('WAITING');
    expect((await a.client.get(`/v1/automations/${automationId}/runs`)).body.totalCount).toBe(1);
  });
});

describe('an automation’s runs changed since a time (updatedSince)', () => {
  const runsPath = (automationId: string, since: string, cursor?: string) => `/v1/automations/${automationId}/runs?updatedSince=${encodeURIComponent(since)}&limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const statuses = (page: { runs: any[] }) => page.runs.map((run) => [run.id, run.status, run.steps.map((step: any) => step.status)]);

  it('come oldest change first, and a run comes again in its latest state once its next step or a cancel moved it', async () => {
    const { client, leadId } = await organizationWithSender();
    const automationId = await createAutomation(client, [{ type: 'wait', duration: 'PT1H' }, { type: 'add_note', template: 'Checked in' }, { type: 'wait', duration: 'PT1H' }, { type: 'add_note', template: 'Checked in again' }]);
    const since = new Date(clock.now()).toISOString();
    const changed = async (cursor?: string) => {
      const res = await client.get(runsPath(automationId, since, cursor));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const first = await enrol(client, automationId, leadId);
    await api.advanceTime('PT1M');
    const second = await enrol(client, automationId, leadId);
    await settle();

    const waiting = await changed();
    expect(statuses(waiting)).toEqual([
      [first.id, 'WAITING', ['WAITING', 'PENDING', 'PENDING', 'PENDING']],
      [second.id, 'WAITING', ['WAITING', 'PENDING', 'PENDING', 'PENDING']],
    ]);
    expect(waiting.totalCount).toBe(2);
    expect((await changed(waiting.nextCursor)).runs).toEqual([]);

    // The first run's wait ends a minute before the second's: its next steps move it past the second in the log.
    await api.advanceTime('PT59M');
    const moved = await changed(waiting.nextCursor);
    expect(statuses(moved)).toEqual([[first.id, 'WAITING', ['DONE', 'DONE', 'WAITING', 'PENDING']]]);
    expect(moved.runs[0]).toEqual(await readRun(client, first.id));
    expect(moved.runs[0].updatedAt > waiting.runs[1].updatedAt).toBe(true);
    expect((await changed()).runs.map((run: any) => run.id)).toEqual([second.id, first.id]);

    await api.advanceTime('PT1S');
    expect((await client.post(`/v1/automation-runs/${second.id}/cancel`)).status).toBe(200);
    const cancelled = await changed(moved.nextCursor);
    expect(statuses(cancelled)).toEqual([[second.id, 'STOPPED', ['CANCELLED', 'CANCELLED', 'CANCELLED', 'CANCELLED']]]);
    const all = await changed();
    expect(all.runs.map((run: any) => run.id)).toEqual([first.id, second.id]);
    expect(all.totalCount).toBe(2);
  });

  it('answers 400 naming updatedSince with status, and 404 for an automation not there or of another organization', async () => {
    const { client, leadId } = await organizationWithSender();
    const automationId = await createAutomation(client, [{ type: 'wait', duration: 'PT1H' }, { type: 'add_note', template: 'Later' }]);
    const since = new Date(clock.now()).toISOString();
    const run = await enrol(client, automationId, leadId);
    await settle();
    expect((await client.get(runsPath(automationId, since))).body.runs.map((listed: any) => listed.id)).toEqual([run.id]);

    const both = await client.get(`${runsPath(automationId, since)}&status=WAITING`);
    expect(both.status).toBe(400);
    expect(both.body.error.details).toEqual([{ path: 'updatedSince', message: 'updatedSince cannot be combined with status' }]);
    const other = await api.organization();
    expect((await other.client.get(runsPath(automationId, since))).status).toBe(404);
    expect((await client.get(runsPath('automation_01JA0000000000000000000000', since))).status).toBe(404);
  });
});

describe('every message delivered twice', () => {
  it('makes each step’s effect once: one text per SMS step, one note, one status change', async () => {
    const { client, leadId } = await organizationWithSender();
    const [first, second] = [`First ${leadId}`, `Second ${leadId}`];
    const automationId = await createAutomation(client, [
      { type: 'send_sms', template: first },
      { type: 'wait', duration: 'PT1H' },
      { type: 'send_sms', template: second },
      { type: 'add_note', template: `Noted ${leadId}` },
      { type: 'set_lead_status', status: 'CONTACTED' },
    ]);
    routeMessages({ send: (messages) => [...messages, ...messages], schedule: (name, atMs) => [[name, atMs], [`${name}-twin`, atMs]] });
    const run = await enrol(client, automationId, leadId);
    // Its first steps run now, before the clock moves: the wait is due an hour from here.
    await settle();
    await api.advanceTime('PT2H');

    expect(textsOf(first)).toHaveLength(1);
    expect(textsOf(second)).toHaveLength(1);
    const activities = (await client.get(`/v1/leads/${leadId}/activities`)).body.activities;
    expect(activities.filter((activity: any) => activity.event === 'NOTE_ADDED')).toHaveLength(1);
    expect(activities.filter((activity: any) => activity.event === 'STATUS_CHANGED')).toHaveLength(1);
    expect((await client.get(`/v1/leads/${leadId}`)).body.lead.status).toBe('CONTACTED');
    const done = await readRun(client, run.id);
    expect(done.status).toBe('COMPLETED');
    expect(done.steps.map((step: any) => step.status)).toEqual(['DONE', 'DONE', 'DONE', 'DONE', 'DONE']);
  });

  it('when the step failed after its effect, sends the text once on the next delivery', async () => {
    const { client, leadId } = await organizationWithSender();
    const body = `Once only ${leadId}`;
    const automationId = await createAutomation(client, [{ type: 'send_sms', template: body }]);
    let failures = 1;
    setAfterEffect(async () => {
      if (failures-- > 0) throw new Error('lost after the effect');
    });
    const run = await enrol(client, automationId, leadId);
    await settle();
    expect(textsOf(body)).toHaveLength(1);
    expect((await readRun(client, run.id)).steps[0].status).toBe('RUNNING');
    // The failed message is handed again once the queue's visibility timeout (6 minutes) has passed.
    await api.advanceTime('PT7M');
    expect(textsOf(body)).toHaveLength(1);
    const done = await readRun(client, run.id);
    expect(done).toMatchObject({ status: 'COMPLETED' });
    expect(done.steps[0]).toMatchObject({ status: 'DONE', result: { smsId: textsOf(body)[0]!.messageId } });
  });
});

describe('a stale or late wake', () => {
  it('of a wake the run has left does nothing', async () => {
    const { client, organizationId, leadId } = await organizationWithSender();
    const body = `Not yet ${leadId}`;
    const automationId = await createAutomation(client, [{ type: 'wait', duration: 'PT1H' }, { type: 'send_sms', template: body }]);
    const run = await enrol(client, automationId, leadId);
    await settle();
    const waiting = await readRun(client, run.id);
    await runStepMessage({ kind: 'advance', organizationId, runId: run.id, wake: 0 });
    expect(await readRun(client, run.id)).toEqual(waiting);
    expect(textsOf(body)).toEqual([]);
    await api.advanceTime('PT1H');
    expect(textsOf(body)).toHaveLength(1);
    await runStepMessage({ kind: 'advance', organizationId, runId: run.id, wake: 1 });
    expect(textsOf(body)).toHaveLength(1);
  });

  it('after the appointment started skips its reminder as late', async () => {
    const { client, organizationId, leadId, userId } = await organizationWithSender();
    const body = `See you soon ${leadId}`;
    const automationId = await createAutomation(client, [{ type: 'wait', duration: 'PT2H', before: 'appointment.startsAt' }, { type: 'send_sms', template: body }], { trigger: { event: 'appointment.booked' } });
    const startsAt = new Date(Math.ceil((clock.now() + 4 * 3_600_000) / 60_000) * 60_000);
    const appointment = (await client.post('/v1/appointments', { leadId, title: 'Quote visit', startsAt: startsAt.toISOString(), endsAt: new Date(startsAt.getTime() + 3_600_000).toISOString(), attendees: [{ userId }] })).body.appointment;
    // The schedule never fires (an outage), so the run is woken late, by hand.
    routeMessages({ schedule: () => [] });
    const run = await enrol(client, automationId, leadId, appointment.id);
    await settle();
    expect((await readRun(client, run.id)).steps[0]).toMatchObject({ status: 'WAITING', dueAt: new Date(startsAt.getTime() - 7_200_000).toISOString() });
    await api.advanceTime('PT5H');
    await runStepMessage({ kind: 'advance', organizationId, runId: run.id, wake: 1 });
    const done = await readRun(client, run.id);
    expect(done.steps.map((step: any) => [step.status, step.result.reason])).toEqual([['DONE', undefined], ['SKIPPED', 'late']]);
    expect(done.status).toBe('COMPLETED');
    expect(textsOf(body)).toEqual([]);
  });
});

describe('a preview', () => {
  it('renders every step for the lead and sends and writes nothing', async () => {
    const { client, leadId } = await organizationWithSender();
    const automationId = await createAutomation(client, [{ type: 'send_sms', template: 'Hi {{lead.firstName|there}}' }, { type: 'wait', duration: 'P1D' }, { type: 'add_note', template: 'Followed up' }]);
    const before = sentLocally.length;
    const preview = await client.post(`/v1/automations/${automationId}/preview`, { leadId });
    expect(preview.status).toBe(200);
    const now = clock.now();
    expect(preview.body.preview.steps).toEqual([
      { index: 0, type: 'send_sms', dueAt: new Date(now).toISOString(), sms: { to: '+61412345001', body: 'Hi Olivia', characters: 9 } },
      { index: 1, type: 'wait', dueAt: new Date(now + 86_400_000).toISOString() },
      { index: 2, type: 'add_note', dueAt: new Date(now + 86_400_000).toISOString() },
    ]);
    await settle();
    expect(sentLocally.length).toBe(before);
    expect((await client.get(`/v1/automations/${automationId}/runs`)).body.totalCount).toBe(0);
  });
});

describe('an SMS step', () => {
  it('whose text renders over 1 600 characters fails, with its reason, and fails the run', async () => {
    const { client, leadId } = await organizationWithSender();
    await client.patch(`/v1/leads/${leadId}`, { firstName: 'O'.repeat(100) });
    const automationId = await createAutomation(client, [{ type: 'send_sms', template: `${'x'.repeat(1_570)}{{lead.firstName|there}}` }, { type: 'add_note', template: 'Never' }]);
    const run = await enrol(client, automationId, leadId);
    await settle();
    const failed = await readRun(client, run.id);
    const reason = 'rendered SMS is 1670 characters; at most 1600';
    expect(failed).toMatchObject({ status: 'FAILED', failedReason: reason });
    expect(failed.steps.map((step: any) => [step.status, step.result.reason])).toEqual([['FAILED', reason], ['CANCELLED', undefined]]);
  });

  it('in quiet hours waits until they end, marked deferredBy QUIET_HOURS, then is sent', async () => {
    const { client, leadId } = await organizationWithSender();
    const hour = new Date(clock.now()).getUTCHours();
    // Allowed for one hour starting two hours from now (UTC, the organization's timezone).
    const opens = (hour + 2) % 24;
    const [from, until] = [opens, opens + 1].map((h) => `${String(h).padStart(2, '0')}:00`);
    const body = `In hours ${leadId}`;
    const automationId = await createAutomation(client, [{ type: 'send_sms', template: body }], { quietHours: { allowedFrom: from, allowedUntil: until } });
    const run = await enrol(client, automationId, leadId);
    await settle();
    const opensAt = new Date(clock.now());
    opensAt.setUTCHours(hour + 2, 0, 0, 0);
    const deferred = await readRun(client, run.id);
    expect(deferred).toMatchObject({ status: 'WAITING', nextStepAt: opensAt.toISOString() });
    expect(deferred.steps[0]).toMatchObject({ status: 'WAITING', dueAt: opensAt.toISOString(), result: { deferredBy: 'QUIET_HOURS' } });
    expect(textsOf(body)).toEqual([]);
    await api.advanceTime('PT2H');
    expect(textsOf(body)).toHaveLength(1);
    expect((await readRun(client, run.id)).steps[0]).toMatchObject({ status: 'DONE', at: opensAt.toISOString(), result: { deferredBy: 'QUIET_HOURS' } });
  });

  it('past the per-lead daily cap is skipped DAILY_CAP_REACHED, and the run goes on', async () => {
    const { client, leadId } = await organizationWithSender();
    const runs = [];
    for (const n of [1, 2, 3, 4]) {
      const automationId = await createAutomation(client, [{ type: 'send_sms', template: `Number ${n} ${leadId}` }, { type: 'add_note', template: `After ${n}` }]);
      runs.push(await enrol(client, automationId, leadId));
      await settle();
    }
    expect([1, 2, 3, 4].map((n) => textsOf(`Number ${n} ${leadId}`).length)).toEqual([1, 1, 1, 0]);
    const last = await readRun(client, runs[3].id);
    expect(last.status).toBe('COMPLETED');
    expect(last.steps.map((step: any) => [step.status, step.result.reason])).toEqual([['SKIPPED', 'DAILY_CAP_REACHED'], ['DONE', undefined]]);
  });

  it('counts the per-lead daily cap on the organization’s local day, ahead of UTC and behind it: texts either side of UTC midnight share one, texts either side of local midnight do not', async () => {
    const halfHour = 1_800_000;
    const utcMidnight = Math.ceil((clock.now() + halfHour) / DAY_MS) * DAY_MS;
    // UTC's midnight is 11:00 (or 10:00) in Sydney and 16:00 (or 15:00) in Los Angeles; their own midnights come after it.
    const texts = [];
    for (const timezone of ['Australia/Sydney', 'America/Los_Angeles']) {
      const { client, leadId } = await organizationWithSender();
      expect((await client.patch('/v1/organization', { timezone, automationSmsDailyCap: 1 })).status).toBe(200);
      const other = (await client.post('/v1/leads', { name: 'Mia Wong', phone: '+61412345002' })).body.lead.id;
      const automationId = await createAutomation(client, [{ type: 'send_sms', template: 'Good day' }]);
      const localMidnight = instantOf(timezone, wallClockAt(timezone, utcMidnight + DAY_MS).date, 0);
      expect(wallClockAt(timezone, utcMidnight - halfHour).date).toBe(wallClockAt(timezone, utcMidnight + halfHour).date);
      expect(iso(localMidnight - halfHour).slice(0, 10)).toBe(iso(localMidnight + halfHour).slice(0, 10));
      const text = (atMs: number, leadId: string, status: string) => ({ timezone, client, automationId, atMs, leadId, status });
      texts.push(text(utcMidnight - halfHour, leadId, 'DONE'), text(utcMidnight + halfHour, leadId, 'SKIPPED'), text(localMidnight - halfHour, other, 'DONE'), text(localMidnight + halfHour, other, 'DONE'));
    }

    // The texts due at one instant (both organizations' either side of UTC midnight) are enrolled together.
    const ended = [];
    for (const atMs of [...new Set(texts.map((text) => text.atMs))].sort((a, b) => a - b)) {
      await api.advanceTime(atMs - clock.now());
      const due = texts.filter((text) => text.atMs === atMs);
      const runs = await Promise.all(due.map(({ client, automationId, leadId }) => enrol(client, automationId, leadId)));
      await settle();
      for (const [i, { timezone, client, status }] of due.entries()) {
        const step = (await readRun(client, runs[i].id)).steps[0];
        ended.push([timezone, iso(atMs), step.status, step.result.reason ?? null]);
        expect(step.status, `${timezone} at ${iso(atMs)}`).toBe(status);
      }
    }
    expect(ended.filter(([, , status]) => status === 'SKIPPED').map(([, , , reason]) => reason)).toEqual(['DAILY_CAP_REACHED', 'DAILY_CAP_REACHED']);
  });
});

describe('a webhook step', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('posts the run’s step signed with the automation’s secret, tried again a minute apart until the receiver takes it', async () => {
    const { client, leadId } = await organizationWithSender();
    const created = await client.post('/v1/automations', { name: 'CRM sync', trigger: BY_HAND, steps: [{ type: 'webhook', url: receiver.url }], quietHours: ALWAYS });
    const { automation, signingSecret } = created.body;
    receiver.received.length = 0;
    receiver.answerWith(503, 500);
    const run = await enrol(client, automation.id, leadId);
    await settle();
    expect((await readRun(client, run.id)).steps[0]).toMatchObject({ status: 'WAITING', result: { attempts: 1, webhookStatus: 503, reason: 'answered 503' } });
    await api.advanceTime('PT1M');
    await api.advanceTime('PT1M');
    expect(receiver.received.map((post) => post.answered)).toEqual([503, 500, 200]);
    for (const post of receiver.received) {
      expect(post.headers['webhook-id']).toBe(`${run.id}_0`);
      const body = new StandardWebhook(signingSecret).verify(post.body, post.headers as Record<string, string>);
      expect(body).toMatchObject({ type: 'automation_run.step', runId: run.id, automationId: automation.id, stepIndex: 0, lead: { id: leadId }, appointment: null });
    }
    expect(await readRun(client, run.id)).toMatchObject({ status: 'COMPLETED', steps: [{ status: 'DONE', result: { attempts: 3, webhookStatus: 200 } }] });
  });

  it('delivered three times at once, is claimed by one delivery: one post, one text', async () => {
    const { client, organizationId, leadId } = await organizationWithSender();
    const body = `Together ${leadId}`;
    const automationId = await createAutomation(client, [{ type: 'webhook', url: receiver.url }, { type: 'send_sms', template: body }]);
    receiver.received.length = 0;
    receiver.answerWith(503);
    // The retry's schedule never fires: the test hands its message three times at once itself.
    routeMessages({ schedule: () => [] });
    const run = await enrol(client, automationId, leadId);
    await settle();
    expect((await readRun(client, run.id)).steps[0]).toMatchObject({ status: 'WAITING', result: { attempts: 1 } });
    await api.advanceTime('PT1M');
    await Promise.all([1, 2, 3].map(() => runStepMessage({ kind: 'advance', organizationId, runId: run.id, wake: 1 })));
    await settle();
    expect(receiver.received.map((post) => post.answered)).toEqual([503, 200]);
    expect(textsOf(body)).toHaveLength(1);
    expect(await readRun(client, run.id)).toMatchObject({ status: 'COMPLETED', steps: [{ status: 'DONE', result: { attempts: 2 } }, { status: 'DONE' }] });
  });

  it('is refused at send time when its address is private, and fails the run after three attempts', async () => {
    const { client, leadId } = await organizationWithSender();
    const automationId = await createAutomation(client, [{ type: 'webhook', url: receiver.url }]);
    receiver.received.length = 0;
    webhookSettings.allowPrivateUrls = false;
    try {
      const run = await enrol(client, automationId, leadId);
      await settle();
      await api.advanceTime('PT1M');
      await api.advanceTime('PT1M');
      const failed = await readRun(client, run.id);
      expect(failed).toMatchObject({ status: 'FAILED', failedReason: expect.stringMatching(/^webhook no answer: url must /) });
      expect(failed.steps[0]).toMatchObject({ status: 'FAILED', result: { attempts: 3, webhookStatus: null } });
    } finally {
      webhookSettings.allowPrivateUrls = true;
    }
    expect(receiver.received).toEqual([]);
  });
});

describe('one organization’s bulk enrolment and another’s missed call', () => {
  it('takes the quiet organization’s text-back step at the first slot that frees, not behind the bulk enrolment’s steps queued before it', async () => {
    const bulk = await api.organization({ usagePlan: 'internal' });
    const quiet = await api.organization();
    const followUp = await createAutomation(bulk.client, [{ type: 'send_sms', template: 'Thanks for asking about a quote.' }, { type: 'wait', duration: 'P1D' }, { type: 'send_sms', template: 'Still keen on that quote?' }]);
    expect((await quiet.client.post('/v1/automations', { fromTemplate: 'missed_call_text_back', quietHours: ALWAYS })).status).toBe(201);
    const slots = DEFAULT_CONCURRENCY.deliveries;
    const leads = await Promise.all(Array.from({ length: 2 * slots }, (_, i) => bulk.client.post('/v1/leads', { name: `Bulk Lead ${i}`, phone: `+6141377${String(i).padStart(4, '0')}` })));

    // The enrolment's steps and the missed call's are queued together, the enrolment's first, as the stream and the
    // enrolling requests send them at once.
    const queued: StepMessage[] = [];
    const engine = automationEngine();
    setAutomationEngine({ queue: { send: async (messages) => void queued.push(...messages) }, scheduler: engine.scheduler });
    restore = () => setAutomationEngine(engine);
    const runs = await Promise.all(leads.map((lead) => enrol(bulk.client, followUp, lead.body.lead.id)));
    await quiet.client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412377001', name: 'Quiet Caller' }, data: { summary: 'Hung up before anyone answered.', missed: true } });
    await api.eventsCaughtUp();
    restore();
    const quietRun = queued.find((message) => message.organizationId === quiet.organizationId)!;
    expect(queued.map((message) => message.organizationId)).toEqual([...runs.map(() => bulk.organizationId), quiet.organizationId]);

    // Each step taken reads its run first: the order of those reads is the order the queue handed the steps.
    const runOf = new Map([...runs.map((run) => [JSON.stringify(runKeys.run(bulk.organizationId, run.id)), run.id] as const), [JSON.stringify(runKeys.run(quiet.organizationId, quietRun.runId)), quietRun.runId]]);
    const taken: string[] = [];
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const runId = context.commandName === 'GetItemCommand' ? runOf.get(JSON.stringify((args.input as { Key: unknown }).Key)) : undefined;
        if (runId && !taken.includes(runId)) taken.push(runId);
        return next(args);
      },
      { step: 'initialize', name: 'stepsTaken' },
    );
    try {
      await engine.queue.send(queued);
      await settle();
    } finally {
      dynamo.middlewareStack.remove('stepsTaken');
    }
    // The bulk steps filled the slots; the first to free took the text-back (K = 1), ahead of the 10 bulk steps waiting.
    // On a slow machine a slot may free before the last is filled: the text-back is then taken sooner, never later.
    expect(taken.indexOf(quietRun.runId)).toBeGreaterThanOrEqual(0);
    expect(taken.indexOf(quietRun.runId)).toBeLessThanOrEqual(slots);
    expect(taken).toHaveLength(runs.length + 1);
    expect(sentFor(quiet.organizationId).map(({ to }) => to)).toEqual(['+61412377001']);
    expect(sentFor(bulk.organizationId)).toHaveLength(runs.length);
  });
});
