import type { ResourceTour } from '#shared/route-tour';

const LOOPBACK = 'http://127.0.0.1:33418/callback';
/** A PKCE challenge (the S256 of a verifier the tour never exchanges). */
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/**
 * The route tour's requests of oauth (test/support/route-tour.ts): one per route that touches the table. The tour's
 * client posts JSON, so the consent post and the token endpoint, which take forms, are toured as the refusals they
 * answer to one (the consent post is refused for its missing CSRF token before it reads anything, the token request
 * for its missing grant_type); functions/oauth/oauth.test.ts walks them with forms.
 */
export const tour: ResourceTour = {
  stops: [
    { route: 'POST /oauth/register', kind: 'other', request: () => ({ method: 'POST', path: '/oauth/register', body: { client_name: 'Tour client', redirect_uris: [LOOPBACK] } }), keep: (b, s) => (s.oauthClientId = b.client_id) },
    {
      route: 'GET /oauth/authorize',
      kind: 'read',
      exception: { reason: 'Counts its source first: a flood is refused at one UpdateItem, before the client is read or its document fetched' },
      request: (s) => ({ method: 'GET', path: `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: s.oauthClientId, redirect_uri: LOOPBACK, code_challenge: CHALLENGE, code_challenge_method: 'S256' })}` }),
    },
    { route: 'POST /oauth/authorize', kind: 'other', status: 400, request: () => ({ method: 'POST', path: '/oauth/authorize', body: {} }) },
    { route: 'POST /oauth/token', kind: 'other', status: 400, request: () => ({ method: 'POST', path: '/oauth/token', body: {} }) },
    { route: 'GET /v1/oauth/grants', kind: 'list', request: () => ({ method: 'GET', path: '/v1/oauth/grants' }) },
    { route: 'DELETE /v1/oauth/grants/{grantId}', kind: 'other', status: 404, request: () => ({ method: 'DELETE', path: '/v1/oauth/grants/grant_01JD3F4G5H6J7K8M9N0P1Q2R3S' }) },
  ],
};
