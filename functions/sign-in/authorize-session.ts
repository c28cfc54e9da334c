import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { logger } from '#shared/observability';
import { countAuthorizerFailure, refused } from '#shared/auth/authorizer-failures';
import { answerFor } from '../authorizer-answer';
import { findActiveSession, sessionEndsAt, touchSession } from './sessions';
import { csrfTokenOf } from './session-token';

/**
 * The gateway's answer for a member's session token (the API key authorizer hands it over by its prefix; the session
 * cookie reaches it as the bearer token, ./edge/viewer-request.js). The session must be live and its member active;
 * the member's role as stored now decides what the session may call (../authority.ts), and every change carries the
 * session's CSRF token (shared/http/member-session.ts).
 */
export async function authorizeSession(token: string, event: APIGatewayRequestAuthorizerEvent, context?: Context): Promise<APIGatewayAuthorizerResult> {
  const failed = async (error: unknown): Promise<never> => {
    logger.error('authorizer could not check the session', { error: error as Error });
    await countAuthorizerFailure('apiKey', context);
    throw new Error('The session store could not be read');
  };
  const session = await findActiveSession(token).catch(failed);
  if (!session) throw await refused('apiKey', context);
  const { organizationId, memberId } = session;
  // Bookkeeping never refuses a live session: a failed write is logged, and the request goes on.
  const endsAt = await touchSession(session).catch((error: unknown) => {
    logger.error('could not record the session as used', { error: error as Error });
    return sessionEndsAt(session);
  });
  const answer = await answerFor(event.methodArn, { principalId: `member:${organizationId}:${memberId}`, organizationId, memberId, scope: 'full', endsAt, context: { csrfToken: csrfTokenOf(token), sessionHash: session.tokenHash, sessionEndsAt: endsAt } }).catch(failed);
  if (!answer) throw await refused('apiKey', context);
  return answer;
}
