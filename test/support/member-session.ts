import { createMember } from '../../functions/organization/member-rules';
import type { MemberRole } from '#shared/member-roles';
import { sentLocally } from '../../functions/sms/local-provider';
import type { Client, RequestOptions, TestApi } from './api';
import { requestFrom } from './from-address';

let signedIn = 0;

/** The client with these headers on every request, over its own. */
export function withHeaders(client: Client, headers: Record<string, string>): Client {
  const add = (options: RequestOptions = {}): RequestOptions => ({ ...options, headers: { ...headers, ...options.headers } });
  return {
    request: (method, path, options) => client.request(method, path, add(options)),
    get: (path, options) => client.get(path, add(options)),
    post: (path, body, options) => client.post(path, body, add(options)),
    put: (path, body, options) => client.put(path, body, add(options)),
    patch: (path, body, options) => client.patch(path, body, add(options)),
    delete: (path, options) => client.delete(path, add(options)),
  };
}

/**
 * A client of a member's session, as the console calls the API: a new member of the organization (an ADMIN unless
 * told), with a phone, signs in with the code the local SMS provider texted; the session token is its bearer token
 * (what the edge makes of the cookie) and the session's CSRF token goes with every request.
 */
export async function memberSession(api: TestApi, organizationId: string, { role = 'ADMIN' }: { role?: MemberRole } = {}): Promise<SessionClient> {
  const phone = `+61491570${String(200 + (signedIn++ % 800)).padStart(3, '0')}`;
  await createMember(organizationId, { role, firstName: 'Session', lastName: role === 'ADMIN' ? 'Admin' : role.charAt(0) + role.slice(1).toLowerCase(), email: `session${signedIn}@example.com`, phone });
  return signInWith(api, phone);
}

/** A session's client, with the session's token (its cookie's value) and its member as signed in. */
export type SessionClient = Client & { token: string; member: { id: number; role: MemberRole } };

let signIns = 0;

/**
 * A client of a new session of the member whose phone this is, signed in with the code texted to it. Each sign-in
 * comes from a loopback address of its own, so a file's many sessions never meet the per-address limits, which
 * test sign-in itself (functions/console).
 */
export async function signInWith(api: TestApi, phone: string): Promise<SessionClient> {
  const n = signIns++;
  const address = `127.0.${1 + (Math.floor(n / 250) % 250)}.${1 + (n % 250)}`;
  const post = (path: string, body: unknown) => requestFrom(address, 'POST', `${api.url}${path}`, JSON.stringify(body), { 'content-type': 'application/json' });
  const asked = await post('/v1/sign-in/codes', { phone });
  if (asked.status !== 202) throw new Error(`the code was not sent: ${asked.status} ${JSON.stringify(asked.body)}`);
  const code = await codeTextedTo(api, phone);
  const answer = await post('/v1/sign-in/sessions', { phone, code });
  const cookie = [answer.headers['set-cookie'] ?? []].flat().join('\n');
  const token = /__Host-session=(sps_[^;]+);/.exec(cookie)?.[1];
  if (answer.status !== 201 || !token) throw new Error(`the member did not sign in: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { ...withHeaders(api.as(token), { 'x-csrf-token': answer.body.session.csrfToken }), token, member: answer.body.session.member };
}

/**
 * The sign-in code last texted to a phone by the local SMS provider, once the codes asked so far are made: the worker
 * texts them off the request (functions/sign-in/code-queue.ts). Throws when none was.
 */
export async function codeTextedTo(api: Pick<TestApi, 'queuesIdle'>, phone: string): Promise<string> {
  await api.queuesIdle();
  const code = /^(\d{6}) is your sign-in code/.exec(lastTextTo(phone)?.body ?? '')?.[1];
  if (!code) throw new Error(`No sign-in code was texted to ${phone}`);
  return code;
}

/** What the local SMS provider last texted to a phone. */
export const lastTextTo = (phone: string) => sentLocally.filter((sms) => sms.to === phone).at(-1);
