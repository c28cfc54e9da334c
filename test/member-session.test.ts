import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { memberSessionChecks, memberSessionOf } from '#shared/http/member-session';

/** A member's session as API Gateway hands the authorizer's context on: every value as text. */
const session = { memberId: '12', memberRole: 'MANAGER', csrfToken: 'csrf-of-the-session', organizationId: 'org_1' };

describe('a member’s session, read from the authorizer’s context', () => {
  it('is the member’s id, role and CSRF token, as text or as numbers', () => {
    expect(memberSessionOf(session)).toEqual({ memberId: 12, role: 'MANAGER', csrfToken: 'csrf-of-the-session' });
    expect(memberSessionOf({ ...session, memberId: 12 })).toEqual({ memberId: 12, role: 'MANAGER', csrfToken: 'csrf-of-the-session' });
  });

  it('is none for a key’s context, or one whose member id, role or CSRF token is missing or not one', () => {
    expect(memberSessionOf({ organizationId: 'org_1', keyId: 'key_1', scope: 'full' })).toBeUndefined();
    expect(memberSessionOf(undefined)).toBeUndefined();
    for (const memberId of [undefined, '', '0', '-1', '1.5', 'x']) expect(memberSessionOf({ ...session, memberId }), String(memberId)).toBeUndefined();
    for (const memberRole of [undefined, '', 'OWNER', 'admin']) expect(memberSessionOf({ ...session, memberRole }), String(memberRole)).toBeUndefined();
    for (const csrfToken of [undefined, '', 12]) expect(memberSessionOf({ ...session, csrfToken }), String(csrfToken)).toBeUndefined();
  });
});

describe('the checks of a member’s session, before a route runs', () => {
  const check = (event: Partial<APIGatewayProxyEvent>, route = {}) => () => (memberSessionChecks(route).before as (request: { event: Partial<APIGatewayProxyEvent> }) => void)({ event });
  const sessionEvent = (httpMethod: string, headers: Record<string, string> = {}) => ({ httpMethod, headers, requestContext: { authorizer: session } as never });

  it('lets a key’s request and a request with no context through, but not to a route only a session calls', () => {
    expect(check({ httpMethod: 'POST', headers: {} })).not.toThrow();
    expect(check({ httpMethod: 'POST', headers: {}, requestContext: { authorizer: { keyId: 'key_1' } } as never })).not.toThrow();
    expect(check({ httpMethod: 'GET', headers: {}, requestContext: { authorizer: { keyId: 'key_1' } } as never }, { sessionOnly: true })).toThrow(expect.objectContaining({ status: 403, code: 'SESSION_REQUIRED' }));
  });

  it('lets a session read without its CSRF token, and change only with it, in any case of the header’s name', () => {
    expect(check(sessionEvent('GET'))).not.toThrow();
    expect(check(sessionEvent('POST'))).toThrow(expect.objectContaining({ status: 403, code: 'CSRF_TOKEN_REQUIRED' }));
    expect(check(sessionEvent('DELETE', { 'X-CSRF-Token': 'csrf-of-the-sessio' }))).toThrow(expect.objectContaining({ code: 'CSRF_TOKEN_REQUIRED' }));
    expect(check(sessionEvent('PATCH', { 'x-csrf-token': 'csrf-of-the-session' }))).not.toThrow();
    expect(check(sessionEvent('PUT', { 'X-CSRF-TOKEN': 'csrf-of-the-session' }))).not.toThrow();
  });
});
