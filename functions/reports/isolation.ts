import type { IsolationCases, IsolationIdsOf, IsolationSource } from '#shared/resource';

/**
 * How the reports answer another organization (test/isolation.test.ts): no id enters. Every report reads the
 * partition of the key's own organization (`ORG#<org>#REPORTS`) and its organization item; no parameter names an
 * organization or a record. functions/reports/reports.test.ts shows B's key answered B's numbers beside A's.
 */
const NO_ID = 'Takes no id: it reads the day counters of the key’s own organization.';

export const isolationCases: IsolationCases = {
  getReportSummary: NO_ID,
  getReportTimeseries: NO_ID,
  getReportFunnel: NO_ID,
  startReportRebuild: 'Takes no id: it recounts the key’s own organization, and its 409 names only that organization’s recount.',
  getReportRebuild: [{ path: (ids) => `/v1/reports/rebuilds/${ids.rebuildId}`, expect: 'not-found' }],
};

/** A recount of organization A, ended before B's requests, so nothing of A's moves while they are sent. */
export const isolationIds: IsolationIdsOf = async ({ client }) => ({ rebuildId: await endedRecount(client) });

/** Starts a recount of the client's organization and reads it back until it has ended: its id. */
export async function endedRecount(client: IsolationSource['client']): Promise<string> {
  const started = await client.post('/v1/reports/rebuilds', {});
  const rebuildId = String(started.body.rebuild?.id ?? '');
  if (!rebuildId) throw new Error(`the recount was not started: ${JSON.stringify(started.body)}`);
  for (let read = 0; read < 200; read++) {
    const { status } = (await client.get(`/v1/reports/rebuilds/${rebuildId}`)).body.rebuild;
    if (status === 'SUCCEEDED' || status === 'FAILED') return rebuildId;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the recount ${rebuildId} did not end`);
}
