import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { newId } from '#shared/ids';
import type { IsolationCases, IsolationIdsOf } from '#shared/resource';
import { OAUTH_GRANT_ENTITY, oauthKeys } from './entity';

/** How each oauth route that takes an API key answers another organization (test/isolation.test.ts). */
export const isolationCases: IsolationCases = {
  listOauthGrants: 'lists the caller’s grants',
  deleteOauthGrant: [{ path: (ids) => `/v1/oauth/grants/${ids.grantId}`, expect: 'not-found' }],
};

/** A grant of A's, put as the token endpoint puts one (a grant needs a person's consent in a browser: functions/oauth/oauth.test.ts). */
export const isolationIds: IsolationIdsOf = async ({ client }) => {
  const organizationId = (await client.get('/v1/organization')).body.organization.id as string;
  const grantId = newId('grant');
  const grant = { id: grantId, clientId: 'client_01JD3F4G5H6J7K8M9N0P1Q2R3S', clientName: 'Isolation client', scope: 'read', keyId: 'key_01JA1B2C3D4E5F6G7H8J9K0M1N', createdAt: new Date().toISOString() };
  await dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...oauthKeys.grant(organizationId, grantId), entity: OAUTH_GRANT_ENTITY, organizationId, ...grant } }));
  return { grantId };
};
