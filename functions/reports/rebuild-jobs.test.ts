import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { useTestApi, type Client } from '../../test/support/api';
import { created } from '../../test/support/fixtures';
import { holdWrite } from '../../test/support/interleave';
import { webForm } from '../../test/support/report-workload';
import { reportKeys } from './entity';
import { rebuildReports, type RebuildProgress } from './rebuild';
import { REBUILD_LEASE_MS, runReportRebuild } from './rebuild-jobs';
import { reportRebuildQueue, setReportRebuildQueue } from './rebuild-start';

/**
 * POST /v1/reports/rebuilds and GET /v1/reports/rebuilds/{rebuildId}: an owner's recount of the reports, run off the
 * request by the RebuildReports worker (the same recount as `npm run admin -- reports rebuild`), followed by its
 * progress, one at a time per organization.
 */

const api = useTestApi({ events: true, clock: 'manual' });

const FAULT = 'rebuildFault';
afterEach(() => {
  dynamo.middlewareStack.remove(FAULT);
});

/** An organization with three leads from web forms, counted by the consumer, and two of its reports' items doctored. */
async function doctored(): Promise<{ client: Client; organizationId: string; today: string }> {
  const organization = await api.organization();
  const { client, organizationId } = organization;
  // Sent a second ago by the system's time, which the records are stamped by (the manual clock may be ahead of it).
  for (const email of ['ava@example.com', 'ben@example.com', 'cal@example.com']) await created(client, '/v1/inquiries', 'inquiry', webForm(email, new Date(Date.now() - 1000).toISOString()));
  await api.eventsCaughtUp();
  expect((await client.get('/v1/reports/summary')).body.summary.leads.created).toBe(3);
  // The day the three were counted on, whichever side of midnight the clocks are.
  const { Items = [] } = await dynamo.send(new QueryCommand({ TableName: config.tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :day)', ExpressionAttributeValues: { ':pk': reportKeys.reportDay(organizationId, '').pk, ':day': 'DAY#' }, ConsistentRead: true }));
  const today = String(Items.find((item) => item.lc === 3)!.sk).slice('DAY#'.length);
  await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: reportKeys.reportDay(organizationId, today), UpdateExpression: 'SET lc = :wrong ADD v :one', ExpressionAttributeValues: { ':wrong': 7, ':one': 1 } }));
  const lead = (await client.get('/v1/leads?limit=1')).body.leads[0];
  await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: reportKeys.reportLeadFacts(organizationId, lead.id) }));
  expect((await client.get('/v1/reports/summary')).body.summary.leads.created).toBe(7);
  return { client, organizationId, today };
}

const rebuildOf = async (client: Client, id: string) => (await client.get(`/v1/reports/rebuilds/${id}`)).body.rebuild;

/** Keeps the recounts started meanwhile from the worker: they stay QUEUED. Answers the function that puts the queue back. */
function holdQueue(): { held: unknown[]; restore: () => void } {
  const queue = reportRebuildQueue();
  const held: unknown[] = [];
  setReportRebuildQueue({ send: async (jobs) => void held.push(...jobs) });
  return { held, restore: () => setReportRebuildQueue(queue) };
}

