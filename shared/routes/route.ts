import type * as v from 'valibot';
import type { PolicyStatement } from '../iam';
import type { MemberRole } from '../member-roles';
import type { IndexName, OwnKeys, SharedPartition } from '../table';
import { DYNAMO_ACTIONS, type DynamoAction } from '../table';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export { DYNAMO_ACTIONS, type DynamoAction };

type Schema = v.GenericSchema;

/** What the OpenAPI document says about one response beyond the defaults. */
export interface ResponseDoc {
  description?: string;
  /** The body when it is not the error envelope, e.g. the SMS provider's bare {message}. */
  schema?: Schema;
  /** Named example bodies. */
  examples?: Record<string, unknown>;
  /** The answer has no body (a redirect). */
  empty?: boolean;
  /** Response headers worth documenting (a redirect's Location): name → description. */
  headers?: Record<string, string>;
}

/**
 * A request the API sends rather than answers: a Standard Webhooks POST to a subscriber's URL. The document
 * describes it as the receiver sees it: the signature headers, the body, and what each answer makes the sender do.
 */
export interface OutgoingWebhook {
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /** The JSON body the receiver is sent. */
  body: Schema;
  /** Headers every one carries, as OpenAPI header parameters: what the receiver checks it with. */
  headers?: readonly Record<string, unknown>[];
  /** The receiver's answers by status or range (`2XX`, `default`), each with what it makes the sender do, and headers the sender reads. */
  answers: Readonly<Record<string, { description: string; headers?: Readonly<Record<string, string>> }>>;
}

/** A request header an operation reads, as the document declares it. */
export interface RequestHeaderDoc {
  description: string;
  /** Its JSON Schema: every value a client sends is bounded (a length, a pattern or a format). */
  schema: Record<string, unknown>;
}

export interface RouteRequest {
  path?: Schema;
  query?: Schema;
  body?: Schema;
  /**
   * The function reads the body itself, as text (`request.body`), because its protocol answers a body that is not JSON,
   * or not `body`, in its own terms (the MCP endpoint's JSON-RPC Parse error and Invalid Request), not with the envelope.
   * `body` still describes it in the document; the handler is given no parsed `body`.
   */
  bodyAsText?: true;
}

