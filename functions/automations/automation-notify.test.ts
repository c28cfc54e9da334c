import { Metrics } from '@aws-lambda-powertools/metrics';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { TTL_ATTRIBUTE } from '#shared/table';
import { instantOf, wallClockAt } from '#shared/schedule';
import { setSmsSender } from '../sms/sender';
import { automationSteps } from './engine/channels';
import { setAfterEffect } from './engine/engine';
import { LIMITS } from './catalog';
import { runKeys } from './runs/entity';
import { RUNS_REFUSED_METRIC } from './runs/start';
import { useTestApi, type Client } from '../../test/support/api';
import { DAY_MS, iso, leadWithPhone, onlyRunOf, runsOf, sentFor, SYDNEY, sydneyAutomations } from '../../test/support/automations';
import { created } from '../../test/support/fixtures';
import { losingFirstAnswer } from '../../test/support/sms';

/**
 * An automation's `notify_member` step end to end: a missed call comes in over HTTP, the stream starts the run, the
 * engine makes the step on a clock the test moves, and the local provider records the text to the member.
 */
const api = useTestApi({ events: true, clock: 'manual' });
const { sydneyOrganization, settled, untilLocal, advanceTo, reply } = sydneyAutomations(api);

afterEach(() => {
  setAfterEffect(async () => {});
  vi.restoreAllMocks();
});

/** What the member is told; `member.firstName` is the step's own member. */
const MISSED_CALL = '{{member.firstName}}: missed call from {{lead.firstName|a new caller}}, {{lead.phone}}';
const TEXT_BACK = "Sorry we missed your call, {{lead.firstName|there}}: we'll ring you back.";

/** A Sydney organization with Kate, a member with a phone of her own. */
async function organizationWithKate(phone: string) {
  const organization = await sydneyOrganization();
  const member = await created(organization.client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng', phone });
  expect(member.phone).toBe(phone);
  return { ...organization, member };
}

const notifyStep = (memberId: number) => ({ type: 'notify_member', memberId, template: MISSED_CALL });
const onMissedCall = (client: Client, steps: unknown[], name = 'Tell Kate of missed calls') => created(client, '/v1/automations', 'automation', { name, trigger: { event: 'call.missed' }, steps });

/** A CALL inquiry its platform says nobody answered (`callOutcome` MISSED), or one that was (`missed: false`). */
async function call(client: Client, phone: string, { missed = true, name }: { missed?: boolean; name?: string } = {}) {
  const inquiry = await created(client, '/v1/inquiries', 'inquiry', { source: 'CALL', lead: { phone, ...(name ? { name } : {}) }, data: { summary: 'Rang about a leaking tap.', missed } });
  expect(inquiry.callOutcome).toBe(missed ? 'MISSED' : 'ANSWERED');
  return inquiry;
}

/** Lets the step queue hand again a message whose delivery threw: it is hidden for its visibility timeout. */
const redelivered = () => api.advanceTime(automationSteps.visibilityTimeoutSeconds * 1000);

describe('a notify_member step on a missed call', () => {
  it('texts the member the rendered template once, from the organization’s number, and the run completes naming the text', async () => {
    const { client, organizationId, number, member } = await organizationWithKate('+61400555201');
    const automation = await onMissedCall(client, [notifyStep(member.id)]);
    const tenAm = await untilLocal('10:00');
    const inquiry = await call(client, '+61412555201', { name: 'Olivia Nguyen' });
    // A call that was answered is no missed call: nobody is told.
    await call(client, '+61412555202', { missed: false });
    await settled();
    await api.advanceTime('PT1H');

    const sent = sentFor(organizationId);
    expect(sent.map(({ from, to, body, memberId }) => ({ from, to, body, memberId }))).toEqual([{ from: number, to: '+61400555201', body: 'Kate: missed call from Olivia, +61412555201', memberId: member.id }]);
    const run = await onlyRunOf(client, automation.id);
    expect(run).toMatchObject({ leadId: inquiry.leadId, status: 'COMPLETED', failedReason: null, steps: [{ index: 0, type: 'notify_member', status: 'DONE', at: iso(tenAm) }] });
    expect(run.steps[0].result).toEqual({ smsId: sent[0]!.messageId });
    // A text to a member is no message of the lead's: the lead's conversation does not show it.
    expect((await client.get(`/v1/sms?leadId=${inquiry.leadId}`)).body.messages).toEqual([]);
  });

  it('keeps the text’s marker 30 days, as every step’s marker', async () => {
    const { client, organizationId, member } = await organizationWithKate('+61400555211');
    const automation = await onMissedCall(client, [notifyStep(member.id)]);
    const tenAm = await untilLocal('10:00');
    await call(client, '+61412555211');
    await settled();

    const run = await onlyRunOf(client, automation.id);
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: runKeys.stepMarker(organizationId, run.id, 0), ConsistentRead: true }));
    expect(Item).toMatchObject({ status: 'SENT', messageId: run.steps[0].result.smsId, [TTL_ATTRIBUTE]: Math.floor(tenAm / 1000) + 30 * 86_400 });
  });
});

