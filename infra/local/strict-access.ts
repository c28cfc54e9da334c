import { AsyncLocalStorage } from 'node:async_hooks';
import { runUnsafeSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { grantedActions, routeId, type RouteDefinition } from '#shared/routes/route';
import { onKeyUse } from '#shared/envelope-encryption';
import { ITEM_CONTEXT_KEY, keyUseStatements } from '#shared/sealing-key';
import { SERVICE_ROLE_PATH } from '#shared/iam';
import type { Capability, CapabilityContext } from '#shared/routes/route';
import {
  actsForOrganizations, ORGANIZATION_TAG, ownKeysOf, ownTableStatements, routeSessionPolicy, sessionCapabilitiesOf, sharedPartitionsOf, tableLocationOf, tenantCapabilityStatements, tenantDataPolicy,
  type OwnTableGrant, type PolicyDocument, type PolicyStatement,
} from '#shared/tenancy/policies';
import { currentSession, type TenantSession } from '#shared/tenancy/session';
import { routes, SCHEDULED_JOBS, WORKERS } from '../../functions/resources';
import { iamRequestsOf, keyRequestOf, LOCAL_ACCOUNT, localTableArn, type IamRequest } from './aws-calls';

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

/** Who makes a call, and what is asked of it beside the request: the policies IAM evaluates together. */
export interface Evaluation {
  /** The identity policy (one: a role's policy, or a session policy, each evaluated alone). */
  identity: PolicyDocument;
  principal: string;
  /** The principal's tags: the session's organization, the role's tags a key policy admits it by. */
  tags?: Record<string, string>;
  /** The resource's own policy: the sealing key's, for a call to the key. */
  resourcePolicy?: unknown;
  /** The role's ARN as `aws:PrincipalArn` reads it: the principal's role at the service's path, unless given. */
  principalArn?: string;
}

/** The role an assumed-role principal is a session of, at the service's role path, as the stacks make every role. */
export const serviceRoleArnOf = (principal: string): string => {
  const [, account = '', resource = ''] = /^arn:aws:sts::(\d+):assumed-role\/([^/]+)\//.exec(principal) ?? [];
  return `arn:aws:iam::${account}:role${SERVICE_ROLE_PATH}${resource}`;
};

/** Whether IAM allows `request` to `principal` with `identity` (and the resource's policy, when it has one). */
export function allows(request: IamRequest, { identity, principal, tags = {}, resourcePolicy, principalArn = serviceRoleArnOf(principal) }: Evaluation): boolean {
  const simulation: Simulation = {
    request: {
      principal,
      action: request.action,
      resource: { resource: request.resource, accountId: LOCAL_ACCOUNT },
      // What IAM gives every request (the unvalidated entry point derives none of it from the principal).
      contextVariables: { 'aws:PrincipalAccount': LOCAL_ACCOUNT, 'aws:PrincipalArn': principalArn, 'dynamodb:LeadingKeys': request.leadingKeys, ...request.context, ...Object.fromEntries(Object.entries(tags).map(([key, value]) => [`aws:PrincipalTag/${key}`, value])) },
    },
    identityPolicies: [{ name: 'policy', policy: identity }],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    // Named, as a validated policy: the unvalidated entry point loads a resource policy without a name, then reads it.
    ...(resourcePolicy ? { resourcePolicy: { __validated: true, policyDocument: resourcePolicy, metadata: { name: 'resource policy' }, errors: [] } } : {}),
  };
  // The unvalidated entry point: the validated one drops kms:EncryptionContext keys from the context (0.1.173).
  return runUnsafeSimulation(simulation, {}) === 'Allowed';
}

/** The sealing key's own policy, as the data stack makes it (its administration aside), for a call to the key. */
const keyPolicyFor = (request: IamRequest, tableArn: string) =>
  request.action.startsWith('kms:') ? { Version: '2012-10-17', Statement: keyUseStatements(tableLocationOf(tableArn)) } : undefined;

/** The tags capabilities put on a role (the sealing key's uses), as the stack puts them. */
const roleTagsOf = (capabilities: readonly Capability[], tableArn: string): Record<string, string> =>
  Object.assign({}, ...capabilities.map((capability) => capability.roleTags?.(localPlace(tableArn)) ?? {}));

/** What a function that signs as itself is granted: on the table, and by its capabilities (a call to the sealing key). */
type OwnGrant = OwnTableGrant & { capabilities?: readonly Capability[] };

/** A public route's capabilities on its own role: those it uses for an organization are its sessions', when it acts for one. */
const ownCapabilitiesOf = (route: RouteDefinition) => (actsForOrganizations(route) ? route.capabilities?.filter((capability) => !capability.sessionStatements) : route.capabilities);

/** The own grants of the functions that sign as themselves, by construct id: public routes, workers and scheduled jobs. */
const ownGrants = new Map<string, OwnGrant>([
  ...routes
    .filter((route) => route.auth === 'none')
    .map((route): [string, OwnGrant] => [routeId(route), { actions: grantedActions(route), indexes: route.indexes, keys: route.ownKeys, capabilities: ownCapabilitiesOf(route) }]),
  ...[...WORKERS, ...SCHEDULED_JOBS].map((worker): [string, OwnGrant] => [worker.name, { actions: worker.dynamodb, indexes: worker.indexes, keys: worker.keys, capabilities: 'capabilities' in worker ? worker.capabilities : undefined }]),
]);

/** Where the local table is, as a capability reads it (no deployment option set; the local gateway's API and stage). */
const localPlace = (tableArn: string): CapabilityContext => ({ ...tableLocationOf(tableArn), urlSuffix: 'amazonaws.com', setting: () => undefined, restApiId: 'local', stageName: 'local' });

/** A function's own role's policy, as the stack grants it: its table statement and its capabilities' statements. */
const ownPolicyOf = (grant: OwnGrant, tableArn: string): PolicyDocument => ({
  Version: '2012-10-17',
  Statement: [
    ...ownTableStatements(grant, tableArn),
    ...(grant.capabilities ?? []).flatMap((capability) =>
      capability.statements(localPlace(tableArn)).map(({ actions, resources, conditions }): PolicyStatement => ({ Effect: 'Allow', Action: actions, Resource: resources, ...(conditions ? { Condition: conditions } : {}) })),
    ),
  ],
});

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

/**
 * Forgets every decision made. The tests of the strict mode start each from none: a decision kept from an earlier
 * test would answer for code that has changed since (a policy's, as `npm run mutate` changes it between runs).
 */
export const forgetDecisions = (): void => decided.clear();

/** How many decisions are kept: a call decided again from one kept adds none. */
export const keptDecisions = (): number => decided.size;

/** A key as the patterns see it: the first pattern it matches, or the key itself. */
const kindOf = (key: string, patterns: readonly string[]) => patterns.find((pattern) => (pattern.endsWith('*') ? key.startsWith(pattern.slice(0, -1)) : key === pattern)) ?? `=${key}`;
const requestKind = ({ action, resource, leadingKeys, context }: IamRequest, patterns: readonly string[]) =>
  `${action}|${resource}|${leadingKeys.map((key) => kindOf(key, patterns)).join(',')}|${JSON.stringify(context ?? {})}`;
const grantKind = (grant: OwnGrant & { sharedPartitions?: readonly { keys: string }[] }) =>
  `${[...grant.actions].sort().join()}|${(grant.indexes ?? []).join()}|${JSON.stringify(grant.keys ?? [])}|${(grant.sharedPartitions ?? []).map((partition) => partition.keys).join()}|${(grant.capabilities ?? []).map((capability) => capability.name).join()}`;

/** Why a call a function signs as its own role is refused, or undefined when its role's grant allows it. */
export function ownRefusal(request: IamRequest, functionId: string, tableArn: string): string | undefined {
  const grant = ownGrants.get(functionId);
  if (!grant) return undefined;
  const allowed = decide(`own|${tableArn}|${functionId}|${grantKind(grant)}|${requestKind(request, ownKeysOf(grant))}`, () =>
    allows(request, { identity: ownPolicyOf(grant, tableArn), principal: `arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${functionId}Role/function`, tags: roleTagsOf(grant.capabilities ?? [], tableArn), resourcePolicy: keyPolicyFor(request, tableArn) }),
  );
  return allowed ? undefined : `the role of ${functionId} does not allow ${describe(request)} (its keys: ${ownKeysOf(grant).join(', ')})`;
}

/** The shared partitions and the capabilities of the keyed routes, as the stack gives them to the tenant-data role. */
const sharedPartitions = sharedPartitionsOf(routes);
const sessionCapabilities = sessionCapabilitiesOf(routes);

/** `text` with each id in `ids` written as its name in braces (`{organization}`), wherever it appears. */
const anyIds = (text: string, ids: Record<string, string | undefined>): string =>
  Object.entries(ids).reduce((named, [name, id]) => (id ? named.split(id).join(`{${name}}`) : named), text);

/** Why a tenant call is refused, or undefined when both the role's policy and the session's allow it. */
export function tenantRefusal(request: IamRequest, session: TenantSession, tableArn: string): string | undefined {
  const { organizationId, grant, grantName, sessionKeys, itemId } = session;
  // The organization's own keys are alike to both policies, as are those of each shared partition.
  // Both policies are made from the session's organization and item, and hold a request's ids only to be equal to
  // those: a decision kept with the ids as placeholders answers for every organization's same call (each test makes
  // organizations of its own), and a secret's item that is not the session's (named first) is any other item.
  const otherItem = request.context?.[ITEM_CONTEXT_KEY];
  const kind = anyIds(`${tableArn}|${grantKind(grant)}|${sessionKeys?.join(',') ?? ''}|${itemId ?? ''}|${requestKind(request, [`ORG#${organizationId}`, `ORG#${organizationId}#*`, ...sharedPartitions.map((partition) => partition.keys)])}`, {
    organization: organizationId,
    item: itemId,
    'another item': typeof otherItem === 'string' ? otherItem : undefined,
  });
  // Built only when a decision is not yet kept: every call of the tests passes here.
  const asTheSession = () => ({ principal: tenantPrincipal(organizationId), tags: { ...roleTagsOf(sessionCapabilities, tableArn), [ORGANIZATION_TAG]: organizationId }, resourcePolicy: keyPolicyFor(request, tableArn) });
  const rolePolicy = () => tenantDataPolicy(tableArn, sharedPartitions, tenantCapabilityStatements(sessionCapabilities, tableLocationOf(tableArn)));
  if (!decide(`role|${kind}`, () => allows(request, { identity: rolePolicy(), ...asTheSession() }))) return `the tenant-data role's policy does not allow ${describe(request)} for organization ${organizationId}`;
  if (!decide(`session|${kind}`, () => allows(request, { identity: routeSessionPolicy(grant, tableArn, organizationId, sessionKeys, itemId), ...asTheSession() }))) return `the session policy of ${grantName} does not allow ${describe(request)}`;
  return undefined;
}

