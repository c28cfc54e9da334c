import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { usageIdentifierKey } from '#shared/auth/usage-plans';
import { logger } from '#shared/observability';
import { countAuthorizerFailure, refused } from '#shared/auth/authorizer-failures';
import { getOrganizationCounterShards } from '../organization/counter-shards';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { isMemberRole, type MemberRole } from '#shared/member-roles';
import { memberKey } from '#shared/store/keys';
import { findActiveSession, sessionEndsAt, touchSession } from './sessions';
import { csrfTokenOf } from './session-token';
import { routesDeniedTo } from './roles';

/**
 * The gateway's answer for a member's session token (the API key authorizer hands it over by its prefix; the session
 * cookie reaches it as the bearer token, ./edge/session-cookie.js). The session must be live and its member active;
 * the member's role as stored now goes in the context, where every function holds the request to the route's role and
 * every change to the session's CSRF token (shared/http/member-session.ts). The policy names every path: what a role
 * may do is the route's to say, as the answer is cached per token and reused on every route.
 */
/** The member's role as stored now, if the member is still there and not disabled: read by its key alone (no member schema in the authorizer). */
async function activeMember(organizationId: string, memberId: number): Promise<{ id: number; role: MemberRole } | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: memberKey(organizationId, memberId), ProjectionExpression: '#role, isDisabled', ExpressionAttributeNames: { '#role': 'role' } }));
  return Item && Item.isDisabled !== true && isMemberRole(Item.role) ? { id: memberId, role: Item.role } : undefined;
}

export async function authorizeSession(token: string, event: APIGatewayRequestAuthorizerEvent, context?: Context): Promise<APIGatewayAuthorizerResult> {
  const failed = async (error: unknown): Promise<never> => {
    logger.error('authorizer could not check the session', { error: error as Error });
    await countAuthorizerFailure('apiKey', context);
    throw new Error('The session store could not be read');
  };
  const session = await findActiveSession(token).catch(failed);
  if (!session) throw await refused('apiKey', context);
  const [member, counterShards] = await Promise.all([activeMember(session.organizationId, session.memberId).catch(failed), getOrganizationCounterShards(session.organizationId).catch(failed)]);
  if (!member || counterShards === undefined) throw await refused('apiKey', context);
  // Bookkeeping never refuses a live session: a failed write is logged, and the request goes on.
  const endsAt = await touchSession(session).catch((error: unknown) => {
    logger.error('could not record the session as used', { error: error as Error });
    return sessionEndsAt(session);
  });
  const [api = '', stage = '*'] = event.methodArn.split('/');
  const denied = routesDeniedTo(member.role).map(({ method, path }) => `${api}/${stage}/${method}${path}`);
  return {
    principalId: `member:${session.organizationId}:${member.id}`,
    // Every path, but those above the member's role: the gateway refuses those 403 before any function runs, and the
    // answer is cached per token and reused on every route, as a key's scope is.
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: [`${api}/${stage}/*/*`] }, ...(denied.length ? [{ Action: 'execute-api:Invoke', Effect: 'Deny' as const, Resource: denied }] : [])],
    },
    context: {
      organizationId: session.organizationId,
      memberId: member.id,
      memberRole: member.role,
      csrfToken: csrfTokenOf(token),
      sessionHash: session.tokenHash,
      sessionEndsAt: endsAt,
      keyId: '',
      keyName: '',
      scope: 'full',
      counterShards,
    },
    usageIdentifierKey: usageIdentifierKey(session.organizationId),
  };
}
