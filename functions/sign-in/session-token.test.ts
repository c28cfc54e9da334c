import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { csrfTokenOf, newSessionToken, parseSessionToken } from './session-token';

const organizationId = 'org_01JA1B2C3D4E5F6G7H8J9K0M1N';

describe('a member’s session token', () => {
  it('names its organization and member, whatever the member’s number of digits', () => {
    for (const memberId of [1, 12, 2_147_483_647]) expect(parseSessionToken(newSessionToken({ organizationId, memberId }))).toEqual({ organizationId, memberId });
  });

  it('is refused with a character before it or after it, or a member id of 0, or a lower-case organization', () => {
    const token = newSessionToken({ organizationId, memberId: 12 });
    expect(parseSessionToken(`x${token}`)).toBeUndefined();
    expect(parseSessionToken(`${token}A`)).toBeUndefined();
    expect(parseSessionToken(token.slice(0, -1))).toBeUndefined();
    expect(parseSessionToken(token.replace('_12_', '_0_'))).toBeUndefined();
    expect(parseSessionToken(token.replace('_12_', '_1a_'))).toBeUndefined();
    expect(parseSessionToken(token.replace('01JA1B2C3D4E5F6G7H8J9K0M1N', '01ja1b2c3d4e5f6g7h8j9k0m1n'))).toBeUndefined();
  });

  it('has a CSRF token of its own: its secret’s SHA-256 with a label, so no two sessions share one and it is not the token’s hash', () => {
    const [a, b] = [newSessionToken({ organizationId, memberId: 1 }), newSessionToken({ organizationId, memberId: 1 })];
    expect(csrfTokenOf(a)).toBe(createHash('sha256').update(`csrf:${a}`).digest('base64url'));
    expect(csrfTokenOf(a)).not.toBe(csrfTokenOf(b));
    expect(csrfTokenOf(a)).not.toBe(createHash('sha256').update(a).digest('base64url'));
  });
});
