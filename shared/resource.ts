import type * as v from 'valibot';
import type { AuthorizerKind, OutgoingWebhook, RouteDefinition } from './routes/route';
import type { ResourceTour } from './route-tour';
import type { ZapierOffers } from './zapier-offers';
import type { SessionRoles } from './member-roles';
import type { AuthorizerDefinition, ChannelDefinition, ScheduledJob, WorkerDefinition } from './workers';

// A resource's description names the functions it runs off a route, declared in shared/workers.ts.
export type { AuthorizerDefinition, ChannelDefinition, QueueChannelDefinition, ScheduledJob, TopicChannelDefinition, WorkerDefinition } from './workers';

type Item = Record<string, unknown>;

/** One committed change of one item, as the table's stream reports it. */
export interface ItemChange {
  kind: 'INSERT' | 'MODIFY' | 'REMOVE';
  oldItem?: Item;
  newItem?: Item;
}

/** An event before it has an id, a time and an organization: its type and the resource as the API returns it. */
export interface ItemEvent {
  type: string;
  data: Item;
  /** On an update: each changed field of `data` with its value before the change (`changedAttributes`). */
  previousAttributes?: Item;
}

/** The events a resource's stored items stand for, found by the items' `entity` attribute. */
export interface EventSource {
  entity: string;
  /** Every type it emits, `resource.action`: webhook subscriptions and `GET /v1/events` name these. */
  types: readonly string[];
  /** The document's named schema its events' `data` is (`Lead`, `CompanyNote`): the record as the API answers it. */
  data: string;
  /** The types among `types` whose events carry `previousAttributes` (its `*.updated`). */
  updatedTypes?: readonly string[];
  eventsOf: (change: ItemChange) => ItemEvent[];
}

/**
 * A kind of record whose writes the audit log attributes (GET /v1/audit-log), found by its items' `entity`: every
 * Put and Update of it by a writer, and its delete. Counters, sequences, guards, claims and other bookkeeping are
 * not records.
 */
export interface AuditedRecord {
  entity: string;
  /** The entries' `resourceType`: the record's kind as the API names it (`lead`, `company_note`). */
  resourceType: string;
  /** The item's attribute that is the record's id; `id` unless told. */
  idField?: string;
}

/**
 * Fields of the API's shape that are bookkeeping, not a change: every write moves `updatedAt`. Keys, versions and
 * counters kept on items never reach the API's shape, so they are not compared at all.
 */
const BOOKKEEPING_FIELDS = new Set(['updatedAt']);

/** A value as JSON with every object's keys sorted: DynamoDB keeps no order of a map's keys between two images. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}

/**
 * The fields of the API's shape an update changed, each with its value before (as Stripe's
 * `previous_attributes`): top-level fields compared whole, a field the update added answered as null. Empty when
 * only bookkeeping moved.
 */
export function changedAttributes(before: Item, after: Item): Item {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  const changed = [...names].filter((name) => !BOOKKEEPING_FIELDS.has(name) && canonical(before[name]) !== canonical(after[name]));
  return Object.fromEntries(changed.map((name) => [name, before[name] ?? null]));
}

/**
 * Events of an item whose create, update and delete map one to one onto events. An update carries the changed
 * fields' previous values; one that changes nothing the API shows but bookkeeping (a version bump, `updatedAt`)
 * emits nothing.
 */
export function lifecycleEvents(options: { entity: string; data: string; toData: (item: Item) => Item; created?: string; updated?: string; deleted?: string }): EventSource {
  const { entity, data, toData, created, updated, deleted } = options;
  return {
    entity,
    data,
    types: [created, updated, deleted].filter((type) => type !== undefined),
    updatedTypes: updated ? [updated] : [],
    eventsOf: ({ kind, oldItem, newItem }) => {
      if (kind === 'INSERT' && created && newItem) return [{ type: created, data: toData(newItem) }];
      if (kind === 'REMOVE' && deleted && oldItem) return [{ type: deleted, data: toData(oldItem) }];
      if (kind === 'MODIFY' && updated && oldItem && newItem) {
        const after = toData(newItem);
        const previousAttributes = changedAttributes(toData(oldItem), after);
        return Object.keys(previousAttributes).length === 0 ? [] : [{ type: updated, data: after, previousAttributes }];
      }
      return [];
    },
  };
}

/**
 * What the demo seed has made so far, by name: each resource's seeder reads what it needs and adds its own. Entries
 * named `…Ids` or `…Id` are the seed's summary (tests and `npm run admin` read them); the rest are records later
 * seeders use.
 */
export type DemoData = Record<string, unknown>;

/**
 * A resource's demo data, exported as `demoSeed` by its `functions/<resource>/demo.ts`: made after the seeds of the
 * resources it names, through its own store and rules. It stays out of the resource's description, which functions
 * bundle, so no function carries the demo data.
 */
export interface DemoSeed {
  after?: readonly string[];
  run: (organizationId: string, demo: DemoData) => Promise<DemoData>;
}

/**
 * One resource of the API, whole: the folder below functions/ that holds it, and what the rest of the system
 * derives from it. `functions/resources.ts` lists them; the stack, the local server, the OpenAPI document, the
 * event types, the demo seed (each folder's `demo.ts`) and the tests read that list.
 */