/** One row of the route table: the stack, the local server and the document are made from it; its handler validates with its schemas. */
export interface RouteDefinition<R extends RouteRequest = RouteRequest, S extends Schema = Schema> {
  operationId: string;
  method: HttpMethod;
  /** Resource path as API Gateway writes it, e.g. /v1/leads/{leadId}. */
  path: string;
  /**
   * The resource folder below functions/ whose `handlers.ts` answers it: set by the list of resources
   * (functions/resources.ts), never written in a row.
   */
  resource?: string;
  summary: string;
  /** What the operation does and what an integrator must know about it. */
  description: string;
  /** Its group in the reference: a tag the document describes (the document refuses one it does not). */
  tag: string;
  /** What the caller presents: the Bearer API key (the default), or nothing the API issues (a public route). */
  auth?: 'apiKey' | 'none';
  /**
   * A public route's gateway authorizer: it names, from the request itself, the organization whose usage plan
   * meters it, as the API key does on the other routes: one a resource provides (`ResourceDefinition.authorizers`), by
   * its name. A public route without one is metered against nobody (only the stage's throttle and its own `throttle`).
   */
  authorizer?: AuthorizerKind;
  dynamodb: DynamoAction[];
  /** Secondary indexes the function queries; its grant covers the table and only these. */
  indexes?: IndexName[];
  /** The partitions outside every organization a route's session reaches, each a named exception with why (docs/data-model.md). */
  sharedPartitions?: SharedPartition[];
  /** A public route's: the partition keys its function's own role reaches (patterns), every organization's (`ORG#*`) unless named. */
  ownKeys?: OwnKeys[];
  /**
   * A public route that acts for the organization once known, through its tenant session (its own role reaches
   * `ownKeys` alone): named by its authorizer's answer (`authorizer`, with `itemId`, the one item whose secrets it may
   * open), or by what its function reads first (`function`, `actingForOrganization`).
   */
  organizationSession?: 'authorizer' | 'function';
  /** Status of a successful answer. */
  status: number;
  /** Media type of a successful answer; JSON unless set (the docs page is HTML). */
  contentType?: string;
  /** Cache-Control of a successful answer; no-store unless set (the reference page's script may be cached). */
  cacheControl?: string;
  request: R;
  /** The body of a successful answer; the handler must return its input type, so drift is a compile error. */
  response: S;
  /** Error statuses this route can answer besides 401 and 500; the body is the error envelope unless `responses` says otherwise. */
  errors: number[];
  /** The request body the document shows, when the record's example's fields are not one (an SMS to send, a batch). */
  requestExample?: unknown;
  /** Per-status documentation: a body other than the envelope, or examples. */
  responses?: Record<number, ResponseDoc>;
  /**
   * Request headers the operation reads, beyond Authorization and the Idempotency-Key every POST and PATCH takes
   * (If-None-Match, a sender's signature): name → its description and schema, declared as header parameters.
   */
  requestHeaders?: Record<string, RequestHeaderDoc>;
  /**
   * The bodies of a route that reads its raw body itself (no `request.body`), as the document describes them:
   * media type → the schema of what it takes in that type.
   */
  requestBodies?: Record<string, Schema>;
  /**
   * The largest body the function reads, when above the API's 256 KB (MAX_BODY_BYTES): a route whose senders post more
   * (a voice platform's call report), which holds each kind of body to its own limit below this one.
   */
  maxBodyBytes?: number;
  /** Files from node_modules the function reads at run time; the stack copies each beside the function's bundle. */
  assets?: string[];
  /** Its own throttle at API Gateway, below the stage's: a public route one noisy sender must not let starve the rest. */
  throttle?: { rateLimit: number; burstLimit: number };
  /**
   * Its function's reserved concurrency: at most this many invocations at once, taken from no other function, and
   * none more (Lambda throttles the rest, which the gateway answers 503 with Retry-After). For a public route whose
   * function waits on a host outside the API: a flood of it holds this many, not the account's pool.
   */
  reservedConcurrency?: number;
  /**
   * Browsers on other sites may call it (CORS): an OPTIONS method on its path, behind the same authorizer, is
   * answered by the same function, which sees `request.method` OPTIONS and answers the preflight.
   */
  preflight?: boolean;
  /**
   * Checks the request's headers (names lower-cased) before its body is read or validated, and throws the ApiError
   * it is refused with: for a refusal a protocol orders ahead of everything else (the MCP endpoint's Origin check).
   */
  admission?: (headers: Record<string, string>) => void;
  /**
   * False on a POST whose messages carry their own ids and retries (the MCP endpoint's JSON-RPC, whose tools take
   * `idempotencyKey` for the API request each makes): it keeps no answers, and an Idempotency-Key sent to it answers 400.
   */
  idempotencyKey?: false;
  /** The route audience-bound tokens are for (RFC 8707: OAuth's access tokens): every other keyed route refuses one 401 itself, whatever the gateway's cache let through. */
  tokenAudience?: true;
  /** What the function reaches beyond the table (a provider, a queue): capabilities its resource exports, whose settings and grants the stack gives it. */
  capabilities?: readonly Capability[];
  /** The function itself sends a request outside the API while answering (a webhook test's POST): with its capabilities', its MCP tool is open-world. */
  callsOutside?: true;
  /** A public route whose function signs with the API's signing key, as keyed ones may (the cursors'): OAuth's consent page. */
  readsSigningKey?: true;
  /** A POST that takes away what exists (a rotation revokes, an upsert overwrites): its MCP tool is destructive, as every PUT, PATCH and DELETE tool is. */
  replaces?: true;
  /**
   * A PUT the spec names that PATCH answers too, with the same partial body: every resource that changes takes
   * PATCH. The table derives the PATCH row (`withPatchAliases`); one function answers both.
   */
  alsoPatch?: boolean;
  /** On a derived PATCH row: the operationId of the PUT it answers for. */
  aliasOf?: string;
  /**
   * Only a member's session calls it (the console's own routes: the member signed in, their passkeys, the organization's
   * keys): a key or token is refused 403 SESSION_REQUIRED before anything runs, and no MCP tool or integration offers it.
   */
  sessionOnly?: true;
  /** What of it a member signed in alone may ask (a role above MEMBER, a member's phone): a key or token asking it is refused 403 SESSION_REQUIRED. */
  sessionFor?: string;
  /**
   * The least role a member needs to call it (shared/member-roles.ts): the row's own, else its resource's `sessionRoles`.
   * Every credential acting for a member is held to it and its scope; an operator's key to its scope alone.
   */
  sessionRole?: MemberRole;
}

/** The REQUEST authorizers of the API Gateway, by name: the API key's (`apiKey`, functions/authorizer.ts), and those resources provide. */
export type AuthorizerKind = string;

/** Where a function is deployed, as a capability sees it (the stack's tokens): what its settings and grants are built from. */
export interface CapabilityContext {
  tableName: string;
  partition: string;
  region: string;
  account: string;
  urlSuffix: string;
  /** A deployment option by name, when set. */
  setting: (name: string) => string | undefined;
  /** The REST API's id and stage, where a route's function is made (none for a worker's, made before the API). */
  restApiId?: string;
  stageName?: string;
}

