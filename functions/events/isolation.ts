import type { IsolationCases } from '#shared/resource';

/**
 * How each events route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  listEvents: 'lists the caller’s events; the type filter is a name, not an id',
  // functions/events/events.test.ts shows B's samples of a type A has events of: B's own, or the example.
  listEventSamples: 'reads only the caller’s events of the type (ORG#<org>#EVENTS#TYPE#<type>); the type is a name, not an id',
  // The isolation run records no events (it runs without the stream consumer); functions/events/events.test.ts reads organization
  // A's real event with B's key and gets 404.
  getEvent: 'reads only the caller’s event partition (ORG#<org>#EVENTS): another organization’s event id is a key B cannot build; functions/events/events.test.ts shows the 404 with a real event',
};
