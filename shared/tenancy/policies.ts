import { DYNAMO_ACTIONS, TABLE_INDEXES, type DynamoAction, type IndexName, type OwnKeys, type SharedPartition } from '../table';
import { grantedActions, type Capability, type RouteDefinition, type TableLocation } from '../routes/route';
import type { PolicyDocument, PolicyStatement } from '../iam';

export type { PolicyDocument, PolicyStatement } from '../iam';

/**
 * The IAM documents of the second wall between organizations (docs/decisions/tenancy.md): what a request's session may
 * reach. Written once here and read by the CDK stack (the tenant-data role and each route's session), by the local
 * strict mode that evaluates every call before it is sent, and by the tests that evaluate the synthesized template.
 */

/**
 * Where a container's tenant sessions come from. Deployed: TENANT_DATA_ROLE_ARN, the role every keyed route assumes
 * with its organization as a session tag and its own actions as the session policy, on the table TABLE_ARN. Under
 * `npm start` and the tests neither is set: DynamoDB Local checks no signature, so a session signs as the process
 * does, and the strict mode (infra/local/strict-access.ts) evaluates each call against the same policies instead.
 */
export const TENANT_ROLE_VARIABLES = { role: 'TENANT_DATA_ROLE_ARN', table: 'TABLE_ARN' } as const;

/** The session tag naming the organization a session acts for. */
export const ORGANIZATION_TAG = 'organizationId';

/** The organization of the session, as IAM reads it while evaluating a policy. */
export const ORGANIZATION_TAG_VARIABLE = `\${aws:PrincipalTag/${ORGANIZATION_TAG}}`;

/**
 * The partition keys an organization's session may touch: its own partition (`ORG#<org>`) and those under it
 * (`ORG#<org>#…`). Never `ORG#<org>*`: `ORG#ab` would then pass for `a`.
 */
export const organizationKeyPatterns = (organization = ORGANIZATION_TAG_VARIABLE): string[] => [`ORG#${organization}`, `ORG#${organization}#*`];

/**
 * The actions a tenant session may ever be granted: the route table's own. Each names its keys, so the condition on
 * them binds: a Scan or a PartiQL statement names none, and IAM passes a `ForAllValues` condition on an empty set.
 */
export const TENANT_DATA_ACTIONS: readonly DynamoAction[] = [...DYNAMO_ACTIONS].sort();

/** The table's ARN and those of its indexes: the ones named, else every one (by name: no wildcard to widen). */
export const tableResources = (tableArn: string, indexes: readonly string[] = TABLE_INDEXES.map((index) => index.indexName)): string[] => [tableArn, ...indexes.map((index) => `${tableArn}/index/${index}`)];

/**
 * Whether a route's function works through tenant sessions: a keyed route's whole request, and a public route's once it
 * has named the organization (`organizationSession`).
 */
export const actsForOrganizations = (route: Pick<RouteDefinition, 'auth' | 'organizationSession'>): boolean => route.auth !== 'none' || route.organizationSession !== undefined;

/** The shared partitions the routes acting for organizations name, each once: what the tenant-data role allows beside the organizations' keys. */
export const sharedPartitionsOf = (routes: readonly Pick<RouteDefinition, 'auth' | 'organizationSession' | 'sharedPartitions'>[]): SharedPartition[] =>
  distinctPartitions(routes.flatMap((route) => (actsForOrganizations(route) ? (route.sharedPartitions ?? []) : [])));

/** Each shared partition once, by its keys (several routes may name one). */
export const distinctPartitions = (partitions: readonly SharedPartition[]): SharedPartition[] => [...new Map(partitions.map((partition) => [partition.keys, partition])).values()];

/**
 * The tenant-data role's one policy: the route actions on the table and every index, where every key names the
 * session's organization; and each shared partition the routes name, with its own actions on the table alone.
 */
export function tenantDataPolicy(tableArn: string, sharedPartitions: readonly SharedPartition[], capabilityStatements: readonly PolicyStatement[] = []): PolicyDocument {
  const statements: PolicyStatement[] = [
    {
      Sid: 'OwnOrganizationsItems',
      Effect: 'Allow',
      Action: TENANT_DATA_ACTIONS.map((action) => `dynamodb:${action}`),
      Resource: tableResources(tableArn),
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': organizationKeyPatterns() } },
    },
    ...distinctPartitions(sharedPartitions).map((partition, index): PolicyStatement => ({ Sid: `SharedPartition${index + 1}`, ...partitionStatement(partition, tableArn) })),
    ...capabilityStatements,
  ];
  return { Version: '2012-10-17', Statement: statements };
}

/** The capabilities routes acting for organizations use for them (`sessionStatements`: the sealing key's uses), each once. */
export const sessionCapabilitiesOf = (routes: readonly Pick<RouteDefinition, 'auth' | 'organizationSession' | 'capabilities'>[]): Capability[] => [
  ...new Set(routes.flatMap((route) => (actsForOrganizations(route) ? (route.capabilities ?? []).filter((capability) => capability.sessionStatements) : []))),
];

