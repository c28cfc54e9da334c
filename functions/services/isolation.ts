import type { IsolationCases } from '#shared/resource';

/**
 * How each services route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  getService: [{ path: (ids) => `/v1/services/${ids.serviceId}`, expect: 'not-found' }],
  getScenario: [{ path: (ids) => `/v1/scenarios/${ids.scenarioId}`, expect: 'not-found' }],
  createService: 'creates; references nothing',
  listServices: 'lists the caller’s services',
  updateService: [{ path: (ids) => `/v1/services/${ids.serviceId}`, body: () => ({ isActive: false }), expect: 'not-found' }],
  deleteService: [{ path: (ids) => `/v1/services/${ids.serviceId}`, expect: 'not-found' }],
  listScenarios: [{ path: (ids) => `/v1/scenarios?tradeServiceId=${ids.serviceId}`, expect: 'empty-list' }],
  listTradeCategories: 'the built-in catalog, the same for every organization',
  updateScenario: [{ path: (ids) => `/v1/scenarios/${ids.scenarioId}`, body: () => ({ isActive: false }), expect: 'not-found' }],
};