describe('a notify_member step handed again', () => {
  it('texts the member once when the runner stops between sending and recording the step', async () => {
    const { client, organizationId, member } = await organizationWithKate('+61400555221');
    const automation = await onMissedCall(client, [notifyStep(member.id)]);
    await untilLocal('10:00');
    let effects = 0;
    setAfterEffect(async () => {
      if (++effects === 1) throw new Error('runner stopped before recording the step');
    });
    await call(client, '+61412555221');
    await settled();
    expect(sentFor(organizationId)).toHaveLength(1);
    expect((await onlyRunOf(client, automation.id)).status).not.toBe('COMPLETED');

    await redelivered();
    expect(effects).toBe(2);
    const sent = sentFor(organizationId);
    expect(sent).toHaveLength(1);
    expect(await onlyRunOf(client, automation.id)).toMatchObject({ status: 'COMPLETED', steps: [{ status: 'DONE', result: { smsId: sent[0]!.messageId } }] });
  });

  it('never texts the member again when the provider took the text and its answer was lost: the step fails unconfirmed, naming the text', async () => {
    const { client, organizationId, member } = await organizationWithKate('+61400555231');
    const automation = await onMissedCall(client, [notifyStep(member.id)]);
    await untilLocal('10:00');
    const previous = setSmsSender(losingFirstAnswer(new Error('connection reset after the provider accepted the message')));
    try {
      await call(client, '+61412555231');
      await settled();
      await redelivered();
    } finally {
      setSmsSender(previous);
    }

    const sent = sentFor(organizationId);
    expect(sent).toHaveLength(1);
    const run = await onlyRunOf(client, automation.id);
    expect(run).toMatchObject({ status: 'FAILED', failedReason: 'NOT_CONFIRMED', steps: [{ status: 'FAILED' }] });
    expect(run.steps[0].result).toEqual({ reason: 'NOT_CONFIRMED', smsId: sent[0]!.messageId });
  });
});

