import { describe, expect, it } from 'vitest';
import { mayCall } from './roles';

describe('what a member may call', () => {
  it('follows the least role the document names for the operation, and MEMBER where it names none', () => {
    expect(['ADMIN', 'MANAGER', 'MEMBER'].map((role) => mayCall(role as never, 'PATCH /v1/organization'))).toEqual([true, false, false]);
    expect(['ADMIN', 'MANAGER', 'MEMBER'].map((role) => mayCall(role as never, 'POST /v1/automations'))).toEqual([true, true, false]);
    expect(['ADMIN', 'MANAGER', 'MEMBER'].map((role) => mayCall(role as never, 'POST /v1/leads/{leadId}/activities'))).toEqual([true, true, true]);
  });

  it('offers nothing to nobody signed in', () => {
    expect(mayCall(undefined, 'POST /v1/leads')).toBe(false);
  });
});
