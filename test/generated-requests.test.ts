import fc from 'fast-check';
import { isolationIds as oauthGrantOf } from '../functions/oauth/isolation';
import { describe, expect, it } from 'vitest';
import { buildDocument } from '../functions/meta/document';
import { LIMITS } from '../functions/automations/catalog';
import { durationMs } from '../functions/automations/steps/durations';
import { eventIdOf } from '../functions/events/ids';
import { recordEvents } from '../functions/events/store';
import { routes } from '../functions/resources';
import type { RouteDefinition } from '#shared/routes/route';
import { useTestApi, type Client } from './support/api';
import { demoIds, withOwnIds } from './support/demo-ids';
import { schemaArbitrary, type JsonSchema } from './support/schema-arbitrary';
import { pointerPart, validatorAt } from './support/contract';
import { endedRecount } from '../functions/reports/isolation';

/**
 * The positive half of the fuzz: requests generated from the document's own request schemas, which a client
 * reading only the document would expect to be taken. Each must be answered 2xx, or with a refusal the operation
 * documents other than 400 (a taken name, a booked slot, a record another request removed). A 400 here means
 * the document allows what the server refuses.
 */

const api = useTestApi();

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
const document = buildDocument() as unknown as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, JsonSchema> } };

const resolve = (schema: JsonSchema): JsonSchema => (schema.$ref ? resolve(document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]!) : schema);

/** Generated requests per operation; FUZZ_SEED replays another run. */
const REQUESTS_PER_OPERATION = 6;
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** Query parameters a client takes from an earlier answer, not from the document: a made-up cursor is not one. */
const FROM_ANSWERS = new Set(['cursor']);

type Body = Record<string, any>;

/** A number from a generated value, so a repair varies with the request it repairs and the run stays seeded. */
const digest = (value: unknown) => [...JSON.stringify(value ?? null)].reduce((sum, char) => (sum * 31 + char.codePointAt(0)!) % 1_000_003, 7);

const TIME_ZONES = Intl.supportedValuesOf('timeZone');
const PRODUCT_PRICES = { NONE: [], FIXED: ['price'], RANGE: ['minPrice', 'maxPrice'] } as const;
const SERVICE_PRICES = { NONE: [], FIXED: ['price'], HOURLY: ['hourlyRate'], RANGE: ['minPrice', 'maxPrice'], CALL_OUT: ['callOutFee'] } as const;

/** The ends of a range in order, both present: the ones sent, or one copied when only one was. */
function ordered(body: Body, low: string, high: string, fallback: unknown) {
  const ends = [body[low] ?? body[high] ?? fallback, body[high] ?? body[low] ?? fallback].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  [body[low], body[high]] = ends;
}

/**
 * The rules that span fields, or depend on what is stored, which the document states in words because a schema
 * cannot: each names the operations whose description states it (checked below) and makes a generated request
 * keep it, as a client that read the description would. Anything else refused is the document's fault.
 */
/** The lists that take `updatedSince`, from the document. */
const SYNCED_LISTS = Object.entries(document.paths).flatMap(([path, operations]) =>
  Object.entries(operations)
    .filter(([, operation]) => operation.parameters?.some((parameter) => parameter.name === 'updatedSince'))
    .map(([method]) => `${method.toUpperCase()} ${path}`),
);
/** What `updatedSince` combines with: paging, and the two parameters its description names. */
const WITH_UPDATED_SINCE = new Set(['page', 'limit', 'updatedSince', 'type', 'expand']);

/** A voice platform's format goes with source CALL; only `retell` takes (and needs) a platformSecret. */
function callFormatKept(body: Body | undefined): void {
  if (!body) return;
  if (body.format === 'retell' || body.format === 'vapi') body.source = 'CALL';
  else if (body.source !== undefined && body.source !== 'CALL') body.format = 'native';
  if (body.format === 'retell') body.platformSecret ??= 'key_retell_generated';
  else delete body.platformSecret;
}

/** The demo member's free slots for the demo's service, read before the requests: a hold is taken only on one. */
const freeSlots: string[] = [];