export interface ResourceDefinition {
  /** Its folder below functions/; its routes' handlers are the exports of `functions/<name>/handlers.ts` named by operationId. */
  name: string;
  /** Its groups in the API reference, each with its description, in the order the reference shows them. */
  tags: Readonly<Record<string, string>>;
  routes: readonly RouteDefinition[];
  /**
   * The least role a member's session needs for its writes (required: a permission is chosen, never left to a default)
   * and its reads (MEMBER unless set), where a route does not say its own.
   */
  sessionRoles: SessionRoles;
  /** Schemas the document names under components.schemas, each with its example. */
  components?: Readonly<Record<string, { schema: v.GenericSchema; example: unknown }>>;
  /** What it POSTs to subscribers, by name: the document's `webhooks`. */
  webhooks?: Readonly<Record<string, OutgoingWebhook>>;
  events?: readonly EventSource[];
  /** Its records whose writes the audit log attributes: every kind that has events, and the others a client writes. */
  audited?: readonly AuditedRecord[];
  /** Its functions that answer no route, each with what triggers it; handlers below its folder. */
  workers?: readonly WorkerDefinition[];
  /** The queues and topics its workers take from or send to, which the events stack and `npm start` make from this. */
  channels?: readonly ChannelDefinition[];
  /** Gateway authorizers it provides for public routes, by the name a route's `authorizer` gives. */
  authorizers?: Readonly<Record<AuthorizerKind, AuthorizerDefinition>>;
  jobs?: readonly ScheduledJob[];
  /**
   * Its key builders, each set with one sample call of every builder (`KeySamples` from shared/store/keys.ts), which
   * `test/keys.test.ts` holds to the table's rules: every partition starts with the organization, or is a named exception.
   */
  keys?: readonly { builders: object; samples: Readonly<Record<string, () => object>> }[];
  /** What the Zapier app offers of it: absent, nothing (shared/zapier-offers.ts). */
  zapier?: ZapierOffers;
  /** What its tests read when its folder has no file saying it (a CRUD definition derives them: shared/crud/tests.ts). */
  tests?: ResourceTests;
}

/**
 * The exports of a resource's test side files, by export name (`tour.ts`'s `tour`, `isolation.ts`'s
 * `isolationCases` and `isolationIds`), for a resource whose folder has not the file.
 */
export interface ResourceTests {
  tour?: ResourceTour;
  isolationCases?: IsolationCases;
  isolationIds?: IsolationIdsOf;
}

/**
 * What the stream consumer reads of a resource: its events and audited records, exported as `changes` by its
 * `functions/<resource>/changes.ts`, which imports none of its routes, so the consumer's bundle carries no route
 * (functions/resource-changes.ts, generated, lists them).
 */
export type ResourceChanges = Pick<ResourceDefinition, 'events' | 'audited'>;

/** Organization A's record ids, by the parameter or field name that carries them (`leadId`, `faqId`). */
export type IsolationIds = Record<string, string | number>;

/** Organization A as a resource's isolation ids are read from: its demo seed's summary, and a client with its key. */
export interface IsolationSource {
  demo: DemoData;
  client: { get: (path: string) => Promise<{ body: any }>; post: (path: string, body: unknown) => Promise<{ body: any }> };
}

/**
 * The ids a resource's isolation cases name beyond the demo seed's summary (each `…Ids`' first, as `…Id`),
 * exported as `isolationIds` by its `functions/<resource>/isolation.ts`: records the seed does not name, read or
 * made with A's key.
 */
export type IsolationIdsOf = (a: IsolationSource) => Promise<IsolationIds>;

/** A request that names organization A's records, sent with organization B's key. */
export interface IsolationCase {
  /** Path (with A's ids filled in) and, for writes, a body that is valid except that it names A's records. */
  path: (ids: IsolationIds) => string;
  body?: (ids: IsolationIds) => unknown;
  /** What B may be answered: not found, a refused reference, a list without A's records, or a caller it does not know. */
  expect: 'not-found' | 'refused' | 'empty-list' | 'batch-not-found' | 'unknown-caller';
}

/**
 * How a resource's routes that take an API key answer another organization, by operationId, exported as
 * `isolationCases` by its `functions/<resource>/isolation.ts`: the requests where an id enters, or why none does.
 */
export type IsolationCases = Record<string, IsolationCase[] | string>;

/**
 * A resource's named schemas (`components`), each under the name it is given here, with the example its
 * examples module exports under that name in camelCase (`LeadActivity` → `leadActivity`), or none.
 */
export function namedComponents(schemas: Readonly<Record<string, v.GenericSchema>>, examples: object): NonNullable<ResourceDefinition['components']> {
  const exampleOf = (name: string) => (examples as Record<string, unknown>)[name[0]!.toLowerCase() + name.slice(1)];
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, { schema, example: exampleOf(name) }]));
}

/** A resource's description, checked as one: `functions/<name>/resource.ts` exports it. */
export function defineResource<R extends ResourceDefinition>(resource: R): R {
  return resource;
}