/**
 * Something a function reaches beyond the table, as plain data a resource exports and the stack applies to every
 * route (or worker) that names it: the settings the function reads and the IAM statements it needs.
 */
export interface Capability {
  name: string;
  /** It reaches outside the API (a message to a person, a request to a subscriber): a route with it is an open-world MCP tool. */
  reachesOutside: boolean;
  environment: (where: CapabilityContext) => Record<string, string>;
  /** `conditions` as an IAM statement's Condition (a key named by its alias: kms:ResourceAliases). */
  statements: (where: CapabilityContext) => { actions: string[]; resources: string[]; conditions?: Record<string, Record<string, string | string[]>> }[];
  /** Why a statement names resources by a trailing wildcard, when one does (what cdk-nag asks of IAM5). */
  wildcardReason?: string;
  /** Tags on the function's role, by which a resource's own policy allows it (a key made before the role, in another stack). */
  roleTags?: (where: CapabilityContext) => Record<string, string>;
  /**
   * On a keyed route, the calls it makes for the request's organization, signed with its session (shared/tenancy):
   * IAM statements limited to `organization` (the session's tag as a policy variable on the tenant-data role, the
   * literal id in the route's session policy). The tenant-data role takes them and the `roleTags`; the keyed route's
   * own role takes neither, only the `environment`. A worker or a public route, which acts for no organization, keeps
   * `statements` on its own role. `itemId`: a session for that item's secrets alone (an inbound post's endpoint).
   */
  sessionStatements?: (where: TableLocation, organization: string, itemId?: string) => PolicyStatement[];
}

/** Where the table is, as a session policy is built from its ARN at run time and the stack from its tokens. */
export type TableLocation = Pick<CapabilityContext, 'tableName' | 'partition' | 'region' | 'account'>;

/**
 * A function's handler: its module below functions/ without extension, then `#` and the export when that is not
 * `handler` (`leads/handlers#createLeadHandler`, `sms/sweep`).
 */
export function parseHandler(handler: string): { module: string; exportName: string } {
  const [module, exportName = 'handler'] = handler.split('#') as [string, string?];
  return { module, exportName };
}

/** The operationId of the route whose function answers this one: a PATCH alias is answered by its PUT's. */
const answeringOperationId = (route: Pick<RouteDefinition, 'operationId' | 'aliasOf'>) => route.aliasOf ?? route.operationId;

/** A route's handler: the export of its resource's `handlers.ts` named by the operationId of the route answering it. */
export function handlerOf(route: Pick<RouteDefinition, 'operationId' | 'aliasOf' | 'resource'>): string {
  if (!route.resource) throw new Error(`Route ${route.operationId} is not in the list of resources (functions/resources.ts)`);
  return `${route.resource}/handlers#${answeringOperationId(route)}Handler`;
}

/**
 * The authorizer the gateway runs before a route's function, whose usageIdentifierKey (the organization)
 * meters the request against a usage plan: the API key's unless the route is public; a public route's own, if any.
 */
export function authorizerOf(route: Pick<RouteDefinition, 'auth' | 'authorizer'>): AuthorizerKind | undefined {
  return route.auth === 'none' ? route.authorizer : 'apiKey';
}

/**
 * Rows of the route table look alike by design: each is the whole, declarative description of one
 * endpoint, and the stack, the local server and the document read them as data.
 */
export function defineRoute<R extends RouteRequest, S extends Schema>(route: RouteDefinition<R, S>): RouteDefinition<R, S> {
  return route;
}

/** Whether a route may overwrite, clear, cancel or revoke what exists: every PUT, PATCH and DELETE, and a POST that `replaces`. */
export const mayDestroy = (route: Pick<RouteDefinition, 'method' | 'replaces'>) => route.method === 'PUT' || route.method === 'PATCH' || route.method === 'DELETE' || route.replaces === true;

/** Whether a route reaches outside the API: a text to a phone, or a POST to a webhook URL, made now or queued. */
export const reachesOutside = (route: Pick<RouteDefinition, 'capabilities' | 'callsOutside'>) => route.callsOutside === true || (route.capabilities ?? []).some((capability) => capability.reachesOutside);

/** The header a write's retry is recognised by (../http/idempotency.ts). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** An Idempotency-Key the API takes: 1 to 255 printable ASCII characters, no spaces (what any HTTP header can carry). */
export const IDEMPOTENCY_KEY_FORMAT = /^[\x21-\x7E]{1,255}$/;
export const IDEMPOTENCY_KEY_RULE = 'must be 1 to 255 printable characters without spaces';

/** What an Idempotency-Key costs a POST or PATCH: claim, read, complete or release its record. */
export const IDEMPOTENCY_ACTIONS: readonly DynamoAction[] = ['PutItem', 'GetItem', 'UpdateItem', 'DeleteItem'];

