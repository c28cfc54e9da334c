import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { instantOf, wallClockAt } from '#shared/schedule';
import { localTime } from '#shared/local-time';
import { handler as recordStreamBatch } from '../stream/record';
import { setSmsSender } from '../sms/sender';
import { automationSteps } from './engine/channels';
import { automationEngine, setAfterEffect } from './engine/engine';
import { useTestApi, type Client } from '../../test/support/api';
import { DAY_MS, iso, leadWithPhone, onlyRunOf, runsOf, sentFor, SYDNEY, sydneyAutomations } from '../../test/support/automations';
import { created } from '../../test/support/fixtures';
import { edited, platformPosts, RETELL_CALL_ANALYZED, retellEndpoint } from '../../test/support/call-platforms';
import { losingFirstAnswer } from '../../test/support/sms';
import { streamRecordsOf } from '../../test/support/stream-records';

/**
 * The recipes end to end, as an organization in Sydney meets them: the events come from the table's stream, the
 * waits from the engine's timers on a clock the test moves (`advanceTime`), the SMS through the local provider.
 */
const api = useTestApi({ events: true, clock: 'manual' });
const { postRetell } = platformPosts(api);
const { sydneyOrganization, settled, untilLocal, advanceTo, reply } = sydneyAutomations(api);

afterEach(() => {
  setAfterEffect(async () => {});
});

const fromTemplate = (client: Client, id: string, overrides: Record<string, unknown> = {}) => created(client, '/v1/automations', 'automation', { fromTemplate: id, ...overrides });

/** Retell's call_analyzed of a call of its own from `phone` that ended for `reason` after `seconds`. */
const retellCall = (phone: string, reason: string, seconds: number) =>
  edited(RETELL_CALL_ANALYZED, ({ call }) => Object.assign(call, { call_id: `call_${randomUUID()}`, from_number: phone, disconnection_reason: reason, end_timestamp: call.start_timestamp + seconds * 1000 }));

/** A web form's inquiry from a new lead with a phone. */
const webForm = (client: Client, phone: string) =>
  created(client, '/v1/inquiries', 'inquiry', {
    source: 'WEBFORM',
    lead: { phone, name: 'Mia Wong' },
    data: { formName: 'Contact us', fields: [{ name: 'message', label: 'Message', value: 'Leaking tap' }], submittedAt: iso(api.clock.now()), pageUrl: null },
  });

const missedCallText = (firstName: string | null, organization: string) => `Sorry we missed your call, ${firstName ?? 'there'}. This is ${organization}: reply here and we'll call you back.`;