const STATED_RULES: { operations: string[]; states: string; keep: (request: { query: Body; body?: Body }) => void }[] = [
  {
    operations: SYNCED_LISTS,
    states: 'Combined with another filter of the list it answers 400',
    keep: ({ query }) => {
      if (query.updatedSince !== undefined) for (const name of Object.keys(query)) if (!WITH_UPDATED_SINCE.has(name)) delete query[name];
    },
  },
  {
    // The requests are an API key's: a member's role and phone, and enabling one, are a person's to change.
    operations: ['PATCH /v1/organization/members/{memberId}'],
    states: 'by an ADMIN signed in alone',
    keep: ({ body }) => {
      if (!body) return;
      delete body.role;
      delete body.phone;
      if (body.isDisabled === false) delete body.isDisabled;
      if (Object.keys(body).length === 0) body.position = 'Plumber';
    },
  },
  {
    operations: ['PATCH /v1/organization', 'PATCH /v1/organization/members/{memberId}'],
    states: 'not overlapping',
    keep: ({ body }) => {
      const hour = (h: number) => `${String(h).padStart(2, '0')}:00`;
      for (const field of ['businessHours', 'workingHours']) {
        const week = body?.[field];
        if (week) for (const day of Object.keys(week)) week[day] = week[day].map((_: unknown, i: number) => ({ open: hour(6 + 2 * i), close: hour(7 + 2 * i) }));
      }
    },
  },
  {
    operations: ['POST /v1/inquiries'],
    states: 'When it ended: not before startedAt.',
    keep: ({ body }) => {
      const data = body?.data;
      if (data?.startedAt && data.endedAt && Date.parse(data.endedAt) < Date.parse(data.startedAt)) data.endedAt = data.startedAt;
    },
  },
  {
    operations: ['GET /v1/leads'],
    states: 'Send at most one of `q`, `email` and `phone`',
    keep: ({ query }) => {
      const [, ...others] = ['q', 'email', 'phone'].filter((name) => query[name] !== undefined);
      for (const name of others) delete query[name];
    },
  },
  {
    operations: ['GET /v1/leads'],
    states: 'Needs `status`; combines with',
    keep: ({ query }) => {
      if (query.statusChangedSince === undefined && query.statusChangedBefore === undefined) return;
      query.status ??= 'QUOTED';
      for (const name of ['companyId', 'assignedMemberId', 'q', 'email', 'phone']) delete query[name];
    },
  },
  {
    operations: ['GET /v1/inquiries'],
    states: 'implies `source=CALL`, and another source answers 400',
    keep: ({ query }) => {
      if (query.callOutcome !== undefined && query.source !== undefined) query.source = 'CALL';
    },
  },
  {
    operations: ['GET /v1/inquiries'],
    states: 'Needs `createdSince` or `createdBefore`, and combines with nothing else but `expand`',
    keep: ({ query }) => {
      if (query.startedBy === undefined) return;
      for (const filter of ['leadId', 'source', 'isRead', 'callOutcome', 'updatedSince']) delete query[filter];
      if (query.createdSince === undefined && query.createdBefore === undefined) query.createdSince = '2026-01-01T00:00:00.000Z';
    },
  },
  {
    operations: ['DELETE /v1/organization/members/{memberId}'],
    states: 'A key that does not act for the member answers 400 naming `keepKeys`',
    // Generated key ids are no member's keys.
    keep: ({ query }) => {
      delete query.keepKeys;
    },
  },
  {
    operations: ['POST /v1/leads/upsert'],
    states: 'then `name` or `firstName` is required',
    keep: ({ body }) => {
      if (body && body.name === undefined && body.firstName === undefined) body.name = 'Upserted Caller';
    },
  },
  {
    operations: ['PATCH /v1/organization'],
    states: 'An unknown code answers 400',
    keep: ({ body }) => {
      if (body?.country !== undefined) body.country = ['AU', 'nz', 'US', 'gb'][digest(body.country) % 4];
    },
  },
  {
    operations: ['PATCH /v1/organization'],
    states: 'the code is stored upper case; an unknown code answers 400',
    keep: ({ body }) => {
      if (body?.currency !== undefined) body.currency = ['AUD', 'nzd', 'USD', 'gbp'][digest(body.currency) % 4];
    },
  },
  {
    operations: ['POST /v1/leads', 'POST /v1/leads/upsert', 'PATCH /v1/leads/{leadId}'],
    states: 'Only a LOST lead has one: sent with any other status it answers 400',
    keep: ({ body }) => {
      if (typeof body?.lostReason === 'string') body.status = 'LOST';
    },
  },
  {
    operations: ['POST /v1/appointments', 'PATCH /v1/appointments/{appointmentId}', 'PATCH /v1/organization'],
    states: 'IANA',
    keep: ({ body }) => {
      if (body?.timezone !== undefined) body.timezone = TIME_ZONES[digest(body.timezone) % TIME_ZONES.length];
    },
  },
  {
    operations: ['POST /v1/appointments', 'PATCH /v1/appointments/{appointmentId}'],
    states: 'an appointment lasts at most 7 days',
    keep: ({ body }) => {
      if (body?.startsAt === undefined && body?.endsAt === undefined) return;
      const startsAt = Date.parse(body.startsAt ?? body.endsAt);
      body.startsAt = new Date(startsAt).toISOString();
      body.endsAt = new Date(startsAt + 60_000 * (15 + (digest(body.endsAt) % (7 * 24 * 60 - 15)))).toISOString();
    },
  },
  {
    operations: ['POST /v1/appointments', 'PATCH /v1/appointments/{appointmentId}'],
    states: 'each named once',
    keep: ({ body }) => {
      if (body?.attendees) body.attendees = body.attendees.filter((attendee: Body, i: number, all: Body[]) => all.findIndex((other) => other.userId === attendee.userId) === i);
    },
  },
  { operations: ['POST /v1/inbound-endpoints'], states: 'A CALL endpoint may take a voice platform’s post-call webhook', keep: ({ body }) => callFormatKept(body) },
  { operations: ['PATCH /v1/inbound-endpoints/{inboundEndpointId}'], states: '`retell` or `vapi` is only for source CALL', keep: ({ body }) => callFormatKept(body) },
  {
    operations: ['POST /v1/appointments'],
    states: 'With it, send no startsAt, endsAt or attendees',
    keep: ({ body }) => {
      if (body?.holdId !== undefined) for (const field of ['startsAt', 'endsAt', 'attendees']) delete body[field];
    },
  },
  {
    operations: ['POST /v1/webhooks', 'PUT /v1/webhooks/{webhookId}', 'PATCH /v1/webhooks/{webhookId}'],
    states: 'in the future, at most a year on',
    keep: ({ body }) => {
      if (typeof body?.expiresAt === 'string') body.expiresAt = new Date(Date.now() + 86_400_000 * (1 + (digest(body.expiresAt) % 360))).toISOString();
    },
  },
  {
    operations: ['GET /v1/availability'],
    states: '`to` must be after `from` and at most 14 days after it',
    keep: ({ query }) => {
      if (query.to === undefined) return;
      // Without `from`, the window starts now: a generated `to` is kept only beside a `from`.
      if (query.from === undefined) return void delete query.to;
      query.to = new Date(Date.parse(query.from) + 60_000 * (1 + (digest(query.to) % (14 * 24 * 60 - 1)))).toISOString();
    },
  },
  {
    operations: ['POST /v1/availability/holds'],
    states: 'as GET /v1/availability answers it',
    keep: ({ body }) => {
      if (body && freeSlots.length) body.startsAt = freeSlots[digest(body.startsAt) % freeSlots.length];
    },
  },
  {
    operations: ['GET /v1/audit-log'],
    states: 'Filter by `keyId`, or by `resourceType` and optionally `resourceId`',
    keep: ({ query }) => {
      if (query.keyId !== undefined) delete query.resourceType;
      if (query.resourceType === undefined) delete query.resourceId;
      if (query.from !== undefined && query.to !== undefined) ordered(query, 'from', 'to', undefined);
      if (query.from !== undefined && query.from === query.to) query.to = new Date(Date.parse(query.to) + 60_000).toISOString();
    },
  },
  {
    operations: ['GET /v1/reports/summary', 'GET /v1/reports/timeseries', 'GET /v1/reports/funnel'],
    states: 'both included, at most 366 days; by default the 30 days ending today there',
    keep: ({ query }) => {
      const day = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
      if (query.from !== undefined && query.to !== undefined) {
        ordered(query, 'from', 'to', undefined);
        if (day(query.from, 365) < query.to) query.to = day(query.from, digest(query.to) % 366);
      } else if (query.from !== undefined) {
        // Alone, it starts a range that ends today: not after today, nor more than 366 days before it.
        query.from = day(new Date().toISOString().slice(0, 10), -1 - (digest(query.from) % 360));
      }
    },
  },
  {
    operations: ['GET /v1/appointments'],
    states: '`to` must be after `from`',
    keep: ({ query }) => {
      if (query.from === undefined || query.to === undefined) return;
      ordered(query, 'from', 'to', undefined);
      if (query.from === query.to) query.to = new Date(Date.parse(query.to) + 60_000).toISOString();
    },
  },
  {
    operations: ['POST /v1/products', 'PUT /v1/products/{productId}', 'PATCH /v1/products/{productId}'],
    states: '`pricingType`',
    keep: ({ body }) => {
      const fields = ['pricingType', 'price', 'minPrice', 'maxPrice'];
      if (!body || !fields.some((field) => body[field] !== undefined)) return;
      // Sent with its pricingType, a price never depends on the pricing stored.
      const type: keyof typeof PRODUCT_PRICES = body.pricingType ?? (['NONE', 'FIXED', 'RANGE'] as const)[digest(body) % 3];
      body.pricingType = type;
      for (const field of ['price', 'minPrice', 'maxPrice']) if (!(PRODUCT_PRICES[type] as readonly string[]).includes(field)) delete body[field];
      if (type === 'FIXED') body.price ??= 120;
      if (type === 'RANGE') ordered(body, 'minPrice', 'maxPrice', 120);
    },
  },
  {
    operations: ['POST /v1/services', 'PATCH /v1/services/{serviceId}'],
    states: '`pricingType`',
    keep: ({ body }) => {
      if (!body) return;
      // A field sent under its older name too is refused (services.test.ts); here each goes under its current name.
      for (const [older, name] of [['pricingMode', 'pricingType'], ['fixedPrice', 'price']] as const) {
        if (body[older] !== undefined) body[name] ??= body[older];
        delete body[older];
      }
      const priced = ['pricingType', 'price', 'hourlyRate', 'callOutFee', 'minPrice', 'maxPrice'].some((field) => body[field] !== undefined);
      if (priced) {
        // Sent with its pricingType, a price never depends on the pricing stored.
        body.pricingType ??= 'NONE';
        for (const field of SERVICE_PRICES[body.pricingType as keyof typeof SERVICE_PRICES]) body[field] ??= 150;
        if (body.minPrice != null || body.maxPrice != null) ordered(body, 'minPrice', 'maxPrice', 150);
      }
      if (body.isCustomPriceResponseActive === true) body.customPriceResponse ??= 'Prices start at $150.';
      if (body.customPriceResponse === null) body.isCustomPriceResponseActive = false;
    },
  },
  {
    operations: [
      ...['GET /v1/leads', 'POST /v1/leads', 'POST /v1/leads/upsert', 'PATCH /v1/leads/{leadId}', 'POST /v1/inquiries', 'POST /v1/companies', 'PUT /v1/companies/{companyId}', 'PATCH /v1/companies/{companyId}'],
      ...['POST /v1/organization/members', 'PATCH /v1/organization/members/{memberId}', 'PATCH /v1/organization'],
    ],
    states: 'no valid number of any numbering plan',
    keep: ({ query, body }) => {
      // A number of a real plan, with its country code: the organization's country changes under other requests.
      const mobile = (typed: unknown) => `+61 412 ${String(digest(typed) % 1_000_000).padStart(6, '0')}`;
      if (typeof query.phone === 'string') query.phone = mobile(query.phone);
      if (typeof body?.phone === 'string') body.phone = mobile(body.phone);
      if (typeof body?.lead?.phone === 'string') body.lead.phone = mobile(body.lead.phone);
      // A sender id without a letter is a number.
      if (typeof body?.smsSenderId === 'string' && !/[A-Za-z]/.test(body.smsSenderId)) body.smsSenderId = mobile(body.smsSenderId);
    },
  },
  {
    operations: ['POST /v1/transfers', 'PUT /v1/transfers/{transferId}', 'PATCH /v1/transfers/{transferId}'],
    states: 'a valid number of its plan',
    keep: ({ body }) => {
      if (!body || (body.destination === undefined && body.destinationType === undefined)) return;
      // A destination sent with its type never depends on the type stored.
      body.destinationType ??= 'PHONE_NUMBER';
      if (body.destinationType === 'PHONE_NUMBER') body.destination = `+6129${String(digest(body.destination)).padStart(7, '0')}`;
      else body.destination ??= 'Reception';
    },
  },
  {
    operations: ['POST /v1/transfers', 'PUT /v1/transfers/{transferId}', 'PATCH /v1/transfers/{transferId}'],
    states: 'of a member of the organization',
    keep: ({ body }) => {
      // The demo's first member, an ADMIN: no generated request removes it before the deletes.
      if (body?.destinationType === 'MEMBER') body.destination = '1';
    },
  },
  {
    operations: ['POST /v1/leads', 'POST /v1/leads/upsert', 'PATCH /v1/leads/{leadId}'],
    states: 'It must be a member of the organization',
    keep: ({ body }) => {
      // The demo's first member, an ADMIN: no generated request removes it before the deletes.
      if (typeof body?.assignedMemberId === 'number') body.assignedMemberId = 1;
    },
  },
  {
    operations: ['POST /v1/services', 'PATCH /v1/services/{serviceId}'],
    states: 'a member of the organization',
    keep: ({ body }) => {
      // The demo's members, every one: a service generated earlier never keeps a later availability request's member out.
      if (body?.memberIds !== undefined) body.memberIds = [1, 2, 3, 4];
    },
  },
  {
    operations: ['POST /v1/automations'],
    states: '`name`, `trigger` and `steps` are required, unless `fromTemplate` names a recipe',
    keep: ({ body }) => {
      if (!body || body.fromTemplate !== undefined) return;
      body.name ??= 'Generated automation';
      body.trigger ??= { event: 'lead.created' };
      body.steps ??= [{ type: 'wait', duration: 'P1D' }];
    },
  },
  {
    operations: ['POST /v1/automations', 'PATCH /v1/automations/{automationId}'],
    states: 'a wait lasts 1 minute to 365 days; `before` counts back only from a time the trigger’s record has; a template names only variables its trigger supplies',
    keep: ({ body }) => {
      if (!body) return;
      // A trigger sent with steps that fit any trigger: the steps it has (or its recipe's) may not fit it.
      if (body.trigger !== undefined) body.steps ??= [{ type: 'wait', duration: 'P1D' }];
      const anchored = String(body.trigger?.event ?? (body.steps ? '' : body.fromTemplate)).startsWith('appointment');
      for (const step of body.steps ?? []) {
        if (step.type === 'wait' && !anchored) delete step.before;
        const waitMs = step.type === 'wait' ? durationMs(step.duration) : undefined;
        if (step.type === 'wait' && (waitMs === undefined || waitMs < LIMITS.minimumWaitMs || waitMs > LIMITS.maximumWaitMs)) step.duration = 'P1D';
        // The demo's members have no phone to text; a note takes the same template.
        if (step.type === 'notify_member') Object.assign(step, { type: 'add_note', memberId: undefined });
        if (typeof step.template === 'string') step.template = step.template.replace(/[{}]/g, '');
      }
    },
  },
  {
    operations: ['POST /v1/automations', 'PATCH /v1/automations/{automationId}'],
    states: '`allowedUntil` after `allowedFrom`',
    keep: ({ body }) => {
      const hours = body?.quietHours;
      if (!hours) return;
      ordered(hours, 'allowedFrom', 'allowedUntil', '08:00');
      if (hours.allowedFrom === hours.allowedUntil) hours.allowedUntil = '24:00';
    },
  },
];

