import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../../test/support/api';
import { countDynamoCalls } from '../../../test/support/dynamo-calls';
import { created } from '../../../test/support/fixtures';

/** GET /v1/leads/{leadId}/automation-runs: a lead's runs of every automation, whatever their status, newest first. */
const api = useTestApi();

const waiting = (name: string) => ({ name, trigger: { event: 'lead.created' }, steps: [{ type: 'wait', duration: 'P1D' }, { type: 'send_sms', template: 'Hi {{lead.firstName|there}}, still keen?' }] });

/** Two automations; Ava enrolled in the first, then the second, then the first again (that run cancelled); Ben in the second. */
async function enrolled() {
  const { client } = await api.organization();
  const [first, second] = [await created(client, '/v1/automations', 'automation', waiting('Quote follow-up')), await created(client, '/v1/automations', 'automation', waiting('Review request'))];
  const [ava, ben] = [await created(client, '/v1/leads', 'lead', { name: 'Ava Jones', email: 'ava@example.com' }), await created(client, '/v1/leads', 'lead', { name: 'Ben Smith', email: 'ben@example.com' })];
  const enrol = async (automationId: string, leadId: string) => {
    const res = await client.post(`/v1/automations/${automationId}/runs`, { leadId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.run.id as string;
  };
  const avaRuns = [await enrol(first.id, ava.id), await enrol(second.id, ava.id), await enrol(first.id, ava.id)];
  const benRun = await enrol(second.id, ben.id);
  expect((await client.post(`/v1/automation-runs/${avaRuns[2]}/cancel`)).status).toBe(200);
  return { client, ava, ben, avaRuns, benRun };
}

async function leadRuns(client: Client, leadId: string, params = '') {
  const res = await client.get(`/v1/leads/${leadId}/automation-runs${params}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { runs: { id: string; leadId: string; status: string }[]; totalCount: number; nextCursor: string | null };
}

describe('GET /v1/leads/{leadId}/automation-runs', () => {
  it('lists the lead’s runs of every automation, newest first, as GET answers each, the cancelled one with why', async () => {
    const { client, ava, ben, avaRuns, benRun } = await enrolled();
    const read = async (runId: string) => (await client.get(`/v1/automation-runs/${runId}`)).body.run;
    const listed = await leadRuns(client, ava.id);
    expect(listed).toMatchObject({ totalCount: 3, nextCursor: null });
    expect(listed.runs).toEqual([await read(avaRuns[2]!), await read(avaRuns[1]!), await read(avaRuns[0]!)]);
    expect(listed.runs[0]).toMatchObject({ status: 'STOPPED', stoppedReason: 'cancelled' });
    expect(await leadRuns(client, ben.id)).toMatchObject({ runs: [{ id: benRun, leadId: ben.id }], totalCount: 1 });
  });

  it('answers an empty page for a lead with no runs', async () => {
    const { client } = await api.organization();
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Cal Brown', email: 'cal@example.com' });
    expect(await leadRuns(client, lead.id)).toMatchObject({ runs: [], totalCount: 0, nextCursor: null });
  });

  it('lists both runs of two enrolments of the lead at once', async () => {
    const { client } = await api.organization();
    const automation = await created(client, '/v1/automations', 'automation', waiting('Quote follow-up'));
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Dee Green', email: 'dee@example.com' });
    const answers = await Promise.all([1, 2].map(() => client.post(`/v1/automations/${automation.id}/runs`, { leadId: lead.id })));
    expect(answers.map((res) => res.status)).toEqual([201, 201]);
    const listed = await leadRuns(client, lead.id);
    expect(listed.totalCount).toBe(2);
    expect(listed.runs.map((run) => run.id).sort()).toEqual(answers.map((res) => res.body.run.id).sort());
  });

  it('pages by cursor and by page number, and a cursor belongs to its lead', async () => {
    const { client, ava, ben, avaRuns } = await enrolled();
    const first = await leadRuns(client, ava.id, '?limit=2');
    expect([first.totalCount, first.runs.map((run) => run.id)]).toEqual([3, [avaRuns[2], avaRuns[1]]]);
    const next = await leadRuns(client, ava.id, `?limit=2&cursor=${first.nextCursor}`);
    expect([next.runs.map((run) => run.id), next.nextCursor]).toEqual([[avaRuns[0]], null]);
    expect((await leadRuns(client, ava.id, '?limit=2&page=2')).runs.map((run) => run.id)).toEqual([avaRuns[0]]);
    const other = await client.get(`/v1/leads/${ben.id}/automation-runs?limit=2&cursor=${first.nextCursor}`);
    expect([other.status, other.body.error.code]).toEqual([400, 'INVALID_CURSOR']);
  });

  it('reads page 1 with the Query of the lead’s runs and the lead’s item, sent together, and a COUNT Query only when more runs follow', async () => {
    const { client, ava } = await enrolled();
    expect((await countDynamoCalls(() => client.get(`/v1/leads/${ava.id}/automation-runs?limit=3`))).sort()).toEqual(['GetItemCommand', 'QueryCommand']);
    expect((await countDynamoCalls(() => client.get(`/v1/leads/${ava.id}/automation-runs?limit=2`))).sort()).toEqual(['GetItemCommand', 'QueryCommand', 'QueryCommand']);
    expect((await client.get(`/v1/leads/${ava.id}/automation-runs?limit=3`)).body).toMatchObject({ totalCount: 3, nextCursor: null });
  });

  it('answers 404 for another organization’s lead, a deleted one and an unknown one, alike', async () => {
    const { client, ava } = await enrolled();
    const { client: other } = await api.organization();
    const notFound = { status: 404, code: 'NOT_FOUND', message: 'Lead not found' };
    expect((await other.get(`/v1/leads/${ava.id}/automation-runs`)).body.error).toEqual(notFound);
    const last = ava.id.at(-1) === '0' ? '1' : '0';
    for (const leadId of [`${ava.id.slice(0, -1)}${last}`, `${ava.id}0`, ava.id.replace('lead_', 'run_')]) {
      expect((await client.get(`/v1/leads/${leadId}/automation-runs`)).body.error, leadId).toEqual(notFound);
    }
    expect((await client.delete(`/v1/leads/${ava.id}`)).status).toBe(200);
    expect((await client.get(`/v1/leads/${ava.id}/automation-runs`)).body.error).toEqual(notFound);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['page=0', 'page'],
    ['updatedSince=2026-01-01T00:00:00Z', 'updatedSince'],
  ])('answers 400 naming the parameter for %s', async (query, field) => {
    const { client, ava } = await enrolled();
    const res = await client.get(`/v1/leads/${ava.id}/automation-runs?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((detail: { path: string }) => detail.path)).toEqual([field]);
  });
});
