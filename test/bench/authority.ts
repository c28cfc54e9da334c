import { createApiKey, revokeApiKey } from '#shared/auth/api-keys';
import { flushAuthorizerCache } from '#shared/auth/authorizer-cache';
import { createMember } from '../../functions/organization/member-rules';
import { jsonClient } from '../stress/http';
import type { Ratio } from './report';
import { compare, type Comparison } from './timing';

export interface AuthorityFigures {
  /** A warm request with a key that acts for a member (its role held) against one with the organization's own key, both answered from the gateway's cache. */
  warm: Comparison;
  /** Requests a revoked key made after its revocation before one was refused, the cache at 300 s (1: the very next). */
  answeredAfterRevocation: number;
}

/**
 * What holding each credential to its member's role costs an unchanged key, and how soon a revoked one ends: against
 * the local server with the authorizer's cache at the deployed 300 s (functions/authority.ts, shared/auth/authorizer-cache.ts).
 */
export async function measureAuthority({ url, newOrganization, rounds }: { url: string; newOrganization: (name: string) => Promise<{ organizationId: string; apiKey: string }>; rounds: number }): Promise<AuthorityFigures> {
  const { organizationId, apiKey } = await newOrganization('Bench authority');
  const owner = await createMember(organizationId, { role: 'ADMIN', firstName: 'Bench', lastName: 'Owner', email: 'owner@bench.example.com' });
  const membersKey = (await createApiKey(organizationId, null, 'Bench integration', 'full', owner.id)).token;
  const asMember = jsonClient(url, membersKey);
  const asOrganization = jsonClient(url, apiKey);
  const warm = await compare(() => asMember.get('/v1/leads'), () => asOrganization.get('/v1/leads'), { rounds });
  // A key used, cached, then revoked: the requests it still had answered before the first refusal.
  const revoked = await createApiKey(organizationId, null, 'Bench revoked', 'full', owner.id);
  const asRevoked = jsonClient(url, revoked.token);
  await asRevoked.get('/v1/leads');
  // As the console's revocation does: the key revoked, then the stage's cache flushed.
  await revokeApiKey(organizationId, revoked.key.keyId);
  await flushAuthorizerCache();
  let answeredAfterRevocation = 1;
  while ((await asRevoked.get('/v1/leads')).status !== 401 && answeredAfterRevocation < 1_000) answeredAfterRevocation += 1;
  return { warm, answeredAfterRevocation };
}

export function authorityRatios({ warm, answeredAfterRevocation }: AuthorityFigures): Ratio[] {
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  return [
    {
      name: 'A warm request with an unchanged member’s key ÷ with an organization’s key (as every key was)',
      value: warm.ratio,
      target: 1.05,
      better: 'lower',
      met: warm.ratio <= 1.05,
      why: `Both answered from the gateway's cache, which holds the member's role with the key: ${ms(warm.measured)} against ${ms(warm.baseline)}.`,
    },
    { name: 'Requests of a revoked key until one is refused (1: the very next)', value: answeredAfterRevocation, target: 1, better: 'lower', met: answeredAfterRevocation <= 1, why: 'The revocation flushes the cached answers; the next request is decided afresh.' },
  ];
}