describe('POST /v1/reports/rebuilds', () => {
  it('answers 202 with the recount QUEUED, which the worker runs: the wrong day and lead are rewritten, and the figures are right again', async () => {
    const { client, organizationId } = await doctored();
    const started = await client.post('/v1/reports/rebuilds', {});
    expect(started.status).toBe(202);
    expect(started.body.rebuild).toEqual({
      id: expect.stringMatching(/^rebuild_[0-9A-HJKMNP-TV-Z]{26}$/),
      status: 'QUEUED',
      progress: { done: 0, total: null },
      daysChanged: null,
      daysUnchanged: null,
      factsRewritten: null,
      failure: null,
      createdAt: new Date(api.clock.now()).toISOString(),
      updatedAt: new Date(api.clock.now()).toISOString(),
      finishedAt: null,
    });
    await api.queuesIdle();
    const ended = await rebuildOf(client, started.body.rebuild.id);
    expect(ended).toMatchObject({ status: 'SUCCEEDED', progress: { done: 2, total: 2 }, daysChanged: 1, daysUnchanged: 0, factsRewritten: 1, failure: null, finishedAt: expect.any(String) });
    expect((await client.get('/v1/reports/summary')).body.summary.leads.created).toBe(3);
    // Its place is free: another may start, and finds nothing to change.
    const again = await client.post('/v1/reports/rebuilds', {});
    expect(again.status).toBe(202);
    await api.queuesIdle();
    expect(await rebuildOf(client, again.body.rebuild.id)).toMatchObject({ status: 'SUCCEEDED', progress: { done: 0, total: 0 }, daysChanged: 0, factsRewritten: 0 });
    expect(organizationId).toMatch(/^org_/);
  });

  it('shows its progress while it writes: WRITING, done of total', async () => {
    const { client } = await doctored();
    // The recount's second write (the lead's facts) is held until the test has read the progress of the first.
    const held = holdWrite(/"sk":"FACTS"/);
    const started = (await client.post('/v1/reports/rebuilds', {})).body.rebuild;
    await held.reached;
    expect(await rebuildOf(client, started.id)).toMatchObject({ status: 'WRITING', progress: { done: 1, total: 2 }, finishedAt: null });
    held.release();
    await api.queuesIdle();
    expect(await rebuildOf(client, started.id)).toMatchObject({ status: 'SUCCEEDED', progress: { done: 2, total: 2 } });
  });

  it('tells each step of the first attempt: counting, then each write of those to make', async () => {
    const { organizationId } = await doctored();
    const steps: RebuildProgress[] = [];
    await rebuildReports(organizationId, { onProgress: async (step) => void steps.push(step) });
    expect(steps).toEqual([{ phase: 'COUNTING' }, { phase: 'WRITING', done: 0, total: 2 }, { phase: 'WRITING', done: 1, total: 2 }, { phase: 'WRITING', done: 2, total: 2 }]);
  });

  it('refuses a second while one is under way, 409 REBUILD_RUNNING naming it, until it ends or its lease lapses', async () => {
    const { client, organizationId } = await doctored();
    const queue = holdQueue();
    try {
      const first = (await client.post('/v1/reports/rebuilds', {})).body.rebuild;
      const refused = await client.post('/v1/reports/rebuilds', {});
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'REBUILD_RUNNING', message: expect.stringContaining(`(${first.id})`) });
      // The worker never got it (held): the place is taken until its lease lapses, to the millisecond.
      await api.advanceTime(REBUILD_LEASE_MS - 1);
      expect((await client.post('/v1/reports/rebuilds', {})).status).toBe(409);
      await api.advanceTime(1);
      const next = await client.post('/v1/reports/rebuilds', {});
      expect(next.status).toBe(202);
      expect(queue.held).toHaveLength(2);
      expect(await rebuildOf(client, first.id)).toMatchObject({ status: 'QUEUED' });
      // The first, run at last, ends, and leaves the place to the second, which took it after the lease lapsed.
      await runReportRebuild({ organizationId, rebuildId: first.id });
      expect(await rebuildOf(client, first.id)).toMatchObject({ status: 'SUCCEEDED' });
      const refusedAgain = await client.post('/v1/reports/rebuilds', {});
      expect(refusedAgain.body.error).toMatchObject({ code: 'REBUILD_RUNNING', message: expect.stringContaining(`(${next.body.rebuild.id})`) });
    } finally {
      queue.restore();
    }
  });

  it('starts one of two asked at once; the other is refused', async () => {
    const { client } = await doctored();
    const queue = holdQueue();
    try {
      const answers = await Promise.all([1, 2].map(() => client.post('/v1/reports/rebuilds', {})));
      expect(answers.map((res) => res.status).sort()).toEqual([202, 409]);
      expect(queue.held).toHaveLength(1);
    } finally {
      queue.restore();
    }
  });

  it('answers a retry with the same Idempotency-Key with the same recount, and starts no second', async () => {
    const { client } = await doctored();
    const headers = { 'idempotency-key': 'recount-once' };
    const first = await client.post('/v1/reports/rebuilds', {}, { headers });
    const retried = await client.post('/v1/reports/rebuilds', {}, { headers });
    expect([first.status, retried.status]).toEqual([202, 202]);
    expect(retried.body.rebuild.id).toBe(first.body.rebuild.id);
    await api.queuesIdle();
  });

  it('is marked FAILED when the recount throws, frees its place, and the worker does not run it again', async () => {
    const { client } = await doctored();
    // The recount's first read of the day counters fails.
    let failures = 0;
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'QueryCommand' && JSON.stringify(args.input).includes('"DAY#"') && failures === 0) {
          failures += 1;
          throw Object.assign(new Error('The table did not answer'), { name: 'InternalServerError' });
        }
        return next(args);
      },
      { step: 'initialize', name: FAULT },
    );
    const started = (await client.post('/v1/reports/rebuilds', {})).body.rebuild;
    await api.queuesIdle();
    expect(await rebuildOf(client, started.id)).toMatchObject({ status: 'FAILED', failure: 'The recount stopped on an error. Nothing it wrote was wrong: start another.', finishedAt: expect.any(String), daysChanged: null });
    // Handed again (SQS's visibility timeout), the message finds it ended.
    await api.advanceTime('PT2H');
    expect(await rebuildOf(client, started.id)).toMatchObject({ status: 'FAILED' });
    expect(failures).toBe(1);
    expect((await client.post('/v1/reports/rebuilds', {})).status).toBe(202);
    await api.queuesIdle();
  });
});

describe('GET /v1/reports/rebuilds/{rebuildId}', () => {
  it('answers 404 for another organization’s recount, an unknown one (a character off, or one more) and an id of another kind, alike', async () => {
    const { client } = await doctored();
    const started = (await client.post('/v1/reports/rebuilds', {})).body.rebuild;
    await api.queuesIdle();
    const { client: other } = await api.organization();
    const notFound = { status: 404, code: 'NOT_FOUND', message: 'Report recount not found' };
    expect((await other.get(`/v1/reports/rebuilds/${started.id}`)).body.error).toEqual(notFound);
    const last = started.id.at(-1) === '0' ? '1' : '0';
    for (const id of [`${started.id.slice(0, -1)}${last}`, `${started.id}0`, started.id.replace('rebuild_', 'lead_'), 'rebuild_']) {
      expect((await client.get(`/v1/reports/rebuilds/${id}`)).body.error, id).toEqual(notFound);
    }
    expect((await client.get(`/v1/reports/rebuilds/${started.id}`)).status).toBe(200);
  });

});
