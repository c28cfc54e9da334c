import type { IsolationCases } from '#shared/resource';
import { transfers } from './collection';

/**
 * How each transfers route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  // The CRUD definition's cases, but that a create and a list may name another organization's scenario.
  ...transfers.isolationCases,
  createTransfer: [
    {
      path: () => '/v1/transfers',
      body: (ids) => ({ label: 'B', method: 'COLD', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'Always', scenarioId: ids.scenarioId }),
      expect: 'refused',
    },
  ],
  listTransfers: [{ path: (ids) => `/v1/transfers?scenarioId=${ids.scenarioId}`, expect: 'empty-list' }],
  resolveTransfer: [{ path: (ids) => `/v1/transfers/${ids.transferId}/resolve`, body: () => ({ name: 'Sam', topic: 'A leak', summary: 'Water under the sink.' }), expect: 'not-found' }],
};
