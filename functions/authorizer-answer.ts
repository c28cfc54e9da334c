import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import type { ApiKeyScope } from '#shared/auth/scopes';
import { usageIdentifierKey } from '#shared/auth/usage-plans';
import { getOrganizationCounterShards } from './organization/counter-shards';
import { activeRoleOf } from './organization/active-role';
import { policyOf } from './authority';

/** A credential the authorizer found live, and whom it acts for. */
export interface Credential {
  principalId: string;
  organizationId: string;
  /** The member it acts for; null for the organization's own. */
  memberId: number | null;
  scope: ApiKeyScope;
  /** What the kind adds to the context the functions read (a session's CSRF token, an OAuth token's client). */
  context: Record<string, string | number | boolean>;
  /** An audience-bound token's answer allows every path (policyOf). */
  everywhere?: boolean;
  /** When it ends by itself (a key's expiry, a session's idle or absolute end, a token's life), if it does. */
  endsAt?: string | null;
}

/**
 * The authorizer's answer for a live credential, the same for every kind: the organization's counter shards and the
 * member's role read now (side by side), the policy of its authority, the context every function reads, and the usage
 * plan it is metered by. Undefined, to be refused 401 as an unknown credential is, when the organization is gone or the
 * member it acts for is removed or disabled.
 */
export async function answerFor(methodArn: string, credential: Credential): Promise<APIGatewayAuthorizerResult | undefined> {
  const { organizationId, memberId, scope } = credential;
  const [counterShards, role] = await Promise.all([getOrganizationCounterShards(organizationId), memberId === null ? null : activeRoleOf(organizationId, memberId)]);
  if (counterShards === undefined || role === undefined) return undefined;
  return {
    principalId: credential.principalId,
    policyDocument: policyOf(methodArn, { scope, role }, { everywhere: credential.everywhere }),
    // Context values are strings, numbers or booleans only: the organization's own credential has memberId and role ''.
    // `endsAt`: the functions refuse the credential from then on, though the gateway's cached answer lets it through.
    context: { keyId: '', keyName: '', ...credential.context, organizationId, scope, memberId: memberId ?? '', memberRole: role ?? '', endsAt: credential.endsAt ?? '', counterShards },
    // API Gateway meters and throttles the request against the usage plan holding this organization's key.
    usageIdentifierKey: usageIdentifierKey(organizationId),
  };
}
