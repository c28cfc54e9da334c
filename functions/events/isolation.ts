import type { IsolationCases } from '../../shared/resource';

/**
 * How each events route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  listEvents: 'lists the caller’s events; the type filter is a name, not an id',
};