const describe = ({ action, resource, leadingKeys, context }: IamRequest) =>
  context ? `${action} on ${resource.replace(/^.*:key\//, 'key/')} with ${JSON.stringify(context)}` : `${action} on ${resource.replace(/^.*:table\//, 'table/')} with keys [${leadingKeys.join(', ')}]`;

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

const STRICT_ACCESS_MIDDLEWARE = 'strictAccess';

/** Puts the strict check (and the recorder) on the shared client and on the calls to the sealing key. */
export function installStrictAccess(env: NodeJS.ProcessEnv = process.env): void {
  // Installed again (by another server in the process, or this module loaded anew on the same client, as a test
  // runner's rerun loads it), it replaces the one before rather than stack a second check with decisions of its own.
  dynamo.middlewareStack.remove(STRICT_ACCESS_MIDDLEWARE);
  const strict = env.STRICT_ACCESS !== 'off';
  const tableArnOf = (tableName: string) => localTableArn(tableName || config.tableName);
  /** Records a call's requests, and in the strict mode refuses it as IAM would deployed. */
  const check = (what: string, requests: IamRequest[]) => {
    const session = currentSession();
    const invoked = running.getStore();
    for (const recorded of recorders) recorded.push({ functionId: invoked?.functionId, route: invoked?.route, session, requests });
    if (!strict) return;
    const refusal = session
      ? requests.map((request) => tenantRefusal(request, session, tableArnOf(''))).find(Boolean)
      : invoked && !invoked.keyed
        ? requests.map((request) => ownRefusal(request, invoked.functionId, tableArnOf(''))).find(Boolean)
        : invoked?.keyed
          ? `${invoked.route} sent ${what} as its function's own role, which holds no table or key access; a keyed route's calls are signed for its organization`
          : undefined;
    if (refusal) throw new AccessDeniedLocally(`Access denied (strict mode, infra/local/strict-access.ts): ${refusal}`);
  };
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      check(String(context.commandName), iamRequestsOf(String(context.commandName), args.input as never, tableArnOf));
      return next(args);
    },
    { step: 'initialize', priority: 'low', name: STRICT_ACCESS_MIDDLEWARE },
  );
  onKeyUse(STRICT_ACCESS_MIDDLEWARE, (use) => check(use.action, [keyRequestOf(use, config.tableName)]));
}
