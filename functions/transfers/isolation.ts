import type { IsolationCases } from '../../shared/resource';

/**
 * How each transfers route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  createTransfer: [
    {
      path: () => '/v1/transfers',
      body: (ids) => ({ label: 'B', method: 'COLD', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'Always', scenarioId: ids.scenarioId }),
      expect: 'refused',
    },
  ],
  listTransfers: [{ path: (ids) => `/v1/transfers?scenarioId=${ids.scenarioId}`, expect: 'empty-list' }],
  getTransfer: [{ path: (ids) => `/v1/transfers/${ids.transferId}`, expect: 'not-found' }],
  deleteTransfer: [{ path: (ids) => `/v1/transfers/${ids.transferId}`, expect: 'not-found' }],
  resolveTransfer: [{ path: (ids) => `/v1/transfers/${ids.transferId}/resolve`, body: () => ({ name: 'Sam', topic: 'A leak', summary: 'Water under the sink.' }), expect: 'not-found' }],
  updateTransfer: [{ path: (ids) => `/v1/transfers/${ids.transferId}`, body: () => ({ isEnabled: false }), expect: 'not-found' }],
};