describe('the rules of texts to leads, for a text to a member', () => {
  it('texts the member at once in quiet hours, while the text back to the lead waits for 08:00', async () => {
    const { client, organizationId, member } = await organizationWithKate('+61400555241');
    const automation = await onMissedCall(client, [notifyStep(member.id), { type: 'send_sms', template: TEXT_BACK }]);
    const tenPm = await untilLocal('22:00');
    const eightAm = instantOf(SYDNEY, wallClockAt(SYDNEY, tenPm + DAY_MS).date, 8 * 60);
    await call(client, '+61412555241');
    await settled();

    const [toKate] = sentFor(organizationId);
    expect(sentFor(organizationId).map(({ to }) => to)).toEqual(['+61400555241']);
    const waiting = await onlyRunOf(client, automation.id);
    expect(waiting).toMatchObject({ status: 'WAITING', steps: [{ type: 'notify_member', status: 'DONE', at: iso(tenPm) }, { type: 'send_sms', status: 'WAITING', dueAt: iso(eightAm), result: { deferredBy: 'QUIET_HOURS' } }] });
    expect(waiting.steps[0].result).toEqual({ smsId: toKate!.messageId });

    await advanceTo(eightAm);
    expect(sentFor(organizationId).map(({ to }) => to)).toEqual(['+61400555241', '+61412555241']);
    expect(await onlyRunOf(client, automation.id)).toMatchObject({ status: 'COMPLETED' });
  });

  it('texts the member of a lead who opted out; a run that reaches the lead’s text first stops there, before telling anyone', async () => {
    const { client, organizationId, number, member } = await organizationWithKate('+61400555251');
    const notifyFirst = await onMissedCall(client, [notifyStep(member.id), { type: 'send_sms', template: TEXT_BACK }]);
    const textFirst = await onMissedCall(client, [{ type: 'send_sms', template: TEXT_BACK }, notifyStep(member.id)], 'Text back, then tell Kate');
    await untilLocal('10:00');
    const lead = await leadWithPhone(client, '+61412555251');
    await reply('+61412555251', number, 'STOP');
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.smsOptedOut).toBe(true);

    await call(client, '+61412555251');
    await settled();

    const sent = sentFor(organizationId);
    expect(sent.map(({ to, body }) => ({ to, body }))).toEqual([{ to: '+61400555251', body: 'Kate: missed call from Olivia, +61412555251' }]);
    expect(await onlyRunOf(client, notifyFirst.id)).toMatchObject({
      leadId: lead.id,
      status: 'STOPPED',
      stoppedReason: 'lead.opted_out',
      steps: [{ status: 'DONE', result: { smsId: sent[0]!.messageId } }, { status: 'SKIPPED', result: { reason: 'OPTED_OUT' } }],
    });
    expect(await onlyRunOf(client, textFirst.id)).toMatchObject({ status: 'STOPPED', stoppedReason: 'lead.opted_out', steps: [{ status: 'SKIPPED', result: { reason: 'OPTED_OUT' } }, { status: 'CANCELLED' }] });
  });

  it('texts the member of a lead at the daily cap, and does not count toward it', async () => {
    const { client, organizationId, member } = await organizationWithKate('+61400555261');
    expect((await client.patch('/v1/organization', { automationSmsDailyCap: 1 })).status).toBe(200);
    const automation = await onMissedCall(client, [notifyStep(member.id), { type: 'send_sms', template: TEXT_BACK }]);
    await untilLocal('10:00');
    await call(client, '+61412555261');
    await settled();
    await api.advanceTime('PT5M');
    await call(client, '+61412555261');
    await settled();

    // The member's first text took nothing of the lead's one a day; the second call, with the lead at its cap, is still told.
    expect(sentFor(organizationId).map(({ to }) => to)).toEqual(['+61400555261', '+61412555261', '+61400555261']);
    const [second, first] = await runsOf(client, automation.id);
    expect(first).toMatchObject({ status: 'COMPLETED', steps: [{ status: 'DONE' }, { status: 'DONE' }] });
    expect(second).toMatchObject({ status: 'COMPLETED', steps: [{ status: 'DONE' }, { status: 'SKIPPED', result: { reason: 'DAILY_CAP_REACHED' } }] });
  });
});

/** Sets a day's count of a cap (`runKeys.dailyRuns`, `runKeys.memberDailyCap`) as if that many had gone already. */
const countSoFar = (key: { pk: string; sk: string }, count: number) =>
  dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: key, UpdateExpression: 'SET #count = :count', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':count': count } }));

