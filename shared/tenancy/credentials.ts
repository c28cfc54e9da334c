import type { STSClient } from '@aws-sdk/client-sts';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { runsInLambda } from '../runs-in-lambda';
import { ORGANIZATION_TAG, routeSessionPolicy, TENANT_ROLE_VARIABLES } from './policies';
import { currentSession, sessionEvent, type TenantSession } from './session';

/** A session is refreshed this long before it expires, so no call is signed with credentials about to lapse. */
export const REFRESH_BEFORE_MS = 5 * 60_000;
/** How long a session lasts: the role's default maximum. */
export const SESSION_SECONDS = 3_600;
/** Sessions kept per container; past it the least recently assumed is dropped (a container serves few organizations at once). */
export const MAX_SESSIONS = 500;

/** Where deployed sessions come from: the tenant-data role, and the table the session policies name. */
export interface TenantDeployment {
  roleArn: string;
  tableArn: string;
}

/** The deployed role and table, or null under `npm start`, the tests and `sam local`; missing in Lambda, a loud failure. */
export function tenantDeploymentOf(env: NodeJS.ProcessEnv = process.env): TenantDeployment | null {
  const [roleArn, tableArn] = [env[TENANT_ROLE_VARIABLES.role], env[TENANT_ROLE_VARIABLES.table]];
  // `sam local` runs the deployed template against DynamoDB Local, with no STS to ask.
  if (env.AWS_SAM_LOCAL) return null;
  if (roleArn && tableArn) return { roleArn, tableArn };
  if (runsInLambda(env)) throw new Error(`Missing required environment variables ${TENANT_ROLE_VARIABLES.role} and ${TENANT_ROLE_VARIABLES.table}: a keyed route signs its calls for its organization`);
  return null;
}

type Cached = { credentials: Promise<AwsCredentialIdentity>; refreshAt: number };

/** Keeps `obtain`'s answer until REFRESH_BEFORE_MS before it expires; a failure is not kept, so the next call asks again. */
function keep(cache: Map<string, Cached>, key: string, obtain: () => Promise<AwsCredentialIdentity>, now: () => number): Promise<AwsCredentialIdentity> {
  const cached = cache.get(key);
  if (cached && now() < cached.refreshAt) return cached.credentials;
  const entry: Cached = { credentials: obtain(), refreshAt: Infinity };
  cache.delete(key);
  cache.set(key, entry);
  if (cache.size > MAX_SESSIONS) cache.delete(cache.keys().next().value!);
  entry.credentials.then(
    (resolved) => void (entry.refreshAt = resolved.expiration ? resolved.expiration.getTime() - REFRESH_BEFORE_MS : Infinity),
    () => void (cache.get(key) === entry && cache.delete(key)),
  );
  return entry.credentials;
}

export interface TenantCredentialsOptions {
  deployment: TenantDeployment | null;
  /** The function's own credentials (its role's). */
  own: AwsCredentialIdentityProvider;
  sts: () => Pick<STSClient, 'send'> | Promise<Pick<STSClient, 'send'>>;
  /** Counts each AssumeRole, and each one that failed (the metrics deployed). */
  onAssume?: (session: TenantSession) => void;
  onRefused?: (error: unknown) => void;
  now?: () => number;
}

/**
 * The credentials provider every AWS client of a function signs with: the session of the organization the work acts
 * for (./session.ts), assumed once per container for each organization and refreshed before it expires; else the
 * function's own. Marked memoized, so the SDK calls it for every request rather than keep its first answer.
 */
export function tenantCredentials({ deployment, own, sts, onAssume, onRefused, now = Date.now }: TenantCredentialsOptions): AwsCredentialIdentityProvider & { memoized: true } {
  const cache = new Map<string, Cached>();
  const ownCredentials = () => keep(cache, '', () => own(), now);
  const assume = async (found: TenantDeployment, session: TenantSession): Promise<AwsCredentialIdentity> => {
    onAssume?.(session);
    const { AssumeRoleCommand } = await loadSts();
    const { Credentials } = await (await sts()).send(
      new AssumeRoleCommand({
        RoleArn: found.roleArn,
        RoleSessionName: session.organizationId.slice(0, 64),
        DurationSeconds: SESSION_SECONDS,
        Tags: [{ Key: ORGANIZATION_TAG, Value: session.organizationId }],
        Policy: JSON.stringify(routeSessionPolicy(session.grant, found.tableArn, session.organizationId, session.sessionKeys, session.itemId)),
      }),
    ).catch((error: unknown) => {
      // Throttled or failed: the request answers 503 (a ThrottlingException is the store's kind of transient failure).
      onRefused?.(error);
      throw error;
    });
    if (!Credentials?.AccessKeyId || !Credentials.SecretAccessKey) throw new Error('AssumeRole answered no credentials');
    return { accessKeyId: Credentials.AccessKeyId, secretAccessKey: Credentials.SecretAccessKey, sessionToken: Credentials.SessionToken, expiration: Credentials.Expiration };
  };
  const provider = async () => {
    const session = currentSession();
    // Locally a session signs as the process does: DynamoDB Local checks no signature, the strict mode checks the policy.
    if (!session || !deployment) return ownCredentials();
    const found = deployment;
    return keep(cache, `${session.organizationId}\u0000${session.grantName}\u0000${session.itemId ?? ''}`, () => assume(found, session), now);
  };
  return Object.assign(provider, { memoized: true as const });
}

/**
 * STS (./sts.ts, about 35 KB bundled with its query protocol and XML parser), loaded once: at import in a deployed
 * function that acts for organizations, which the stack gives the tenant-data role (infra/cdk/tenant-data-role.ts,
 * `admitToTenantData`) and whose first request assumes it; at the first AssumeRole otherwise. A function that acts for
 * no organization (the workers, the stream consumer, the authorizers) never loads it, nor do the local server and the
 * tests, which assume none.
 */
let stsModule: Promise<typeof import('./sts')> | undefined;
const loadSts = () => (stsModule ??= import('./sts'));
// Started at import, not awaited there: the function's init goes on to ask for its first request while it loads, and
// this module stays loadable where top-level await is not (the integrations' generators read the routes as CommonJS).
if (process.env[TENANT_ROLE_VARIABLES.role]) void loadSts();

let sts: STSClient | undefined;

/** The container's provider, over the environment's deployment: read at the first call, so a misconfigured function fails then, loudly. */
let made: ReturnType<typeof tenantCredentials> | undefined;
export const requestCredentials: AwsCredentialIdentityProvider & { memoized: true } = Object.assign(
  (options?: Parameters<AwsCredentialIdentityProvider>[0]) =>
    (made ??= tenantCredentials({
      deployment: tenantDeploymentOf(),
      own: defaultProvider(),
      sts: async () => (sts ??= new (await loadSts()).STSClient({ maxAttempts: 3 })),
      onAssume: () => sessionEvent('assumed'),
      onRefused: () => sessionEvent('refused'),
    }))(options),
  { memoized: true as const },
);