/** Whether a route honours Idempotency-Key: every POST and PATCH but those that say they take none. */
export const isIdempotent = (route: Pick<RouteDefinition, 'method' | 'idempotencyKey'>) => (route.method === 'POST' || route.method === 'PATCH') && route.idempotencyKey !== false;

/** Whether a route's function answers a method that honours Idempotency-Key, its own or its PATCH alias's. */
export const answersIdempotently = (route: Pick<RouteDefinition, 'method' | 'alsoPatch' | 'idempotencyKey'>) => isIdempotent(route) || route.alsoPatch === true;

/**
 * Whether a route is an action that takes no fields (`POST /v1/webhooks/{webhookId}/rotate-secret`): a POST, PUT or PATCH
 * with no body schema and no raw bodies of its own. Its body may be absent or `{}`; anything else is refused as any
 * body is that a route cannot use (malformed JSON, an unknown field, over 256 KB) rather than ignored while the action runs.
 */
export const takesNoFields = (route: Pick<RouteDefinition, 'method' | 'request' | 'requestBodies'>) =>
  route.method !== 'GET' && route.method !== 'DELETE' && !route.request.body && !route.requestBodies;

/**
 * Whether a route's body is JSON: a body schema (parsed by the chain, or read as text by a protocol that speaks JSON),
 * or an action that takes no fields, whose body may be absent or `{}`. Such a body is taken as `application/json`
 * alone. A route with raw bodies of its own (`requestBodies`: a form, an inbound post) reads their types itself.
 */
export const takesJsonBody = (route: Pick<RouteDefinition, 'method' | 'request' | 'requestBodies'>) => route.request.body !== undefined || takesNoFields(route);

/**
 * Whether a route reads a body: every POST, PUT and PATCH (a JSON body, raw bodies of its own such as a form, or none
 * it must refuse), and any route with a body schema. Each such body is held to a size limit before anything parses it.
 */
export const readsBody = (route: Pick<RouteDefinition, 'method' | 'request' | 'requestBodies'>) =>
  (route.method !== 'GET' && route.method !== 'DELETE') || route.request.body !== undefined || route.requestBodies !== undefined;

/** The DynamoDB actions a route's function is granted: its row's, plus the idempotency record's when it has one. */
export function grantedActions(route: Pick<RouteDefinition, 'method' | 'dynamodb' | 'alsoPatch' | 'idempotencyKey'>): DynamoAction[] {
  return [...new Set([...route.dynamodb, ...(answersIdempotently(route) ? IDEMPOTENCY_ACTIONS : [])])].sort();
}

const WRITE_ACTIONS: readonly DynamoAction[] = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'];

/** Whether the route writes records of its own (an idempotency record aside): such a write can lose a race and answer 409. */
export const writesRecords = (route: Pick<RouteDefinition, 'dynamodb'>): boolean => route.dynamodb.some((action) => WRITE_ACTIONS.includes(action));

/**
 * Whether a route writes: it is granted a write of its own records, or keeps its answers to an Idempotency-Key. A route
 * that does neither cannot write (its function's role allows no write), so its function never needs the write path.
 */
export const routeWrites = (route: Pick<RouteDefinition, 'method' | 'dynamodb' | 'alsoPatch' | 'idempotencyKey'>): boolean => writesRecords(route) || answersIdempotently(route);

/** `updateProduct` → `patchProduct`: the PATCH alias's operationId. */
const patchOperationId = (operationId: string) => (operationId.startsWith('update') ? `patch${operationId.slice('update'.length)}` : `${operationId}ViaPatch`);

/**
 * The route table with a PATCH row after the rows of every PUT marked `alsoPatch`: the same path, schemas and
 * function, documented as its own operation (which, as every PATCH, takes Idempotency-Key).
 */
export function withPatchAliases(routes: RouteDefinition[]): RouteDefinition[] {
  const aliases = routes
    .filter((route) => route.method === 'PUT' && route.alsoPatch)
    .map(({ alsoPatch: _, ...route }): RouteDefinition => ({
      ...route,
      method: 'PATCH',
      operationId: patchOperationId(route.operationId),
      description: `The same as \`PUT ${route.path}\`: send only the fields to change. ${route.description}`,
      aliasOf: route.operationId,
    }));
  return [...routes, ...aliases];
}

/** The construct id of a route's function: its answering operationId, capitalized (`CreateLead`). */
export function routeId(route: Pick<RouteDefinition, 'operationId' | 'aliasOf'>): string {
  const operationId = answeringOperationId(route);
  return operationId[0]!.toUpperCase() + operationId.slice(1);
}