/** Every keyed operation, with its DELETEs last so the records the others use are still there, a note before its company. */
const depth = (route: RouteDefinition) => route.path.split('/').length;
const operations = routes
  // A key is refused a member's own routes (SESSION_REQUIRED): their requests are a session's (functions/sign-in/sign-in.test.ts).
  .filter((route) => route.auth !== 'none' && !route.sessionOnly)
  .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE') || (a.method === 'DELETE' ? depth(b) - depth(a) : 0));

interface GeneratedRequest {
  query: Record<string, unknown>;
  body?: unknown;
}

function requestArbitrary(route: RouteDefinition): fc.Arbitrary<GeneratedRequest> {
  const operation = document.paths[route.path]![route.method.toLowerCase()]!;
  const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query' && !FROM_ANSWERS.has(parameter.name));
  const queryArbitrary = fc.record(Object.fromEntries(query.map((parameter) => [parameter.name, schemaArbitrary(parameter.schema, resolve)])), {
    requiredKeys: query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  });
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  if (!bodySchema) return fc.record({ query: queryArbitrary });
  // Only bodies the document's schema accepts as a whole: what the schema says across fields is a filter here.
  const valid = validatorAt(`/paths/${pointerPart(route.path)}/${route.method.toLowerCase()}/requestBody/content/application~1json/schema`);
  return fc.record({ query: queryArbitrary, body: schemaArbitrary(bodySchema, resolve).filter((body) => valid(body) as boolean) });
}