describe('automations from their recipes', () => {
  it('texts a caller back after a missed Retell call', async () => {
    const { client, organizationId, name } = await sydneyOrganization();
    const automation = await fromTemplate(client, 'missed_call_text_back');
    await untilLocal('10:00');
    const endpoint = await retellEndpoint(client);

    const missed = await postRetell(endpoint, retellCall('+61412555019', 'user_hangup', 8));
    expect(missed.body.inquiry.callOutcome).toBe('MISSED');
    // A call the caller stayed on: answered, so no text.
    expect((await postRetell(endpoint, retellCall('+61412555020', 'user_hangup', 60))).body.inquiry.callOutcome).toBe('ANSWERED');
    await settled();

    const lead = (await client.get(`/v1/leads/${missed.body.inquiry.leadId}`)).body.lead;
    const sent = sentFor(organizationId);
    expect(sent.map(({ to, body }) => ({ to, body }))).toEqual([{ to: '+61412555019', body: missedCallText(lead.firstName, name) }]);
    const [event] = (await client.get('/v1/events?type=inquiry.created&limit=10')).body.events.filter((candidate: any) => candidate.data.id === missed.body.inquiry.id);
    const run = await onlyRunOf(client, automation.id);
    expect(run).toMatchObject({ automationId: automation.id, leadId: lead.id, triggerEventId: event.id, status: 'COMPLETED', steps: [{ index: 0, type: 'send_sms', status: 'DONE', result: { smsId: sent[0]!.messageId } }] });
    expect((await client.get(`/v1/sms?leadId=${lead.id}`)).body.messages).toMatchObject([{ id: sent[0]!.messageId, direction: 'OUTBOUND', body: sent[0]!.body, userId: null }]);
  });

  it('stops the quote follow-up when the lead replies', async () => {
    const { client, organizationId, number } = await sydneyOrganization();
    const automation = await fromTemplate(client, 'quote_follow_up');
    const lead = await leadWithPhone(client, '+61412555031');
    await untilLocal('10:00');
    const deleted = vi.spyOn(automationEngine().scheduler, 'delete');
    try {
      expect((await client.patch(`/v1/leads/${lead.id}`, { status: 'QUOTED' })).status).toBe(200);
      await settled();
      const waiting = await onlyRunOf(client, automation.id);
      expect(waiting).toMatchObject({ status: 'WAITING', steps: [{ index: 0, type: 'wait', status: 'WAITING', dueAt: iso(api.clock.now() + 2 * DAY_MS) }, { status: 'PENDING' }, { status: 'PENDING' }, { status: 'PENDING' }] });

      await api.advanceTime('P1D');
      await reply('+61412555031', number, 'Thanks, we will go ahead');
      await api.advanceTime('P5D');

      expect(sentFor(organizationId)).toEqual([]);
      expect(await onlyRunOf(client, automation.id)).toMatchObject({ id: waiting.id, status: 'STOPPED', stoppedReason: 'lead.replied' });
      expect(deleted.mock.calls.map(([name]) => name).filter((name) => name.startsWith(waiting.id))).not.toEqual([]);
    } finally {
      deleted.mockRestore();
    }
  });

  it('moves the 24 h reminder with the appointment, and stops when it is cancelled', async () => {
    const { client, organizationId } = await sydneyOrganization();
    const member = await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
    const lead = await leadWithPhone(client, '+61412555041');
    const automation = await fromTemplate(client, 'appointment_reminders');
    const booking = (startsAt: number) => ({ leadId: lead.id, title: 'Blocked drain inspection', startsAt: iso(startsAt), endsAt: iso(startsAt + 3_600_000), attendees: [{ userId: member.user.id }] });
    const twoPm = await untilLocal('14:00');
    const first = await created(client, '/v1/appointments', 'appointment', booking(twoPm + 3 * DAY_MS));
    const second = await created(client, '/v1/appointments', 'appointment', booking(twoPm + 4 * DAY_MS));
    await settled();
    // Each booking is confirmed at once, with its time as the business says it.
    expect(sentFor(organizationId).map(({ body }) => body)).toEqual([expect.stringContaining(localTime(SYDNEY, first.startsAt).label), expect.stringContaining(localTime(SYDNEY, second.startsAt).label)]);

    const moved = twoPm + 5 * DAY_MS;
    expect((await client.patch(`/v1/appointments/${first.id}`, { startsAt: iso(moved), endsAt: iso(moved + 3_600_000) })).status).toBe(200);
    expect((await client.patch(`/v1/appointments/${second.id}`, { status: 'CANCELLED' })).status).toBe(200);
    await settled();
    const runs = await runsOf(client, automation.id);
    const runOf = (appointmentId: string) => runs.find((run) => run.appointmentId === appointmentId);
    expect(runOf(first.id)).toMatchObject({ status: 'WAITING', steps: [{ status: 'DONE' }, { type: 'wait', status: 'WAITING', dueAt: iso(moved - DAY_MS) }, {}, {}, {}] });
    expect(runOf(second.id)).toMatchObject({ status: 'STOPPED', stoppedReason: 'appointment.cancelled' });

    // The old time of the 24 h reminder passes with nothing sent; the new one sends it, and two hours before, the last.
    await advanceTo(twoPm + 2 * DAY_MS + 60_000);
    expect(sentFor(organizationId)).toHaveLength(2);
    await advanceTo(moved - DAY_MS + 60_000);
    expect(sentFor(organizationId)).toHaveLength(3);
    await advanceTo(moved);
    expect(sentFor(organizationId)).toHaveLength(4);
    expect(sentFor(organizationId).every(({ to }) => to === lead.phone)).toBe(true);
    expect((await runsOf(client, automation.id)).find((run) => run.appointmentId === first.id)).toMatchObject({ status: 'COMPLETED' });
  });

  it('defers a web-form reply made at 22:00 to 08:00', async () => {
    const { client, organizationId } = await sydneyOrganization();
    const automation = await fromTemplate(client, 'webform_instant_reply');
    const tenPm = await untilLocal('22:00');
    const eightAm = instantOf(SYDNEY, wallClockAt(SYDNEY, tenPm + DAY_MS).date, 8 * 60);
    await webForm(client, '+61412555051');
    await settled();
    expect(sentFor(organizationId)).toEqual([]);
    expect(await onlyRunOf(client, automation.id)).toMatchObject({ status: 'WAITING', nextStepAt: iso(eightAm), steps: [{ type: 'send_sms', status: 'WAITING', dueAt: iso(eightAm), result: { deferredBy: 'QUIET_HOURS' } }] });

    await advanceTo(eightAm);
    expect(sentFor(organizationId)).toHaveLength(1);
    expect(await onlyRunOf(client, automation.id)).toMatchObject({ status: 'COMPLETED', steps: [{ status: 'DONE', at: iso(eightAm) }] });

    // A form at 22:00 the night before a day the business is closed waits for the morning after it.
    const closed = wallClockAt(SYDNEY, eightAm + DAY_MS).date;
    expect((await client.patch('/v1/organization', { closedDates: [closed] })).status).toBe(200);
    await untilLocal('22:00');
    await webForm(client, '+61412555052');
    await settled();
    const dayAfter = instantOf(SYDNEY, wallClockAt(SYDNEY, eightAm + 2 * DAY_MS).date, 8 * 60);
    expect((await runsOf(client, automation.id))[0]).toMatchObject({ status: 'WAITING', steps: [{ status: 'WAITING', dueAt: iso(dayAfter), result: { deferredBy: 'QUIET_HOURS' } }] });
    await advanceTo(dayAfter - 60_000);
    expect(sentFor(organizationId, '+61412555052')).toEqual([]);
    await advanceTo(dayAfter);
    expect(sentFor(organizationId, '+61412555052')).toHaveLength(1);
  });

  it('sends at most 3 automated SMS a day to one lead', async () => {
    const { client, organizationId } = await sydneyOrganization();
    const automations = [];
    for (const name of ['Reply one', 'Reply two', 'Reply three', 'Reply four']) automations.push(await fromTemplate(client, 'webform_instant_reply', { name }));
    await untilLocal('10:00');
    await webForm(client, '+61412555061');
    await settled();
    expect(sentFor(organizationId)).toHaveLength(3);
    const steps = (await Promise.all(automations.map(async ({ id }) => (await onlyRunOf(client, id)).steps[0]))).map(({ status, result }) => ({ status, reason: result?.reason ?? null }));
    expect(steps.filter(({ status }) => status === 'DONE')).toHaveLength(3);
    expect(steps.filter(({ status }) => status === 'SKIPPED')).toEqual([{ status: 'SKIPPED', reason: 'DAILY_CAP_REACHED' }]);

    // The next local day counts afresh.
    await untilLocal('10:00');
    await webForm(client, '+61412555061');
    await settled();
    expect(sentFor(organizationId)).toHaveLength(6);
  });

  it('starts one run for a stream batch handed again an hour later', async () => {
    const { client, organizationId } = await sydneyOrganization();
    const automation = await fromTemplate(client, 'missed_call_text_back');
    const followUp = await fromTemplate(client, 'quote_follow_up');
    await untilLocal('10:00');
    await postRetell(await retellEndpoint(client), retellCall('+61412555071', 'user_hangup', 8));
    const quoted = await leadWithPhone(client, '+61412555072');
    expect((await client.patch(`/v1/leads/${quoted.id}`, { status: 'QUOTED' })).status).toBe(200);
    await settled();
    expect(sentFor(organizationId)).toHaveLength(1);

    // An hour later, Lambda hands the same records again (a retried batch): every change of the organization, in the
    // stream's order. A run is the event's, whenever the event is handled.
    await api.advanceTime('PT1H');
    const records = await streamRecordsOf(api, organizationId);
    expect(await recordStreamBatch({ Records: records })).toEqual({ batchItemFailures: [] });
    await settled();
    expect(await runsOf(client, automation.id)).toMatchObject([{ status: 'COMPLETED' }]);
    expect(sentFor(organizationId)).toHaveLength(1);
    // The status change that started the follow-up, handed again, does not stop it as a status change.
    expect(await runsOf(client, followUp.id)).toMatchObject([{ status: 'WAITING', stoppedReason: null }]);
  });

  it('sends one SMS when the step fails after the provider took it', async () => {
    const { client, organizationId } = await sydneyOrganization();
    const automation = await fromTemplate(client, 'missed_call_text_back');
    await untilLocal('10:00');
    const endpoint = await retellEndpoint(client);

    // The provider takes the message, then the answer is lost once.
    const previous = setSmsSender(losingFirstAnswer(new Error('connection reset after the provider accepted the message')));
    try {
      await postRetell(endpoint, retellCall('+61412555081', 'user_hangup', 8));
      await settled();
    } finally {
      setSmsSender(previous);
    }
    const sent = sentFor(organizationId, '+61412555081');
    expect(sent).toHaveLength(1);
    expect((await onlyRunOf(client, automation.id)).steps[0].result.smsId).toBe(sent[0]!.messageId);

    // The step's effect is done, then the runner fails before recording it: the message delivered again sends nothing more.
    let failed = false;
    setAfterEffect(async () => {
      if (failed) return;
      failed = true;
      throw new Error('runner stopped before recording the step');
    });
    await postRetell(endpoint, retellCall('+61412555082', 'user_hangup', 8));
    await settled();
    expect(failed).toBe(true);
    // The queue hands the message again once it has been hidden for its visibility timeout.
    await api.advanceTime(automationSteps.visibilityTimeoutSeconds * 1000);
    const again = sentFor(organizationId, '+61412555082');
    expect(again).toHaveLength(1);
    const run = (await runsOf(client, automation.id)).find((candidate) => candidate.steps[0].result?.smsId === again[0]!.messageId);
    expect(run).toMatchObject({ status: 'COMPLETED', steps: [{ status: 'DONE', result: { smsId: again[0]!.messageId } }] });
  });
});

