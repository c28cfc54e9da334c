import type * as v from 'valibot';
import type { ResourceDefinition, ScheduledJob, WorkerRole } from '../shared/resource';
import { withPatchAliases, type AuthorizerKind, type OutgoingWebhook, type RouteDefinition } from '../shared/routes/route';
import { appointments } from './appointments/resource';
import { auditLog } from './audit-log/resource';
import { receptionist } from './receptionist/resource';
import { companies } from './companies/resource';
import { events } from './events/resource';
import { faqs } from './faqs/resource';
import { inboundEndpoints } from './inbound-endpoints/resource';
import { inquiries } from './inquiries/resource';
import { leads } from './leads/resource';
import { mcp } from './mcp/resource';
import { meta } from './meta/resource';
import { organization } from './organization/resource';
import { policies } from './policies/resource';
import { products } from './products/resource';
import { services } from './services/resource';
import { sms } from './sms/resource';
import { transfers } from './transfers/resource';
import { webhooks } from './webhooks/resource';

/**
 * Every resource of the API, in the order the reference shows them. The stack, the local server, the OpenAPI
 * document, the event types, the demo seed and the isolation tests are all read from this list.
 */
export const resources: readonly ResourceDefinition[] = [leads, inquiries, sms, appointments, companies, organization, services, products, transfers, policies, faqs, events, auditLog, webhooks, inboundEndpoints, receptionist, mcp, meta];

/** The route table: every endpoint of the API, one row each, and the PATCH aliases of the spec's PUTs. */
export const routes: RouteDefinition[] = withPatchAliases(resources.flatMap(({ name, routes }) => routes.map((route) => ({ ...route, resource: name }))));

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

/** Handlers a resource names within its folder, by key, as handlers below functions/. */
function handlersOf<K extends string>(pick: (resource: ResourceDefinition) => Readonly<Partial<Record<K, string>>> | undefined): Partial<Record<K, string>> {
  return Object.assign({}, ...resources.map((resource) => Object.fromEntries(Object.entries(pick(resource) ?? {}).map(([key, handler]) => [key, `${resource.name}/${handler as string}`]))));
}

/** Every handler of a kind must exist exactly when the stacks need it: a missing one fails here, at load. */
function complete<K extends string>(handlers: Partial<Record<K, string>>, keys: readonly K[]): Record<K, string> {
  const missing = keys.filter((key) => !handlers[key]);
  if (missing.length > 0) throw new Error(`No resource provides ${missing.join(', ')} (functions/resources.ts)`);
  return handlers as Record<K, string>;
}

/** The gateway's REQUEST authorizers, by kind: the API key's, and those the resources provide. */
export const AUTHORIZER_HANDLERS: Record<AuthorizerKind, string> = complete({ apiKey: 'authorizer', ...handlersOf((resource) => resource.authorizers) }, ['apiKey', 'inboundEndpoint']);

/**
 * The functions of the events stack that answer no route, by role: the table stream's consumer (events recorded and
 * handed to webhook subscriptions, in functions/stream as it serves every resource), and those the resources provide.
 */
export const WORKER_HANDLERS: Record<WorkerRole, string> = complete({ recordEvents: 'stream/record', ...handlersOf((resource) => resource.workers) }, ['recordEvents', 'deliverWebhooks', 'smsReceipts', 'inboundSms']);

/** The resources' scheduled jobs, with their handlers below functions/. */
export const SCHEDULED_JOBS: readonly ScheduledJob[] = resources.flatMap((resource) => (resource.jobs ?? []).map((job) => ({ ...job, handler: `${resource.name}/${job.handler}` })));
