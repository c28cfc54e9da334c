import { describe, expect, it } from 'vitest';
import { handler as recordStreamBatch } from '../../stream/record';
import { useTestApi } from '../../../test/support/api';
import { leadWithPhone, onlyRunOf, runsOf, sentFor, sydneyAutomations } from '../../../test/support/automations';
import { created } from '../../../test/support/fixtures';
import { streamRecordsOf } from '../../../test/support/stream-records';
import { createMember } from '../../organization/member-rules';

/**
 * What stops a run, as the stream consumer meets it: a status move (its own run's or another's), a reply, an opt-out,
 * a deleted lead or automation, each event from the table's stream on a clock the test moves (`advanceTime`).
 */
const api = useTestApi({ events: true, clock: 'manual' });
const { sydneyOrganization, settled, untilLocal, reply } = sydneyAutomations(api);

describe('what stops a run, from the stream', () => {
  const waitThenText = { trigger: { event: 'lead.created' }, steps: [{ type: 'wait', duration: 'PT1H' }, { type: 'send_sms', template: 'Hi {{lead.firstName|there}}, still keen?' }] };

  it('does not stop a run on the status change its own step made, and stops it on anyone else’s', async () => {
    const { client, organizationId } = await sydneyOrganization();
    const automation = await created(client, '/v1/automations', 'automation', {
      name: 'Contact new leads',
      trigger: { event: 'lead.created' },
      steps: [{ type: 'set_lead_status', status: 'CONTACTED' }, ...waitThenText.steps],
      stopWhen: ['lead.status_changed'],
    });
    await untilLocal('10:00');
    const own = await leadWithPhone(client, '+61412555101');
    await settled();
    expect((await client.get(`/v1/leads/${own.id}`)).body.lead.status).toBe('CONTACTED');
    const other = await leadWithPhone(client, '+61412555102');
    await settled();
    expect((await client.patch(`/v1/leads/${other.id}`, { status: 'QUALIFIED' })).status).toBe(200);
    await settled();
    await api.advanceTime('PT1H');

    expect(sentFor(organizationId).map(({ to }) => to)).toEqual(['+61412555101']);
    const runs = await runsOf(client, automation.id);
    expect(runs.find((run) => run.leadId === own.id)).toMatchObject({ status: 'COMPLETED' });
    expect(runs.find((run) => run.leadId === other.id)).toMatchObject({ status: 'STOPPED', stoppedReason: 'lead.status_changed' });
  });

  it('does not enrol a lead again in the automation whose own step changed its status; another automation on status changes starts', async () => {
    const { client, organizationId } = await sydneyOrganization();
    const own = await created(client, '/v1/automations', 'automation', {
      name: 'Qualify on any move',
      trigger: { event: 'lead.status_changed' },
      steps: [{ type: 'set_lead_status', status: 'QUALIFIED' }, { type: 'send_sms', template: 'Thanks {{lead.firstName|there}}, a quote is on its way.' }],
    });
    const other = await created(client, '/v1/automations', 'automation', { name: 'Note qualified', trigger: { event: 'lead.status_changed', filter: { to: 'QUALIFIED' } }, steps: [{ type: 'add_note', template: 'Qualified by an automation.' }] });
    await untilLocal('10:00');
    const lead = await leadWithPhone(client, '+61412555121');
    await settled();
    expect((await client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED' })).status).toBe(200);
    await settled();
    await api.advanceTime('PT1H');

    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.status).toBe('QUALIFIED');
    expect(sentFor(organizationId).map(({ to }) => to)).toEqual(['+61412555121']);
    expect((await runsOf(client, own.id)).map((run) => run.status)).toEqual(['COMPLETED']);
    expect((await runsOf(client, other.id)).map((run) => run.status)).toEqual(['COMPLETED']);
  });

  it('stops a follow-up before its text when the lead replied after its trigger but before the run was made (its batch handed late)', async () => {
    const { client, organizationId, number } = await sydneyOrganization();
    const chase = { name: 'Chase the quote', trigger: { event: 'lead.status_changed', filter: { to: 'QUOTED' } }, steps: [{ type: 'send_sms', template: 'Hi {{lead.firstName|there}}, any questions?' }], stopWhen: ['lead.replied'] };
    const automation = await created(client, '/v1/automations', 'automation', { ...chase, isEnabled: false });
    await untilLocal('10:00');
    const lead = await leadWithPhone(client, '+61412555131');
    expect((await client.patch(`/v1/leads/${lead.id}`, { status: 'QUOTED' })).status).toBe(200);
    await settled();
    await api.advanceTime('PT10M');
    await reply('+61412555131', number, 'Yes: when can you start?');
    await api.advanceTime('PT10M');

    // The status change's record, handed again (a batch retried late), now finds the automation and makes its run after the reply.
    expect((await client.patch(`/v1/automations/${automation.id}`, { isEnabled: true })).status).toBe(200);
    const quoted = (await streamRecordsOf(api, organizationId)).filter(({ dynamodb }) => dynamodb?.NewImage?.entity?.S === 'LEAD' && dynamodb.NewImage.status?.S === 'QUOTED' && dynamodb.OldImage?.status?.S === 'NEW');
    expect(quoted).toHaveLength(1);
    expect(await recordStreamBatch({ Records: quoted })).toEqual({ batchItemFailures: [] });
    await settled();

    expect(sentFor(organizationId, '+61412555131')).toEqual([]);
    expect(await onlyRunOf(client, automation.id)).toMatchObject({ status: 'STOPPED', stoppedReason: 'lead.replied', steps: [{ status: 'CANCELLED' }] });
  });

  it('stops a run whose stopWhen names member.contacted when a member texts the lead themselves; an automation’s text, and a run without it, stop nothing', async () => {
    const { client, organizationId } = await sydneyOrganization();
    const textBack = await created(client, '/v1/automations', 'automation', { name: 'Text back in an hour', ...waitThenText, stopWhen: ['member.contacted'] });
    const unmoved = await created(client, '/v1/automations', 'automation', { name: 'Check in anyway', ...waitThenText, steps: [waitThenText.steps[0], { type: 'send_sms', template: 'Checking in.' }] });
    await created(client, '/v1/automations', 'automation', { name: 'Welcome', trigger: { event: 'lead.created' }, steps: [{ type: 'send_sms', template: 'Welcome.' }] });
    const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Sam', lastName: 'Okafor', email: 'sam@example.com.au' });
    await untilLocal('10:00');
    const [texted, welcomedOnly] = [await leadWithPhone(client, '+61412555141'), await leadWithPhone(client, '+61412555142')];
    await settled();
    // The Welcome automation's text reached both: an automation's text is no member's.
    expect(sentFor(organizationId).map(({ to, body }) => [to, body]).sort()).toEqual([['+61412555141', 'Welcome.'], ['+61412555142', 'Welcome.']]);
    expect((await client.post('/v1/sms', { userId: member.user.id, leadId: texted.id, message: 'Hi, Sam here: I can come at 2 pm.' })).status).toBe(201);
    await settled();
    await api.advanceTime('PT1H');
    await settled();

    const runOf = async (automationId: string, leadId: string) => (await runsOf(client, automationId)).find((run) => run.leadId === leadId);
    expect(await runOf(textBack.id, texted.id)).toMatchObject({ status: 'STOPPED', stoppedReason: 'member.contacted', steps: [{ status: 'CANCELLED' }, { status: 'CANCELLED' }] });
    expect(await runOf(textBack.id, welcomedOnly.id)).toMatchObject({ status: 'COMPLETED' });
    expect(await runOf(unmoved.id, texted.id)).toMatchObject({ status: 'COMPLETED' });
    expect(sentFor(organizationId, '+61412555141').map(({ body }) => body)).toEqual(['Welcome.', 'Hi, Sam here: I can come at 2 pm.', 'Checking in.']);
    expect(sentFor(organizationId, '+61412555142').map(({ body }) => body).sort()).toEqual(['Checking in.', 'Hi Olivia, still keen?', 'Welcome.']);
  });

  it('stops a lead’s runs when it opts out or is deleted, and every run of a deleted automation', async () => {
    const { client, organizationId, number } = await sydneyOrganization();
    const automation = await created(client, '/v1/automations', 'automation', { name: 'Check in', ...waitThenText, stopWhen: ['lead.opted_out'] });
    await untilLocal('10:00');
    const [optingOut, deleted, waiting] = [await leadWithPhone(client, '+61412555111'), await leadWithPhone(client, '+61412555112'), await leadWithPhone(client, '+61412555113')];
    await settled();
    await reply('+61412555111', number, 'STOP');
    expect((await client.delete(`/v1/leads/${deleted.id}`)).status).toBe(200);
    await settled();
    const runOf = async (leadId: string) => (await runsOf(client, automation.id)).find((run) => run.leadId === leadId);
    expect(await runOf(optingOut.id)).toMatchObject({ status: 'STOPPED', stoppedReason: 'lead.opted_out' });
    expect(await runOf(deleted.id)).toMatchObject({ status: 'STOPPED', stoppedReason: 'lead.deleted' });
    expect(await runOf(waiting.id)).toMatchObject({ status: 'WAITING' });

    const before = await runOf(waiting.id);
    expect((await client.delete(`/v1/automations/${automation.id}`)).status).toBe(200);
    await settled();
    expect((await client.get(`/v1/automation-runs/${before.id}`)).body.run).toMatchObject({ status: 'STOPPED', stoppedReason: 'automation.deleted' });
    await api.advanceTime('PT1H');
    expect(sentFor(organizationId)).toEqual([]);
  });
});
