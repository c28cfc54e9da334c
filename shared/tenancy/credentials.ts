import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { runsInLambda } from '../runs-in-lambda';
import { METRIC } from '../observability';
import { ORGANIZATION_TAG, routeSessionPolicy, TENANT_ROLE_VARIABLES } from './policies';
import { currentSession, type TenantSession } from './session';


/** A session is refreshed this long before it expires, so no call is signed with credentials about to lapse. */
export const REFRESH_BEFORE_MS = 5 * 60_000;
/** How long a session lasts: the role's default maximum. */
export const SESSION_SECONDS = 3_600;
/** Sessions kept per container; past it the oldest is dropped (a container serves few organizations at once). */
export const MAX_SESSIONS = 500;

interface Deployment {
  roleArn: string;
  tableArn: string;
}

let deployment: Deployment | null | undefined;
/** The deployed role and table, read once; missing in Lambda, a keyed request fails loudly rather than sign as the function. */
function deploymentOf(env: NodeJS.ProcessEnv = process.env): Deployment | null {
  if (deployment !== undefined) return deployment;
  const [roleArn, tableArn] = [env[TENANT_ROLE_VARIABLES.role], env[TENANT_ROLE_VARIABLES.table]];
  // `sam local` runs the deployed template against DynamoDB Local, with no STS to ask.
  if (env.AWS_SAM_LOCAL) return (deployment = null);
  if (roleArn && tableArn) return (deployment = { roleArn, tableArn });
  if (runsInLambda(env)) throw new Error(`Missing required environment variables ${TENANT_ROLE_VARIABLES.role} and ${TENANT_ROLE_VARIABLES.table}: a keyed route signs its calls for its organization`);
  return (deployment = null);
}

/** The function's own credentials (its role's), as the SDK would resolve them, fetched once and again near expiry. */
const ownChain = defaultProvider();
let own: { credentials: Promise<AwsCredentialIdentity>; refreshAt: number } | undefined;
function ownCredentials(): Promise<AwsCredentialIdentity> {
  if (own && Date.now() < own.refreshAt) return own.credentials;
  const credentials = ownChain();
  own = { credentials, refreshAt: Infinity };
  credentials.then(
    (resolved) => own?.credentials === credentials && (own.refreshAt = resolved.expiration ? resolved.expiration.getTime() - REFRESH_BEFORE_MS : Infinity),
    () => own?.credentials === credentials && (own = undefined),
  );
  return credentials;
}

let sts: STSClient | undefined;
/** AssumeRole calls so far, for the tests and the bench (the metric counts them deployed). */
export const assumedRoles = { count: 0 };

async function assumeTenantRole({ roleArn, tableArn }: Deployment, session: TenantSession): Promise<AwsCredentialIdentity> {
  sts ??= new STSClient({ maxAttempts: 3 });
  assumedRoles.count += 1;
  const { metrics } = await import('../metrics');
  metrics.addMetric(METRIC.tenantSessionsAssumed, MetricUnit.Count, 1);
  const { Credentials } = await sts.send(
    new AssumeRoleCommand({
      RoleArn: roleArn,
      RoleSessionName: session.organizationId.slice(0, 64),
      DurationSeconds: SESSION_SECONDS,
      Tags: [{ Key: ORGANIZATION_TAG, Value: session.organizationId }],
      Policy: JSON.stringify(routeSessionPolicy(session.grant, tableArn)),
    }),
  );
  if (!Credentials?.AccessKeyId || !Credentials.SecretAccessKey) throw new Error('AssumeRole answered no credentials');
  return { accessKeyId: Credentials.AccessKeyId, secretAccessKey: Credentials.SecretAccessKey, sessionToken: Credentials.SessionToken, expiration: Credentials.Expiration };
}

const sessions = new Map<string, { credentials: Promise<AwsCredentialIdentity>; refreshAt: number }>();

/** The credentials of an organization's session for one grant: assumed once per container, again near expiry. */
function sessionCredentials(session: TenantSession): Promise<AwsCredentialIdentity> {
  const found = deploymentOf();
  if (!found) return ownCredentials();
  const key = `${session.organizationId}\u0000${session.grantName}`;
  const cached = sessions.get(key);
  if (cached && Date.now() < cached.refreshAt) return cached.credentials;
  const credentials = assumeTenantRole(found, session);
  const entry = { credentials, refreshAt: Infinity };
  sessions.delete(key);
  sessions.set(key, entry);
  if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
  credentials.then(
    (resolved) => void (entry.refreshAt = (resolved.expiration?.getTime() ?? Date.now() + SESSION_SECONDS * 1000) - REFRESH_BEFORE_MS),
    // A session that could not be assumed is asked again by the next request, not remembered as failed.
    () => sessions.get(key) === entry && sessions.delete(key),
  );
  return credentials;
}

/**
 * The credentials every AWS client of a function signs with: the session of the organization the work acts for, else
 * the function's own. Marked memoized, so the SDK calls it for every request rather than keep its first answer.
 */
export const requestCredentials: AwsCredentialIdentityProvider & { memoized: true } = Object.assign(
  async () => {
    const session = currentSession();
    return session ? sessionCredentials(session) : ownCredentials();
  },
  { memoized: true as const },
);
