import type { IsolationCases, IsolationIdsOf } from '#shared/resource';
import { companyNotes } from './notes';

/**
 * How each companies route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  getCompany: [{ path: (ids) => `/v1/companies/${ids.companyId}`, expect: 'not-found' }],
  updateCompany: [{ path: (ids) => `/v1/companies/${ids.companyId}`, body: () => ({ name: 'Taken' }), expect: 'not-found' }],
  deleteCompany: [{ path: (ids) => `/v1/companies/${ids.companyId}`, expect: 'not-found' }],
  ...companyNotes.isolationCases,
  // No filter takes an id; a name search of the other organization's company finds nothing.
  listCompanies: [{ path: () => '/v1/companies?q=harbourside', expect: 'empty-list' }],
  createCompany: 'creates; references nothing',
};

/** A note of the demo's first company. */
export const isolationIds: IsolationIdsOf = async ({ demo, client }) => ({
  noteId: (await client.get(`/v1/companies/${(demo.companyIds as string[])[0]}/notes`)).body.notes[0].id,
});