describe('what bounds runs', () => {
  it('ends two automations that trigger each other at the third run of the chain: the fourth is recorded STOPPED LOOP_DETECTED, with its event and a count', async () => {
    const { client, organizationId, member } = await organizationWithKate('+61400555271');
    // The pair: a lead moved to QUOTED is told to Kate and moved to WON; one moved to WON is told to Kate and moved to QUOTED.
    const onStatus = (name: string, to: string, next: string) =>
      created(client, '/v1/automations', 'automation', { name, trigger: { event: 'lead.status_changed', filter: { to } }, steps: [{ type: 'notify_member', memberId: member.id, template: `{{lead.firstName|A lead}} is ${to}` }, { type: 'set_lead_status', status: next }] });
    const x = await onStatus('Win on quote', 'QUOTED', 'WON');
    const y = await onStatus('Quote on win', 'WON', 'QUOTED');
    await untilLocal('10:00');
    const lead = await leadWithPhone(client, '+61412555271');
    await settled();
    const counted = vi.spyOn(Metrics.prototype, 'addMetric');

    expect((await client.patch(`/v1/leads/${lead.id}`, { status: 'QUOTED' })).status).toBe(200);
    await settled();
    await api.advanceTime('PT1H');

    // X (the PATCH's), Y (X's write), X (Y's write); the run Y's last write would start is the chain's fourth.
    const outcome = (runs: any[]) => runs.map(({ status, stoppedReason, steps }) => [status, stoppedReason, steps.map((step: any) => step.status)]);
    expect(outcome(await runsOf(client, x.id))).toEqual([
      ['COMPLETED', null, ['DONE', 'DONE']],
      ['COMPLETED', null, ['DONE', 'DONE']],
    ]);
    const yRuns = await runsOf(client, y.id);
    expect(outcome(yRuns)).toEqual([
      ['STOPPED', 'LOOP_DETECTED', ['CANCELLED', 'CANCELLED']],
      ['COMPLETED', null, ['DONE', 'DONE']],
    ]);
    expect(sentFor(organizationId, member.phone).map(({ body }) => body)).toEqual(['Olivia is QUOTED', 'Olivia is WON', 'Olivia is QUOTED']);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.status).toBe('WON');

    const stopped = (await client.get('/v1/events?type=automation_run.stopped')).body.events;
    expect(stopped.map((event: any) => [event.data.id, event.data.stoppedReason])).toEqual([[yRuns[0].id, 'LOOP_DETECTED']]);
    // Recorded stopped, it is listed with the runs that stopped, under its reason.
    expect((await client.get('/v1/automation-runs?stoppedReason=LOOP_DETECTED')).body).toMatchObject({ runs: [yRuns[0]], totalCount: 1 });
    expect(counted.mock.calls.filter(([name]) => name === RUNS_REFUSED_METRIC)).toEqual([[RUNS_REFUSED_METRIC, 'Count', 1]]);
  });

  it(`texts one member at most ${LIMITS.dailyTextsPerMember} times a local day: the next is skipped DAILY_CAP_REACHED and the run goes on; the next day counts afresh`, async () => {
    const { client, organizationId, member } = await organizationWithKate('+61400555281');
    const automation = await onMissedCall(client, [notifyStep(member.id), { type: 'add_note', template: 'Kate was told.' }]);
    const tenAm = await untilLocal('10:00');
    await countSoFar(runKeys.memberDailyCap(organizationId, member.id, wallClockAt(SYDNEY, tenAm).date), LIMITS.dailyTextsPerMember - 1);
    await call(client, '+61412555281');
    await settled();
    await call(client, '+61412555282');
    await settled();

    expect(sentFor(organizationId, member.phone)).toHaveLength(1);
    const [second, first] = await runsOf(client, automation.id);
    expect(first).toMatchObject({ status: 'COMPLETED', steps: [{ status: 'DONE' }, { status: 'DONE' }] });
    expect(second).toMatchObject({ status: 'COMPLETED', steps: [{ status: 'SKIPPED', result: { reason: 'DAILY_CAP_REACHED' } }, { status: 'DONE' }] });

    await untilLocal('10:00');
    await call(client, '+61412555283');
    await settled();
    expect(sentFor(organizationId, member.phone)).toHaveLength(2);
  });

  it(`starts at most ${LIMITS.runsPerLeadPerDay} runs of one automation for one lead a local day: the next is recorded STOPPED DAILY_RUN_CAP_REACHED; the next day counts afresh`, async () => {
    const { client, organizationId } = await sydneyOrganization();
    const automation = await created(client, '/v1/automations', 'automation', { name: 'Note moves', trigger: { event: 'lead.status_changed' }, steps: [{ type: 'add_note', template: 'Moved.' }] });
    const tenAm = await untilLocal('10:00');
    const lead = await leadWithPhone(client, '+61412555291');
    await countSoFar(runKeys.dailyRuns(organizationId, automation.id, lead.id, wallClockAt(SYDNEY, tenAm).date), LIMITS.runsPerLeadPerDay - 1);
    for (const status of ['CONTACTED', 'QUALIFIED']) {
      expect((await client.patch(`/v1/leads/${lead.id}`, { status })).status).toBe(200);
      await settled();
    }
    expect((await runsOf(client, automation.id)).map(({ status, stoppedReason }) => [status, stoppedReason])).toEqual([
      ['STOPPED', 'DAILY_RUN_CAP_REACHED'],
      ['COMPLETED', null],
    ]);

    await untilLocal('10:00');
    expect((await client.patch(`/v1/leads/${lead.id}`, { status: 'QUOTED' })).status).toBe(200);
    await settled();
    expect((await runsOf(client, automation.id))[0]).toMatchObject({ status: 'COMPLETED' });
  });
});
