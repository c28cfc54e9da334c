import type * as v from 'valibot';
import type { AuthorizerDefinition, ChannelDefinition, ResourceDefinition, ScheduledJob, WorkerDefinition } from '#shared/resource';
import { allDescribed } from '#shared/routes/described';
import { withPatchAliases, type AuthorizerKind, type OutgoingWebhook, type RouteDefinition } from '#shared/routes/route';
import * as folders from './resource-modules';
import { neededRole } from '#shared/member-roles';
import { WEBHOOK_EXPIRY } from './webhooks/entity';
import { smsSender } from './sms/capability';
import { PUSH_SENDER_CAPABILITIES } from './notifications/capability';

/**
 * Every resource of the API, in the order the reference shows them, each by the name its folder's resource.ts
 * exports (functions/resource-modules.ts, generated from the folders, re-exports them). The stack, the local server,
 * the OpenAPI document, the event types, the demo seed and the isolation tests are all read from this list.
 */
export const resources: readonly ResourceDefinition[] = [
  folders.leads, folders.inquiries, folders.sms, folders.appointments, folders.automations, folders.companies,
  folders.organization, folders.services, folders.products, folders.transfers, folders.policies, folders.faqs,
  folders.events, folders.auditLog, folders.webhooks, folders.inboundEndpoints, folders.receptionist, folders.reports,
  folders.signIn, folders.notifications, folders.apiKeys, folders.mcp, folders.oauth, folders.meta,
];
const unlisted = Object.entries(folders).filter(([, resource]) => !resources.includes(resource));
if (unlisted.length > 0) throw new Error(`The resources of ${unlisted.map(([name]) => name).join(', ')} have a folder but no place in the list of resources (functions/resources.ts)`);

/** The entities whose changes make a resource's events or audit entries (its `events` and `audited` records). */
export const entitiesOfChanges = (resource: ResourceDefinition): string[] => [...new Set([...(resource.events ?? []), ...(resource.audited ?? [])].map((source) => source.entity))];

/** The route table: every endpoint of the API, one row each, and the PATCH aliases of the spec's PUTs. */
export const routes: RouteDefinition[] = allDescribed(
  withPatchAliases(resources.flatMap(({ name, routes, sessionRoles }) => routes.map((route) => ({ ...route, resource: name, sessionRole: neededRole(route.method, route.sessionRole, sessionRoles) })))),
);

/** The groups of the API reference, in order, each with its description. */
export const tagDescriptions: Record<string, string> = Object.assign({}, ...resources.map((resource) => resource.tags));

/** Schemas named under components.schemas: wherever a route's schema holds one of these objects, the document refers to it by name. */
export const componentSchemas: Record<string, v.GenericSchema> = Object.fromEntries(
  resources.flatMap((resource) => Object.entries(resource.components ?? {}).map(([name, { schema }]) => [name, schema])),
);

/** What the API POSTs to webhook subscribers, by name: the OpenAPI document's `webhooks`. */
export const outgoingWebhooks: Record<string, OutgoingWebhook> = Object.assign({}, ...resources.map((resource) => resource.webhooks ?? {}));

/** One example per named component that has one, validated against its schema by the OpenAPI tests. */
export const componentExamples: Record<string, unknown> = Object.fromEntries(
  resources.flatMap((resource) => Object.entries(resource.components ?? {}).flatMap(([name, { example }]) => (example === undefined ? [] : [[name, example]]))),
);

/** The API key's authorizer (functions/authorizer.ts), before every route that takes a key. */
const API_KEY_AUTHORIZER: AuthorizerDefinition = {
  functionName: 'Authorizer',
  handler: 'authorizer',
  dynamodb: ['Query', 'GetItem', 'UpdateItem'],
  indexes: ['gsi1'],
  // The key or OAuth token by its hash, then its organization's key, grant and settings.
  keys: ['TOKEN#*', 'ORG#*'],
  identityHeader: 'Authorization',
  reserved: true,
  callers: 'Callers are integrations holding API keys, checked by the Lambda REQUEST authorizer, not Cognito users.',
};

