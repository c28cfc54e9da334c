import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../../test/support/api';
import { leadWithPhone, runsOf, sydneyAutomations } from '../../../test/support/automations';
import { created } from '../../../test/support/fixtures';
import { countDynamoCalls } from '../../../test/support/dynamo-calls';

/** GET /v1/automation-runs: the runs that stopped, of every automation, the latest to stop first. */
const api = useTestApi({ events: true, clock: 'manual' });
const { sydneyOrganization, settled, untilLocal, reply } = sydneyAutomations(api);

const followUp = { name: 'Follow up new leads', trigger: { event: 'lead.created' }, steps: [{ type: 'wait', duration: 'PT1H' }, { type: 'send_sms', template: 'Hi {{lead.firstName|there}}, still keen?' }], stopWhen: ['lead.replied'] };

async function stoppedRuns(client: Client, params = '') {
  const res = await client.get(`/v1/automation-runs${params}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { runs: { id: string; status: string; stoppedReason: string | null; updatedAt: string }[]; totalCount: number; nextCursor: string | null };
}
const idsOf = async (client: Client, params = '') => (await stoppedRuns(client, params)).runs.map((run) => run.id);

/**
 * An organization in Sydney whose follow-up has started for three leads at 10:00: the first lead replies (its run
 * stops, lead.replied), a minute later the second's run is cancelled, and the third's still waits.
 */
async function threeFollowUps() {
  const organization = await sydneyOrganization();
  const { client, number } = organization;
  const automation = await created(client, '/v1/automations', 'automation', followUp);
  await untilLocal('10:00');
  const phones = ['+61412555301', '+61412555302', '+61412555303'];
  const leads = [];
  for (const phone of phones) leads.push(await leadWithPhone(client, phone));
  await settled();
  const runOf = async (leadId: string) => (await runsOf(client, automation.id)).find((run) => run.leadId === leadId)!.id as string;
  const [replied, cancelled, waiting] = [await runOf(leads[0]!.id), await runOf(leads[1]!.id), await runOf(leads[2]!.id)];
  await reply(phones[0]!, number, 'Yes please, when can you come?');
  await api.advanceTime(60_000);
  expect((await client.post(`/v1/automation-runs/${cancelled}/cancel`)).status).toBe(200);
  await settled();
  const read = async (runId: string) => (await client.get(`/v1/automation-runs/${runId}`)).body.run;
  return { ...organization, runs: { replied: await read(replied), cancelled: await read(cancelled), waiting: await read(waiting) } };
}

describe('GET /v1/automation-runs', () => {
  it('lists the stopped runs of every automation as GET answers each, the latest to stop first; stoppedReason keeps one reason’s', async () => {
    const { client, runs } = await threeFollowUps();
    expect(runs.replied).toMatchObject({ status: 'STOPPED', stoppedReason: 'lead.replied' });
    expect(runs.cancelled).toMatchObject({ status: 'STOPPED', stoppedReason: 'cancelled' });
    expect(runs.waiting.status).not.toBe('STOPPED');
    expect(await stoppedRuns(client)).toMatchObject({ runs: [runs.cancelled, runs.replied], totalCount: 2, nextCursor: null });
    expect(await stoppedRuns(client, '?stoppedReason=lead.replied')).toMatchObject({ runs: [runs.replied], totalCount: 1 });
    expect(await stoppedRuns(client, '?stoppedReason=cancelled')).toMatchObject({ runs: [runs.cancelled], totalCount: 1 });
    expect(await stoppedRuns(client, '?stoppedReason=lead.opted_out')).toMatchObject({ runs: [], totalCount: 0 });
  });

  it('keeps with stoppedSince the runs stopped at or after the instant, and none stopped the millisecond before', async () => {
    const { client, runs } = await threeFollowUps();
    const at = (iso: string, deltaMs = 0) => encodeURIComponent(new Date(Date.parse(iso) + deltaMs).toISOString());
    expect(await idsOf(client, `?stoppedSince=${at(runs.replied.updatedAt)}`)).toEqual([runs.cancelled.id, runs.replied.id]);
    expect(await idsOf(client, `?stoppedSince=${at(runs.replied.updatedAt, 1)}`)).toEqual([runs.cancelled.id]);
    expect(await idsOf(client, `?stoppedSince=${at(runs.cancelled.updatedAt)}&stoppedReason=cancelled`)).toEqual([runs.cancelled.id]);
    expect(await stoppedRuns(client, `?stoppedSince=${at(runs.cancelled.updatedAt, 1)}`)).toMatchObject({ runs: [], totalCount: 0 });
    // The instant with its offset: the same moment as in UTC.
    const sydney = new Date(Date.parse(runs.cancelled.updatedAt) + 11 * 3_600_000).toISOString().replace('Z', '+11:00');
    expect(await idsOf(client, `?stoppedSince=${encodeURIComponent(sydney)}`)).toEqual([runs.cancelled.id]);
  });

  it('adds each run’s lead with expand=lead, on the stopped runs and an automation’s runs, in one read of the page’s leads; a deleted lead is null', async () => {
    const { client, runs } = await threeFollowUps();
    const leadOf = async (leadId: string) => {
      const { id, firstName, lastName, email, phone, businessName } = (await client.get(`/v1/leads/${leadId}`)).body.lead;
      return { id, firstName, lastName, email, phone, businessName };
    };
    const [repliedLead, cancelledLead] = [await leadOf(runs.replied.leadId), await leadOf(runs.cancelled.leadId)];
    expect(repliedLead).toMatchObject({ firstName: 'Olivia', lastName: 'Nguyen', phone: '+61412555301' });
    expect(await stoppedRuns(client, '?expand=lead')).toMatchObject({ runs: [{ ...runs.cancelled, lead: cancelledLead }, { ...runs.replied, lead: repliedLead }], totalCount: 2 });
    // Without it, no lead.
    expect((await stoppedRuns(client)).runs.every((run) => !('lead' in run))).toBe(true);
    const calls = await countDynamoCalls(() => client.get(`/v1/automations/${runs.waiting.automationId}/runs?expand=lead&limit=3`));
    expect(calls.filter((call) => call === 'BatchGetItemCommand')).toHaveLength(1);
    // A deleted lead's runs stay, listed by their automation.
    expect((await client.delete(`/v1/leads/${runs.cancelled.leadId}`)).status).toBe(200);
    const automationRuns = await client.get(`/v1/automations/${runs.waiting.automationId}/runs?expand=lead`);
    expect(automationRuns.status, JSON.stringify(automationRuns.body)).toBe(200);
    const listed = automationRuns.body.runs as { leadId: string; lead: unknown }[];
    expect(listed).toHaveLength(3);
    expect(listed.find((run) => run.leadId === runs.cancelled.leadId)).toMatchObject({ lead: null });
    expect(listed.find((run) => run.leadId === runs.replied.leadId)?.lead).toEqual(repliedLead);
    // One letter off, or another record's expansion, is refused naming the parameter.
    for (const expand of ['leads', 'external', 'Lead']) {
      const refused = await client.get(`/v1/automation-runs?expand=${expand}`);
      expect([refused.status, refused.body.error.details[0].path]).toEqual([400, 'expand']);
    }
  });

  it('pages by limit and cursor', async () => {
    const { client, runs } = await threeFollowUps();
    const first = await stoppedRuns(client, '?limit=1');
    expect(first).toMatchObject({ runs: [runs.cancelled], totalCount: 2 });
    expect(await stoppedRuns(client, `?limit=1&cursor=${encodeURIComponent(first.nextCursor!)}`)).toMatchObject({ runs: [runs.replied], nextCursor: null });
    expect(await idsOf(client, '?limit=1&page=2')).toEqual([runs.replied.id]);
  });

  it('lists one run once when two cancels of it come at once', async () => {
    const { client, runs } = await threeFollowUps();
    const answers = await Promise.all([1, 2].map(() => client.post(`/v1/automation-runs/${runs.waiting.id}/cancel`)));
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
    const cancelled = await stoppedRuns(client, '?stoppedReason=cancelled');
    expect(cancelled.runs.map((run) => run.id)).toEqual([runs.waiting.id, runs.cancelled.id]);
    expect(cancelled.totalCount).toBe(2);
  });

  it('lists only the organization’s own stopped runs', async () => {
    const first = await threeFollowUps();
    const second = await sydneyOrganization();
    expect(await stoppedRuns(second.client)).toMatchObject({ runs: [], totalCount: 0 });
    expect(await idsOf(first.client)).toEqual([first.runs.cancelled.id, first.runs.replied.id]);
  });

  it.each([
    ['stoppedReason=lead.replie', 'stoppedReason'],
    ['stoppedReason=lead.replied.', 'stoppedReason'],
    ['stoppedReason=LEAD.REPLIED', 'stoppedReason'],
    ['stoppedReason=', 'stoppedReason'],
    ['stoppedSince=yesterday', 'stoppedSince'],
    ['stoppedSince=2026-12-01T09:00:00', 'stoppedSince'],
    ['updatedSince=2026-12-01T09:00:00Z', 'updatedSince'],
    ['status=STOPPED', 'status'],
    ['limit=0', 'limit'],
  ])('answers 400 naming the parameter for %s', async (params, field) => {
    const { client } = await sydneyOrganization();
    const res = await client.get(`/v1/automation-runs?${params}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((detail: { path: string }) => detail.path)).toContain(field);
  });
});
