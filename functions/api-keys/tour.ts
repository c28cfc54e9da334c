import type { ResourceTour } from '#shared/route-tour';
import { asMember } from '../sign-in/tour';

/** The route tour's requests of the API keys (test/support/route-tour.ts): the ADMIN signed in on the sign-in tour makes, lists and revokes one. */
export const tour: ResourceTour = {
  after: ['sign-in'],
  stops: [
    // A key is one item put, not a record of a sequence or a counted collection: no transaction.
    { route: 'POST /v1/api-keys', kind: 'other', request: (s) => ({ method: 'POST', path: '/v1/api-keys', body: { name: 'Website form', scope: 'write' }, headers: asMember(s, true) }), keep: (b, s) => (s.consoleKeyId = b.key.id) },
    { route: 'GET /v1/api-keys', kind: 'list', request: (s) => ({ method: 'GET', path: '/v1/api-keys', headers: asMember(s) }) },
    { route: 'DELETE /v1/api-keys/{keyId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/api-keys/${s.consoleKeyId}`, headers: asMember(s, true) }) },
  ],
};