/** The gateway's REQUEST authorizers, by name: the API key's, and those the resources provide, with handlers below functions/. */
export const AUTHORIZERS: Readonly<Record<AuthorizerKind, AuthorizerDefinition>> = {
  apiKey: API_KEY_AUTHORIZER,
  ...Object.fromEntries(resources.flatMap((resource) => Object.entries(resource.authorizers ?? {}).map(([name, authorizer]) => [name, { ...authorizer, handler: `${resource.name}/${authorizer.handler}` }]))),
};
const unprovided = routes.filter((route) => route.authorizer !== undefined && !AUTHORIZERS[route.authorizer]);
if (unprovided.length > 0) throw new Error(`No resource provides the authorizer of ${unprovided.map((route) => `${route.operationId} (${route.authorizer})`).join(', ')} (functions/resources.ts)`);

/** The gateway's REQUEST authorizers' handlers, by name. */
export const AUTHORIZER_HANDLERS: Readonly<Record<AuthorizerKind, string>> = Object.fromEntries(Object.entries(AUTHORIZERS).map(([name, { handler }]) => [name, handler]));

/**
 * The table stream's consumer: events recorded and queued for webhook subscriptions, and automation runs started
 * (a run and its watches put), stopped (watches read, a run ended; gsi1 lists a deleted automation's runs) and moved,
 * their steps queued (functions/stream, as it serves every resource).
 */
const STREAM_CONSUMER: WorkerDefinition = { name: 'RecordEvents', handler: 'stream/record', trigger: {
    kind: 'stream',
    failures: { name: 'StreamFailures', meaning: 'Stream batches failed every retry: their events were not recorded or delivered' },
    lag: { id: 'StreamFallingBehind', meaning: 'Events lag their changes by more than 5 minutes: the stream consumer is failing or too slow.' },
    // One organization's burst of writes (a bulk enrolment, an import) must not hold back every other organization's
    // events, automations and webhooks on the same shard: its items' partition keys are its own.
    parallelization: 10,
    // It reads only what makes events or audit entries, and a webhook's expiry item deleted by TTL (functions/stream):
    // a bulk write's counters, claims, names, and the events and entries it writes itself, never reach it.
    entities: [...resources.flatMap(entitiesOfChanges), WEBHOOK_EXPIRY],
  }, dynamodb: ['BatchWriteItem', 'BatchGetItem', 'Query', 'GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'], indexes: ['gsi1'], sendsTo: ['deliveries', 'automation-steps'],
  // Owner alerts (functions/sms/owner-alerts.ts): an SMS to the organization's admins, as notifyMember sends it.
  // Members' push notices (functions/notifications/send.ts): each organization's VAPID private key opened to sign with.
  capabilities: [smsSender, ...PUSH_SENDER_CAPABILITIES] };

/** The functions that answer no route: the stream consumer and those the resources provide, with handlers below functions/. */
export const WORKERS: readonly WorkerDefinition[] = [
  STREAM_CONSUMER,
  ...resources.flatMap((resource) => (resource.workers ?? []).map((worker) => ({ ...worker, handler: `${resource.name}/${worker.handler}`, ...(worker.local ? { local: `${resource.name}/${worker.local}` } : {}) }))),
];

/**
 * The queues and topics the workers take from and send to, by the resources that declare them, with their local
 * stand-ins' exports below functions/.
 */
export const CHANNELS: readonly ChannelDefinition[] = resources.flatMap((resource) =>
  (resource.channels ?? []).map((channel): ChannelDefinition => {
    const below = (path: string) => `${resource.name}/${path}`;
    if (channel.kind === 'queue') return { ...channel, local: { ...channel.local, install: below(channel.local.install) } };
    return { ...channel, local: 'install' in channel.local ? { install: below(channel.local.install) } : { ...channel.local, simulate: below(channel.local.simulate) } };
  }),
);

/** The resources' scheduled jobs, with their handlers below functions/. */
export const SCHEDULED_JOBS: readonly ScheduledJob[] = resources.flatMap((resource) => (resource.jobs ?? []).map((job) => ({ ...job, handler: `${resource.name}/${job.handler}` })));