/** The generated request with the organization's own ids in it, keeping the rules its operation states. */
function completed(route: RouteDefinition, request: GeneratedRequest, ids: Record<string, string | number>): { query: Body; body?: Body } {
  // A webhook named in a body (a redelivery's) is one no generated request changes: the path's may have been
  // given other events or disabled by then.
  const bodyIds = { ...ids, webhookId: ids.subscriberWebhookId! };
  const own = { query: withOwnIds(request.query, ids) as Body, body: request.body === undefined ? undefined : (withOwnIds(request.body, bodyIds) as Body) };
  for (const rule of STATED_RULES) if (rule.operations.includes(`${route.method} ${route.path}`)) rule.keep(own);
  return own;
}

/** The statuses an operation documents: its errors and its other responses. */
const documented = (route: RouteDefinition) => new Set([...route.errors, ...Object.keys(route.responses ?? {}).map(Number)]);

function pathOf(route: RouteDefinition, ids: Record<string, string | number>, query: Body): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(ids[name])));
  const search = new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]));
  return search.size ? `${path}?${search}` : path;
}

async function organizationIds(client: Client, organizationId: string, demo: Record<string, unknown>): Promise<Record<string, string | number>> {
  const ids = await demoIds(client, demo);
  // SMS go to the lead of the demo's thread (it has a phone); every other operation uses another lead, so
  // a generated PATCH that clears a phone cannot take it from the SMS.
  const message = (await client.get('/v1/sms')).body.messages[0];
  const smsLeadId: string = message.leadId;
  const otherLeadId: string = (await client.get('/v1/leads?limit=100')).body.leads.find((lead: { id: string }) => lead.id !== smsLeadId).id;
  // One event to read and redeliver, recorded as the stream consumer records one (it does not run here: its
  // deliveries to the URLs generated below would only slow the run).
  const eventId = eventIdOf(Date.now(), '1');
  await recordEvents([{ id: eventId, type: 'faq.created', occurredAt: new Date().toISOString(), organizationId, data: { id: ids.faqId } }]);
  const subscriberWebhookId: string = (await client.post('/v1/webhooks', { url: 'https://hooks.example.com/everything', events: ['*'] })).body.webhook.id;
  // A caller: the demo's first lead's number.
  const phone = '+61412345001';
  const available = await client.get(`/v1/availability?serviceId=${ids.serviceId}&memberId=${ids.memberId}`);
  freeSlots.splice(0, freeSlots.length, ...available.body.slots.map((slot: { startsAt: string }) => slot.startsAt));
  // A hold for a booking to name: the last free slot, which no generated hold is likely to take first.
  const holdId: string = (await client.post('/v1/availability/holds', { serviceId: ids.serviceId, startsAt: freeSlots.at(-1) })).body.hold.id;
  // A rule resolved at any hour and changed by no generated request: a generated PUT may make the demo's rule keep
  // business hours, which at night leaves every resolve OUTSIDE_BUSINESS_HOURS.
  const resolvableTransferId: number = (await client.post('/v1/transfers', { label: 'Resolved by the fuzz', method: 'COLD', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'Any call.', settings: { ignore_business_hours: true } })).body.transfer.id;
  // An automation a lead is enrolled in and changed by no generated request: a generated PATCH may disable the demo's
  // automation or give it a trigger whose runs start only from events.
  const enrollableAutomationId: string = (await client.post('/v1/automations', { name: 'Enrolled by the fuzz', trigger: { event: 'lead.created' }, steps: [{ type: 'wait', duration: 'P1D' }] })).body.automation.id;
  // A bulk enrolment of it to read back (of the WON leads: none in the demo).
  const enrolmentId: string = (await client.post(`/v1/automations/${enrollableAutomationId}/enrolments`, { leadStatus: 'WON' })).body.enrolment.id;
  // A grant to revoke, as the token endpoint puts one (a grant needs a person's consent in a browser).
  const grantId = String((await oauthGrantOf({ client, demo })).grantId);
  // A recount to read back, ended, so a generated one may start.
  const rebuildId = await endedRecount(client);
  return { rebuildId, enrolmentId, holdId, grantId, ...ids, leadId: otherLeadId, smsLeadId, smsId: message.id, deletable: 0, eventId, subscriberWebhookId, phone, resolvableTransferId, enrollableAutomationId };
}

