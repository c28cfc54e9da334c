import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { tenantCredentials } from '#shared/tenancy/credentials';
import { actingFor, type TenantSession } from '#shared/tenancy/session';
import { LOCAL_AWS_ENV } from '../../infra/local/dynamodb-local';
import { localTableArn } from '../../infra/local/aws-calls';
import { startLocalSts } from '../support/local-sts';
import { compare, median, type Comparison } from './timing';

export interface TenantSessionFigures {
  /** A warm call signed for its organization (the session cached) against the same call signed as the function. */
  warm: Comparison;
  /** AssumeRoles each new organization's first call made, and that call's median milliseconds against a warm one's. */
  first: { assumeRoles: number; ms: number; warmMs: number };
}

/**
 * What signing each call for its organization costs a deployed container (docs/decisions/tenancy.md): two clients of
 * the same DynamoDB Local, one signing with the container's tenant sessions (assumed from an STS on this machine, as
 * deployed from STS), one with fixed credentials, as every call was signed before; and a new organization's first call.
 */
export async function measureTenantSessions({ endpoint, tableName, key, rounds }: { endpoint: string; tableName: string; key: { pk: string; sk: string }; rounds: number }): Promise<TenantSessionFigures> {
  const sts = await startLocalSts();
  const fixed = { accessKeyId: LOCAL_AWS_ENV.AWS_ACCESS_KEY_ID, secretAccessKey: LOCAL_AWS_ENV.AWS_SECRET_ACCESS_KEY };
  const provider = tenantCredentials({ deployment: { roleArn: 'arn:aws:iam::000000000000:role/sales-pipeline-tenant-data', tableArn: localTableArn(tableName) }, own: async () => fixed, sts: () => sts.sts });
  const clientWith = (credentials: DynamoDBClient['config']['credentials'] | typeof fixed) => DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint, region: LOCAL_AWS_ENV.AWS_REGION, credentials }));
  const signed = clientWith(provider);
  const unsigned = clientWith(fixed);
  const sessionOf = (organizationId: string): TenantSession => ({ organizationId, grantName: 'GetLead', grant: { actions: ['GetItem'] } });
  const read = (client: DynamoDBDocumentClient) => client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  try {
    const warm = await compare(() => actingFor(sessionOf('org_BENCHWARM'), () => read(signed)), () => read(unsigned), { rounds });
    const firsts: number[] = [];
    const before = sts.requests.length;
    const newOrganizations = 30;
    for (let i = 0; i < newOrganizations; i++) {
      const started = performance.now();
      await actingFor(sessionOf(`org_BENCHNEW${i}`), () => read(signed));
      firsts.push(performance.now() - started);
    }
    return { warm, first: { assumeRoles: (sts.requests.length - before) / newOrganizations, ms: median(firsts), warmMs: warm.measured } };
  } finally {
    signed.destroy();
    unsigned.destroy();
    await sts.stop();
  }
}