/** The statements those capabilities give the tenant-data role: each limited to the session's organization, by its tag. */
export const tenantCapabilityStatements = (capabilities: readonly Capability[], where: TableLocation): PolicyStatement[] =>
  capabilities.flatMap((capability) => capability.sessionStatements!(where, ORGANIZATION_TAG_VARIABLE));

/** The table's place, read from its ARN (`arn:<partition>:dynamodb:<region>:<account>:table/<name>`), as a session policy is built at run time. */
export function tableLocationOf(tableArn: string): TableLocation {
  const [, partition = '', , region = '', account = '', resource = ''] = tableArn.split(':');
  return { partition, region, account, tableName: resource.replace(/^table\//, '') };
}

/** A shared partition's actions on the table alone, where every key matches its pattern. */
const partitionStatement = ({ keys, actions }: SharedPartition, tableArn: string): PolicyStatement => ({
  Effect: 'Allow',
  Action: [...actions].sort().map((action) => `dynamodb:${action}`),
  Resource: [tableArn],
  Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys] } },
});

/** What one route's function does with the table: its actions, the indexes it queries, and the shared partitions it reaches. */
export interface TableGrant {
  actions: readonly DynamoAction[];
  indexes?: readonly IndexName[];
  sharedPartitions?: readonly SharedPartition[];
  /** Its capabilities that act for the organization (the sealing key's uses), when it has any. */
  capabilities?: readonly Capability[];
}

/** What a keyed route's session is granted: its table grant, and its capabilities that act for the organization. */
export function sessionGrantOf(route: Pick<RouteDefinition, 'method' | 'alsoPatch' | 'idempotencyKey' | 'dynamodb' | 'indexes' | 'sharedPartitions' | 'capabilities'>): TableGrant {
  const capabilities = (route.capabilities ?? []).filter((capability) => capability.sessionStatements);
  return { actions: grantedActions(route), indexes: route.indexes, sharedPartitions: route.sharedPartitions, ...(capabilities.length ? { capabilities } : {}) };
}

/**
 * A route's session policy for one organization: passed with AssumeRole, it narrows the session to the route's own
 * actions and indexes on that organization's keys, and to the shared partitions the route names, so the least
 * privilege each route's role had survives the shared tenant-data role (a session may do only what both allow).
 */
export function routeSessionPolicy(grant: TableGrant, tableArn: string, organizationId: string, keys: readonly string[] = organizationKeyPatterns(organizationId), itemId?: string): PolicyDocument {
  const statements: PolicyStatement[] = [
    {
      Effect: 'Allow',
      Action: [...new Set(grant.actions)].sort().map((action) => `dynamodb:${action}`),
      Resource: tableResources(tableArn, grant.indexes ?? []),
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...keys] } },
    },
    ...distinctPartitions(grant.sharedPartitions ?? []).map((partition) => partitionStatement(partition, tableArn)),
    ...(grant.capabilities ?? []).flatMap((capability) => capability.sessionStatements?.(tableLocationOf(tableArn), organizationId, itemId) ?? []),
  ];
  return { Version: '2012-10-17', Statement: statements };
}

/** The keys of every organization: what a function that acts across them (a worker, a public route) reaches by default. */
export const EVERY_ORGANIZATION = 'ORG#*';

/**
 * What a function that signs as its own role does with the table (a public route, a worker, a scheduled job, an
 * authorizer: the named exceptions of docs/data-model.md): its actions and indexes, on the keys it names alone.
 */
export interface OwnTableGrant extends Pick<TableGrant, 'actions' | 'indexes'> {
  /** The partition keys it touches, on the table and its indexes: `ORG#*` unless it names others. */
  keys?: readonly OwnKeys[];
}

/** The key patterns an own role's grant covers: those it names, else every organization's. */
export const ownKeysOf = (grant: OwnTableGrant): string[] => (grant.keys ?? [EVERY_ORGANIZATION]).map((entry) => (typeof entry === 'string' ? entry : entry.keys));

/**
 * A function's own role's statements on the table, as the stack grants them and the strict mode evaluates them: one
 * per set of actions, each on the key patterns that take that set. An action named for a pattern that the grant does
 * not have is a mistake in the route table: refused loudly.
 */
export function ownTableStatements(grant: OwnTableGrant, tableArn: string): PolicyStatement[] {
  const bySet = new Map<string, { actions: string[]; patterns: string[] }>();
  for (const entry of grant.keys ?? [EVERY_ORGANIZATION]) {
    const { keys, actions } = typeof entry === 'string' ? { keys: entry, actions: grant.actions } : entry;
    const stray = actions.filter((action) => !grant.actions.includes(action));
    if (stray.length) throw new Error(`${keys}: ${stray.join(', ')} is not among the function's actions (${grant.actions.join(', ')})`);
    const sorted = [...new Set(actions)].sort();
    const set = bySet.get(sorted.join()) ?? { actions: sorted, patterns: [] };
    set.patterns.push(keys);
    bySet.set(sorted.join(), set);
  }
  return [...bySet.values()].map(({ actions, patterns }) => ({
    Effect: 'Allow',
    Action: actions.map((action) => `dynamodb:${action}`),
    Resource: tableResources(tableArn, grant.indexes ?? []),
    Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns } },
  }));
}