describe('each recipe from its template', () => {
  it('lists the five recipes', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/automation-templates');
    expect(res.status).toBe(200);
    expect(res.body.templates.map(({ id }: { id: string }) => id).sort()).toEqual(['appointment_reminders', 'missed_call_text_back', 'quote_follow_up', 'review_request', 'webform_instant_reply']);
  });

  it('missed_call_text_back: texts the caller of a missed call at once', async () => {
    const { client, organizationId, name } = await sydneyOrganization();
    const automation = await fromTemplate(client, 'missed_call_text_back');
    expect(automation).toMatchObject({ fromTemplate: 'missed_call_text_back', isEnabled: true, trigger: { event: 'call.missed' }, stopWhen: ['lead.replied', 'member.contacted'] });
    await untilLocal('11:00');
    await postRetell(await retellEndpoint(client), retellCall('+61412555091', 'inactivity', 40));
    await settled();
    const lead = (await client.get('/v1/leads?phone=%2B61412555091')).body.leads[0];
    expect(sentFor(organizationId).map(({ body }) => body)).toEqual([missedCallText(lead.firstName, name)]);
  });

  it('webform_instant_reply: answers a web form at once in the day', async () => {
    const { client, organizationId } = await sydneyOrganization();
    await fromTemplate(client, 'webform_instant_reply');
    await untilLocal('11:00');
    await webForm(client, '+61412555092');
    // Another source is not a web form.
    await created(client, '/v1/inquiries', 'inquiry', { source: 'CALL', lead: { phone: '+61412555093' }, data: { summary: 'Asked for a quote.', missed: true } });
    await settled();
    expect(sentFor(organizationId).map(({ to, body }) => ({ to, body }))).toEqual([{ to: '+61412555092', body: 'Thanks Mia, we got your request and will be in touch today.' }]);
  });

  it('appointment_reminders: confirms the booking, then reminds a day and two hours before', async () => {
    const { client, organizationId } = await sydneyOrganization();
    const member = await created(client, '/v1/organization/members', 'member', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' });
    const lead = await leadWithPhone(client, '+61412555094');
    const automation = await fromTemplate(client, 'appointment_reminders');
    const startsAt = (await untilLocal('15:00')) + 2 * DAY_MS;
    await created(client, '/v1/appointments', 'appointment', { leadId: lead.id, title: 'Hot water service', startsAt: iso(startsAt), endsAt: iso(startsAt + 3_600_000), attendees: [{ userId: member.user.id }] });
    await settled();
    expect(sentFor(organizationId)).toHaveLength(1);
    await advanceTo(startsAt - DAY_MS);
    expect(sentFor(organizationId)).toHaveLength(2);
    await advanceTo(startsAt - 2 * 3_600_000);
    expect(sentFor(organizationId)).toHaveLength(3);
    expect(await onlyRunOf(client, automation.id)).toMatchObject({ status: 'COMPLETED', steps: [{ status: 'DONE' }, { status: 'DONE' }, { status: 'DONE' }, { status: 'DONE' }, { status: 'DONE' }] });
  });

  it('appointment_reminders: confirms nothing for an appointment recorded after its start, and reminds of nothing', async () => {
    const { client, organizationId } = await sydneyOrganization();
    const member = await created(client, '/v1/organization/members', 'member', { email: 'kim@example.com', firstName: 'Kim', lastName: 'Tran' });
    const lead = await leadWithPhone(client, '+61412555097');
    const automation = await fromTemplate(client, 'appointment_reminders');
    // The job was done this morning and is written down now.
    const startedAt = Math.min(Date.now(), api.clock.now()) - 3 * 3_600_000;
    await created(client, '/v1/appointments', 'appointment', { leadId: lead.id, title: 'Blocked drain', startsAt: iso(startedAt), endsAt: iso(startedAt + 3_600_000), attendees: [{ userId: member.user.id }] });
    await settled();
    await advanceTo(api.clock.now() + DAY_MS);
    expect(sentFor(organizationId)).toEqual([]);
    expect(await runsOf(client, automation.id)).toEqual([]);
  });

  it('quote_follow_up: follows a quote up two days after, then three days after that', async () => {
    const { client, organizationId } = await sydneyOrganization();
    const automation = await fromTemplate(client, 'quote_follow_up');
    const lead = await leadWithPhone(client, '+61412555095');
    const quotedAt = await untilLocal('10:00');
    await client.patch(`/v1/leads/${lead.id}`, { status: 'QUOTED' });
    await settled();
    await advanceTo(quotedAt + 2 * DAY_MS - 60_000);
    expect(sentFor(organizationId)).toEqual([]);
    await advanceTo(quotedAt + 2 * DAY_MS);
    expect(sentFor(organizationId)).toHaveLength(1);
    await advanceTo(quotedAt + 5 * DAY_MS);
    expect(sentFor(organizationId)).toHaveLength(2);
    expect(await onlyRunOf(client, automation.id)).toMatchObject({ status: 'COMPLETED' });
  });

  it('review_request: asks for a review two hours after the job is completed', async () => {
    const { client, organizationId } = await sydneyOrganization();
    const member = await created(client, '/v1/organization/members', 'member', { email: 'sam@example.com', firstName: 'Sam', lastName: 'Lee' });
    const lead = await leadWithPhone(client, '+61412555096');
    const made = await fromTemplate(client, 'review_request');
    // Made off: its text holds a part for the owner to write, and it cannot be switched on until they have.
    expect(made).toMatchObject({ isEnabled: false, steps: [{ type: 'wait' }, { template: expect.stringContaining('[[your review page link]]') }] });
    const switchedOn = await client.patch(`/v1/automations/${made.id}`, { isEnabled: true });
    expect([switchedOn.status, switchedOn.body.error.details]).toEqual([400, [{ path: 'steps.1.template', message: '[[your review page link]] is yours to fill in: replace it before the automation is switched on' }]]);
    const written = 'Thanks for choosing {{organization.name}}, {{lead.firstName|there}}! Would you leave us a review? https://g.page/r/plumbing/review';
    const automation = (await client.patch(`/v1/automations/${made.id}`, { isEnabled: true, steps: [made.steps[0], { type: 'send_sms', template: written }] })).body.automation;
    expect(automation).toMatchObject({ isEnabled: true, steps: [{ type: 'wait' }, { template: written }] });
    const startsAt = (await untilLocal('09:00')) + DAY_MS;
    const appointment = await created(client, '/v1/appointments', 'appointment', { leadId: lead.id, title: 'Tap washer', startsAt: iso(startsAt), endsAt: iso(startsAt + 3_600_000), attendees: [{ userId: member.user.id }] });
    await advanceTo(startsAt + 3_600_000);
    expect((await client.patch(`/v1/appointments/${appointment.id}`, { status: 'COMPLETED' })).status).toBe(200);
    await settled();
    const completedAt = api.clock.now();
    await advanceTo(completedAt + 2 * 3_600_000 - 60_000);
    expect(sentFor(organizationId)).toEqual([]);
    await advanceTo(completedAt + 2 * 3_600_000);
    expect(sentFor(organizationId, lead.phone).map(({ body }) => body)).toEqual([expect.stringContaining('https://g.page/r/plumbing/review')]);
    expect(await onlyRunOf(client, automation.id)).toMatchObject({ status: 'COMPLETED' });
  });

  it('never has an automation on with a part left to fill in: made on, switched on, or a step written with one while on answers 400 naming the step; one bracket or a filled part is no fill-in', async () => {
    const { client } = await sydneyOrganization();
    const refusal = (res: { status: number; body: { error?: { details?: { path: string }[] } } }) => [res.status, res.body.error?.details?.map(({ path }) => path)];
    expect(refusal(await client.post('/v1/automations', { fromTemplate: 'review_request', isEnabled: true }))).toEqual([400, ['steps.1.template']]);
    const on = await fromTemplate(client, 'missed_call_text_back');
    const drafted = { type: 'send_sms', template: 'Hi {{lead.firstName|there}}, [[your offer]] and [[your link]]' };
    const stepped = await client.patch(`/v1/automations/${on.id}`, { steps: [drafted] });
    expect(refusal(stepped)).toEqual([400, ['steps.0.template', 'steps.0.template']]);
    expect((await client.get(`/v1/automations/${on.id}`)).body.automation).toMatchObject({ version: on.version, steps: on.steps });
    // Off, the same text is saved; a single bracket is the text's own.
    expect((await client.patch(`/v1/automations/${on.id}`, { isEnabled: false, steps: [drafted] })).status).toBe(200);
    const plain = { type: 'send_sms', template: 'Hi {{lead.firstName|there}}, reply [YES] to book [today]' };
    expect((await client.patch(`/v1/automations/${on.id}`, { isEnabled: true, steps: [plain] })).body.automation).toMatchObject({ isEnabled: true, steps: [plain] });
  });

  it('keeps a draft off when it is switched on as its part is filled in, at once: on only with the part filled', async () => {
    const { client } = await sydneyOrganization();
    for (let round = 0; round < 3; round++) {
      const draft = await fromTemplate(client, 'review_request');
      const filled = { type: 'send_sms', template: 'Would you leave us a review? https://g.page/r/plumbing/review' };
      const [switched, written] = await Promise.all([client.patch(`/v1/automations/${draft.id}`, { isEnabled: true }), client.patch(`/v1/automations/${draft.id}`, { steps: [draft.steps[0], filled] })]);
      expect(written.status).toBe(200);
      expect([200, 400]).toContain(switched.status);
      const now = (await client.get(`/v1/automations/${draft.id}`)).body.automation;
      expect(now.steps[1]).toEqual(filled);
      expect(now.isEnabled).toBe(switched.status === 200);
    }
  });
});