describe('requests generated from the document', () => {
  it.each(STATED_RULES.flatMap((rule) => rule.operations.map((operation) => [operation, rule.states])))('%s states the rule on %s in its document', (operation, states) => {
    const [method, path] = operation.split(' ') as [string, string];
    expect(JSON.stringify(document.paths[path]![method.toLowerCase()])).toContain(JSON.stringify(states).slice(1, -1));
  });

  it('are taken by every keyed operation: a 2xx, or a refusal it documents other than 400', async () => {
    const { client, organizationId, demo } = await api.organization({ demo: true, usagePlan: 'internal' });
    const organization = await organizationIds(client, organizationId, demo!);
    const refused: string[] = [];
    const neverTaken: string[] = [];
    for (const [index, route] of operations.entries()) {
      if (route.method === 'DELETE' && !organization.deletable) {
        // The demo's company has leads (409) and its invitation was accepted above (404): deletes get their own,
        // a company with a note and a pending invitation.
        organization.companyId = (await client.post('/v1/companies', { name: 'Deleted by the fuzz' })).body.company.id;
        organization.noteId = (await client.post(`/v1/companies/${organization.companyId}/notes`, { value: 'Deleted too.' })).body.note.id;
        organization.invitationId = (await client.post('/v1/organization/invitations', { email: 'deleted@example.com', role: 'MEMBER' })).body.invitation.id;
        organization.deletable = 1;
      }
      const ids = route.path.startsWith('/v1/sms')
        ? { ...organization, leadId: organization.smsLeadId! }
        : route.path.endsWith('/resolve')
          ? { ...organization, transferId: organization.resolvableTransferId! }
          : // A preview of the demo's automation after a generated PATCH gave it an appointment's trigger needs an appointment of the lead.
            route.path === '/v1/automations/{automationId}/runs' || route.path === '/v1/automations/{automationId}/preview' || route.path.startsWith('/v1/automations/{automationId}/enrolments')
            ? { ...organization, automationId: organization.enrollableAutomationId! }
            : organization;
      const samples = route.method === 'DELETE' ? 1 : REQUESTS_PER_OPERATION;
      let taken = 0;
      for (const generated of fc.sample(requestArbitrary(route), { numRuns: samples, seed: SEED + index })) {
        const { query, body } = completed(route, generated, ids);
        const res = await client.request(route.method, pathOf(route, ids, query), { body }).catch((error: Error) => ({ status: 0, body: { connection: String(error.cause ?? error) } }));
        if (res.status < 300) taken++;
        else if (res.status === 400 || !documented(route).has(res.status)) {
          // Status 0: the connection failed, which no request may cause.
          refused.push(`${route.method} ${pathOf(route, ids, query)} ${JSON.stringify(body)} → ${res.status} ${JSON.stringify(res.body?.error ?? res.body)}`);
        }
      }
      if (taken === 0) neverTaken.push(`${route.method} ${route.path}`);
    }
    expect(refused).toEqual([]);
    expect(neverTaken, 'an operation that refused every generated request').toEqual([]);
  }, 300_000);
});
