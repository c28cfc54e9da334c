import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { bearerToken } from '../shared/auth/tokens';
import { findActiveKeyByToken } from '../shared/repositories/api-keys';

/** API Gateway answers a thrown "Unauthorized" with 401 (the UNAUTHORIZED gateway response). */
const unauthorized = () => new Error('Unauthorized');

/**
 * The policy covers every method and path of the stage: API Gateway caches it per token,
 * and a policy naming only the first method would deny the key's next, different request.
 */
export function wholeApiArn(methodArn: string): string {
  const [arn = '', stage = '*'] = methodArn.split('/');
  return `${arn}/${stage}/*/*`;
}

export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const token = bearerToken(event.headers);
  if (!token) throw unauthorized();
  const key = await findActiveKeyByToken(token);
  if (!key) throw unauthorized();
  return {
    principalId: key.keyId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeApiArn(event.methodArn) }],
    },
    context: { organizationId: key.organizationId, keyId: key.keyId },
  };
};
