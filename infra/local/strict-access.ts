import { AsyncLocalStorage } from 'node:async_hooks';
import { runUnsafeSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { grantedActions, routeId, type RouteDefinition } from '#shared/routes/route';
import { ORGANIZATION_TAG, ownKeysOf, ownTableStatement, routeSessionPolicy, sharedPartitionsOf, tenantDataPolicy, type OwnTableGrant, type PolicyDocument } from '#shared/tenancy/policies';
import { currentSession, type TenantSession } from '#shared/tenancy/session';
import { routes, SCHEDULED_JOBS, WORKERS } from '../../functions/resources';
import { iamRequestsOf, LOCAL_ACCOUNT, localTableArn, type IamRequest } from './aws-calls';

/**
 * The strict mode of `npm start` and the tests: DynamoDB Local checks no policy, so before each call is sent it is
 * evaluated as IAM would evaluate it deployed (with @cloud-copilot/iam-simulate, a development dependency that is
 * never bundled into a function), and a call AWS would refuse fails here, loudly, naming what was denied.
 * - A keyed route's call, signed for its organization: the tenant-data role's policy with the session's tag, and the
 *   route's session policy; both must allow it (IAM intersects them).
 * - A keyed route's call signed as no organization: refused, as its function's own role grants no table access.
 * - A call of a function that signs as its own role (a public route, a worker, a scheduled job): its role's grant, its
 *   actions and indexes on the keys it names (`ownKeys`, `keys`; every organization's unless named).
 * STRICT_ACCESS=off turns it off (a developer bisecting something else).
 */

/** A denied call: the error AWS answers with, so the request fails as it would deployed. */
export class AccessDeniedLocally extends Error {
  override name = 'AccessDeniedException';
}

/** The session a tenant call is signed with, as its ARN would read. */
export const tenantPrincipal = (organizationId: string) => `arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/TenantData/${organizationId}`;

/** Whether `policy` allows `request`, for a session tagged with `organizationId` when given (one identity policy alone). */
export function allows(policy: PolicyDocument, request: IamRequest, organizationId?: string, principal = tenantPrincipal(organizationId ?? 'none')): boolean {
  const simulation: Simulation = {
    request: {
      principal,
      action: request.action,
      resource: { resource: request.resource, accountId: LOCAL_ACCOUNT },
      contextVariables: { 'dynamodb:LeadingKeys': request.leadingKeys, ...(organizationId ? { [`aws:PrincipalTag/${ORGANIZATION_TAG}`]: organizationId } : {}) },
    },
    identityPolicies: [{ name: 'policy', policy }],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
  };
  return runUnsafeSimulation(simulation, {}) === 'Allowed';
}

/** The own grants of the functions that sign as themselves, by construct id: public routes, workers and scheduled jobs. */
const ownGrants = new Map<string, OwnTableGrant>([
  ...routes.filter((route) => route.auth === 'none').map((route): [string, OwnTableGrant] => [routeId(route), { actions: grantedActions(route), indexes: route.indexes, keys: route.ownKeys }]),
  ...[...WORKERS, ...SCHEDULED_JOBS].map((worker): [string, OwnTableGrant] => [worker.name, { actions: worker.dynamodb, indexes: worker.indexes, keys: worker.keys }]),
]);

/**
 * Decisions already made, by what decides them: the grant, the action and resource, and each key by the pattern it
 * matches (`X*` matches every key that begins with X alike, so one key of a kind stands for all). Every call of the
 * tests is evaluated, most of them alike: the cache keeps the strict mode from costing the suite its time.
 */
const decided = new Map<string, boolean>();
function decide(cacheKey: string, evaluate: () => boolean): boolean {
  const known = decided.get(cacheKey);
  if (known !== undefined) return known;
  if (decided.size >= 100_000) decided.clear();
  const answer = evaluate();
  decided.set(cacheKey, answer);
  return answer;
}

/** A key as the patterns see it: the first pattern it matches, or the key itself. */
const kindOf = (key: string, patterns: readonly string[]) => patterns.find((pattern) => (pattern.endsWith('*') ? key.startsWith(pattern.slice(0, -1)) : key === pattern)) ?? `=${key}`;
const requestKind = ({ action, resource, leadingKeys }: IamRequest, patterns: readonly string[]) => `${action}|${resource}|${leadingKeys.map((key) => kindOf(key, patterns)).join(',')}`;
const grantKind = (grant: OwnTableGrant & { sharedPartitions?: readonly { keys: string }[] }) =>
  `${[...grant.actions].sort().join()}|${(grant.indexes ?? []).join()}|${(grant.keys ?? []).join()}|${(grant.sharedPartitions ?? []).map((partition) => partition.keys).join()}`;

/** Why a call a function signs as its own role is refused, or undefined when its role's grant allows it. */
export function ownRefusal(request: IamRequest, functionId: string, tableArn: string): string | undefined {
  const grant = ownGrants.get(functionId);
  if (!grant) return undefined;
  const policy: PolicyDocument = { Version: '2012-10-17', Statement: [ownTableStatement(grant, tableArn)] };
  const allowed = decide(`own|${tableArn}|${functionId}|${grantKind(grant)}|${requestKind(request, ownKeysOf(grant))}`, () => allows(policy, request, undefined, `arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${functionId}Role/function`));
  return allowed ? undefined : `the role of ${functionId} does not allow ${describe(request)} (its keys: ${ownKeysOf(grant).join(', ')})`;
}

/** The shared partitions the keyed routes name, as the stack gives them to the tenant-data role. */
const sharedPartitions = sharedPartitionsOf(routes);

/** Why a tenant call is refused, or undefined when both the role's policy and the session's allow it. */
export function tenantRefusal(request: IamRequest, session: TenantSession, tableArn: string): string | undefined {
  const { organizationId, grant, grantName } = session;
  // The organization's own keys are alike to both policies, as are those of each shared partition.
  const kind = `${tableArn}|${organizationId}|${grantKind(grant)}|${requestKind(request, [`ORG#${organizationId}`, `ORG#${organizationId}#*`, ...sharedPartitions.map((partition) => partition.keys)])}`;
  if (!decide(`role|${kind}`, () => allows(tenantDataPolicy(tableArn, sharedPartitions), request, organizationId))) return `the tenant-data role's policy does not allow ${describe(request)} for organization ${organizationId}`;
  if (!decide(`session|${kind}`, () => allows(routeSessionPolicy(grant, tableArn, organizationId), request, organizationId))) return `the session policy of ${grantName} does not allow ${describe(request)}`;
  return undefined;
}

const describe = ({ action, resource, leadingKeys }: IamRequest) => `${action} on ${resource.replace(/^.*:table\//, 'table/')} with keys [${leadingKeys.join(', ')}]`;

/** One AWS call as recorded for the policy simulation: who made it, as whom, and what IAM authorizes of it. */
export interface RecordedCall {
  /** The construct id of the function that made it (a route's, a worker's), when one did. */
  functionId?: string;
  /** The route's operationId, when a route made it. */
  route?: string;
  session?: TenantSession;
  requests: IamRequest[];
}

interface Running {
  functionId: string;
  route?: string;
  /** A keyed route's: its calls must be signed for its organization. */
  keyed: boolean;
}

const running = new AsyncLocalStorage<Running>();
const recorders = new Set<RecordedCall[]>();

/** Runs one route's invocation so that its calls are known as the route's (infra/local/server.ts). */
export const duringRoute = <T>(route: Pick<RouteDefinition, 'auth' | 'operationId' | 'aliasOf'>, invoke: () => Promise<T>): Promise<T> =>
  running.run({ functionId: routeId(route), route: route.operationId, keyed: route.auth !== 'none' }, invoke);

/** Runs one worker's invocation so that its calls are known as its function's (infra/local/workers.ts). */
export const duringWorker = <T>(name: string, invoke: () => Promise<T>): Promise<T> => running.run({ functionId: name, keyed: false }, invoke);

/** The calls `action` makes, with what IAM would authorize of each. */
export async function recordAwsCalls(action: () => Promise<unknown>): Promise<RecordedCall[]> {
  const recorded: RecordedCall[] = [];
  recorders.add(recorded);
  try {
    await action();
  } finally {
    recorders.delete(recorded);
  }
  return recorded;
}

let installed = false;
/** Puts the strict check (and the recorder) on the shared client, once per process. */
export function installStrictAccess(env: NodeJS.ProcessEnv = process.env): void {
  if (installed) return;
  installed = true;
  const strict = env.STRICT_ACCESS !== 'off';
  const tableArnOf = (tableName: string) => localTableArn(tableName || config.tableName);
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const session = currentSession();
      const invoked = running.getStore();
      const requests = iamRequestsOf(String(context.commandName), args.input as never, tableArnOf);
      for (const recorded of recorders) recorded.push({ functionId: invoked?.functionId, route: invoked?.route, session, requests });
      if (strict && session) {
        for (const request of requests) {
          const refusal = tenantRefusal(request, session, tableArnOf(''));
          if (refusal) throw new AccessDeniedLocally(`Access denied (strict mode, infra/local/strict-access.ts): ${refusal}`);
        }
      } else if (strict && invoked && !invoked.keyed) {
        for (const request of requests) {
          const refusal = ownRefusal(request, invoked.functionId, tableArnOf(''));
          if (refusal) throw new AccessDeniedLocally(`Access denied (strict mode, infra/local/strict-access.ts): ${refusal}`);
        }
      } else if (strict && invoked?.keyed) {
        throw new AccessDeniedLocally(`Access denied (strict mode, infra/local/strict-access.ts): ${invoked.route} sent ${String(context.commandName)} as its function's own role, which holds no table access; a keyed route's calls are signed for its organization`);
      }
      return next(args);
    },
    { step: 'initialize', priority: 'low', name: 'strictAccess' },
  );
}
