import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { useTestApi, type Client } from '../../../test/support/api';
import { created } from '../../../test/support/fixtures';
import { holdWrite } from '../../../test/support/interleave';
import { automationKeys } from '../entity';
import { runEnrolment } from './jobs';
import { enrolmentQueue, setEnrolmentQueue } from './start';

/**
 * POST /v1/automations/{automationId}/enrolments and GET …/enrolments/{enrolmentId}: every lead of a status enrolled
 * by the API in the background (the EnrolAutomationLeads worker), its progress followed as a recount's is.
 */
const api = useTestApi({ events: true });

const followUp = { name: 'Quote follow-up', trigger: { event: 'lead.status_changed', filter: { to: 'QUOTED' } }, steps: [{ type: 'wait', duration: 'P2D' }, { type: 'send_sms', template: 'Hi {{lead.firstName|there}}, any questions on our quote?' }] };

/** An organization with three QUOTED leads and one NEW, and a follow-up made after they were quoted (so none started it). */
async function quotedLeads(): Promise<{ client: Client; organizationId: string; quoted: string[]; automationId: string }> {
  const { client, organizationId } = await api.organization();
  const quoted: string[] = [];
  for (const name of ['Ava Brown', 'Ben Carter', 'Cal Dunn']) {
    const lead = await created(client, '/v1/leads', 'lead', { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com` });
    expect((await client.patch(`/v1/leads/${lead.id}`, { status: 'QUOTED' })).status).toBe(200);
    quoted.push(lead.id);
  }
  await created(client, '/v1/leads', 'lead', { name: 'Dee New', email: 'dee@example.com' });
  await api.eventsCaughtUp();
  const automation = await created(client, '/v1/automations', 'automation', followUp);
  return { client, organizationId, quoted, automationId: automation.id };
}

const enrolmentOf = async (client: Client, automationId: string, enrolmentId: string) => (await client.get(`/v1/automations/${automationId}/enrolments/${enrolmentId}`)).body.enrolment;

/** Reads the enrolment back until it has ended, as a client polls it. */
async function ended(client: Client, automationId: string, enrolmentId: string) {
  await api.queuesIdle();
  await expect.poll(async () => (await enrolmentOf(client, automationId, enrolmentId)).status, { timeout: 20_000 }).toMatch(/^(SUCCEEDED|FAILED)$/);
  return enrolmentOf(client, automationId, enrolmentId);
}

const runLeads = async (client: Client, automationId: string) => ((await client.get(`/v1/automations/${automationId}/runs?limit=100`)).body.runs as { leadId: string }[]).map((run) => run.leadId).sort();

describe('POST /v1/automations/{automationId}/enrolments', () => {
  it('answers 202 QUEUED, and the worker enrols every lead of the status once, its progress read back', async () => {
    const { client, quoted, automationId } = await quotedLeads();
    const started = await client.post(`/v1/automations/${automationId}/enrolments`, { leadStatus: 'QUOTED' });
    expect(started.status).toBe(202);
    expect(started.body.enrolment).toMatchObject({ automationId, leadStatus: 'QUOTED', status: 'QUEUED', progress: { done: 0, total: null }, enrolled: 0, failure: null, finishedAt: null });
    const done = await ended(client, automationId, started.body.enrolment.id);
    expect(done).toMatchObject({ status: 'SUCCEEDED', progress: { done: 3, total: 3 }, enrolled: 3, failure: null, finishedAt: expect.any(String) });
    expect(await runLeads(client, automationId)).toEqual([...quoted].sort());
  });

  it('starts no run twice when its message is handed again, whether it had ended or stopped midway', async () => {
    const { client, organizationId, quoted, automationId } = await quotedLeads();
    const { id: enrolmentId } = (await client.post(`/v1/automations/${automationId}/enrolments`, { leadStatus: 'QUOTED' })).body.enrolment;
    await ended(client, automationId, enrolmentId);
    // Handed again after it ended: nothing runs.
    await runEnrolment({ organizationId, enrolmentId });
    expect(await runLeads(client, automationId)).toEqual([...quoted].sort());
    // As if the worker had stopped midway: it goes through the leads again and meets the runs it put.
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: automationKeys.automationEnrolment(organizationId, enrolmentId), UpdateExpression: 'SET #status = :running', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':running': 'RUNNING' } }));
    await runEnrolment({ organizationId, enrolmentId });
    expect(await runLeads(client, automationId)).toEqual([...quoted].sort());
    expect(await enrolmentOf(client, automationId, enrolmentId)).toMatchObject({ status: 'SUCCEEDED', progress: { done: 3, total: 3 }, enrolled: 3 });
  });

  it('ends FAILED, saying why, when the automation is switched off before the worker runs it', async () => {
    const { client, automationId } = await quotedLeads();
    const queue = enrolmentQueue();
    const held: unknown[] = [];
    setEnrolmentQueue({ send: async (jobs) => void held.push(...jobs) });
    let enrolmentId: string;
    try {
      enrolmentId = (await client.post(`/v1/automations/${automationId}/enrolments`, { leadStatus: 'QUOTED' })).body.enrolment.id;
    } finally {
      setEnrolmentQueue(queue);
    }
    expect(held).toHaveLength(1);
    expect((await client.patch(`/v1/automations/${automationId}`, { isEnabled: false })).status).toBe(200);
    await queue.send(held as never);
    const done = await ended(client, automationId, enrolmentId);
    expect(done).toMatchObject({ status: 'FAILED', failure: 'The automation was switched off.', enrolled: 0 });
    expect(await runLeads(client, automationId)).toEqual([]);
  });

  it('goes through the status page by page, and takes no page after the automation is switched off midway', async () => {
    const { client } = await api.organization();
    const automation = await created(client, '/v1/automations', 'automation', followUp);
    // 101 NEW leads: two pages of the worker's 100.
    for (let batch = 0; batch < 101; batch += 20) {
      await Promise.all(Array.from({ length: Math.min(20, 101 - batch) }, (_, i) => created(client, '/v1/leads', 'lead', { name: `Lead ${batch + i}`, email: `lead${batch + i}@example.com` })));
    }
    // The first page's progress held until the automation is off: the second page must see it.
    const firstPage = holdWrite(/"done":100,/);
    const { id: enrolmentId } = (await client.post(`/v1/automations/${automation.id}/enrolments`, { leadStatus: 'NEW' })).body.enrolment;
    await firstPage.reached;
    expect((await client.patch(`/v1/automations/${automation.id}`, { isEnabled: false })).status).toBe(200);
    firstPage.release();
    const done = await ended(client, automation.id, enrolmentId);
    expect(done).toMatchObject({ status: 'FAILED', failure: 'The automation was switched off.', progress: { done: 100, total: 101 }, enrolled: 100 });
    const first = (await client.get(`/v1/automations/${automation.id}/runs?limit=100`)).body;
    const rest = first.nextCursor ? (await client.get(`/v1/automations/${automation.id}/runs?limit=100&cursor=${first.nextCursor}`)).body.runs : [];
    expect(first.runs.length + rest.length).toBe(100);
  });

  it('answers 503 having started nothing when the queue refuses it: its record reads FAILED', async () => {
    const { client, automationId } = await quotedLeads();
    const queue = enrolmentQueue();
    setEnrolmentQueue({ send: async () => Promise.reject(new Error('SQS unavailable')) });
    try {
      const refused = await client.post(`/v1/automations/${automationId}/enrolments`, { leadStatus: 'QUOTED' });
      expect([refused.status, refused.body.error.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
      expect(refused.headers.get('retry-after')).toBe('5');
    } finally {
      setEnrolmentQueue(queue);
    }
    expect(await runLeads(client, automationId)).toEqual([]);
  });

  it('answers 409 for an automation that is off, one whose runs start only from their events, and one on an appointment; 404 for an unknown one', async () => {
    const { client } = await api.organization();
    const off = await created(client, '/v1/automations', 'automation', { ...followUp, isEnabled: false });
    const onEvents = await created(client, '/v1/automations', 'automation', { fromTemplate: 'missed_call_text_back' });
    const onAppointments = await created(client, '/v1/automations', 'automation', { fromTemplate: 'appointment_reminders' });
    const codeOf = async (automationId: string) => {
      const res = await client.post(`/v1/automations/${automationId}/enrolments`, { leadStatus: 'NEW' });
      return [res.status, res.body.error?.code];
    };
    expect(await codeOf(off.id)).toEqual([409, 'AUTOMATION_DISABLED']);
    expect(await codeOf(onEvents.id)).toEqual([409, 'NOT_ENROLLABLE']);
    expect(await codeOf(onAppointments.id)).toEqual([409, 'NOT_ENROLLABLE']);
    expect(await codeOf('automation_01HZZZZZZZZZZZZZZZZZZZZZZZ')).toEqual([404, 'NOT_FOUND']);
  });

  it('answers 400 naming leadStatus when it is missing, a prefix, one letter more or in lower case, and enrols nothing', async () => {
    const { client, automationId } = await quotedLeads();
    for (const body of [{}, { leadStatus: 'QUOTE' }, { leadStatus: 'QUOTEDS' }, { leadStatus: 'quoted' }, { leadStatus: 'QUOTED', leadIds: [] }]) {
      const refused = await client.post(`/v1/automations/${automationId}/enrolments`, body);
      expect([refused.status, refused.body.error.details[0].path], JSON.stringify(body)).toEqual([400, Object.keys(body).includes('leadIds') ? 'leadIds' : 'leadStatus']);
    }
    expect(await runLeads(client, automationId)).toEqual([]);
  });
});

describe('GET /v1/automations/{automationId}/enrolments/{enrolmentId}', () => {
  it('answers 404 under another automation, for an unknown id and for one that cannot exist (one character more)', async () => {
    const { client, automationId } = await quotedLeads();
    const { id } = (await client.post(`/v1/automations/${automationId}/enrolments`, { leadStatus: 'QUOTED' })).body.enrolment;
    await ended(client, automationId, id);
    const other = await created(client, '/v1/automations', 'automation', { ...followUp, name: 'Another' });
    expect((await client.get(`/v1/automations/${other.id}/enrolments/${id}`)).status).toBe(404);
    expect((await client.get(`/v1/automations/${automationId}/enrolments/enrolment_01HZZZZZZZZZZZZZZZZZZZZZZZ`)).status).toBe(404);
    const malformed = await client.get(`/v1/automations/${automationId}/enrolments/${id}x`);
    expect([malformed.status, malformed.body.error.message]).toEqual([404, 'Enrolment not found']);
  });
});
