import type { OpenApiDocument } from '#shared/openapi/schemas';
import { describeOperation, objectParts, RESERVED_FIELD_NAMES, type JsonSchema } from '#shared/openapi/fields';
import { scopeAllows } from '#shared/auth/scopes';
import { OPTIONAL_TEXT_PATTERN, OPTIONAL_TEXT_RULE, TEXT_PATTERN, TEXT_RULE } from '#shared/schema';
import { RESOURCE_TOOLSETS } from './schema';
import { IDEMPOTENCY_KEY_FORMAT, IDEMPOTENCY_KEY_RULE, mayDestroy, reachesOutside, type RouteDefinition } from '#shared/routes/route';
import { prose } from '#shared/prose';

export type { JsonSchema };

/** Where each argument of a tool goes in the request it makes. */
interface ArgumentPlaces {
  path: string[];
  query: string[];
  /** The body's own fields, taken from the top level of the arguments; or, when they cannot be, the one argument `body`. */
  body: { fields: string[] } | { nested: true } | null;
  /** Fields the tool sets itself (the CALL source of `log_call`), never asked for. */
  fixed: Record<string, unknown>;
  /** Body objects whose fields the tool takes at the top level (log_call's `lead.phone`, `data.summary`): object → its fields. */
  lifted: Record<string, string[]>;
}

export interface ApiTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  method: RouteDefinition['method'];
  path: string;
  places: ArgumentPlaces;
  /** The toolset `?tools=` names it by: `curated`, or its route's resource (`leads`, `audit_log`). */
  toolset: string;
}

/** The argument every POST tool takes: the request's `Idempotency-Key`. */
export const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';

/**
 * Tools for a voice agent or an assistant with little context: the run-time calls of a live call and the two an
 * assistant needs most, each a route of the API with its arguments flattened and, where the route takes more, only
 * those it needs.
 */
export const CURATED_TOOLS: readonly { name: string; operationId: string; title: string; description: string; pick?: string[]; require?: string[]; variant?: Record<string, unknown>; lift?: string[] }[] = [
  { name: 'lookup_caller', operationId: 'lookupCaller', title: 'Look up a caller', description: 'The lead with this phone number (or null), its latest inquiries and upcoming appointments, whether it opted out of SMS, and whether the business is open now. Call it first on every call.' },
  {
    name: 'save_caller',
    operationId: 'upsertLead',
    title: 'Save the caller as a lead',
    description: prose`
      Finds the lead with this phone number or creates it, with the name the caller gives: call it when lookup_caller
      found no lead and the caller wants a booking or a call back. Its lead.id is the leadId hold_slot, book_appointment
      and send_sms take. A lead with the number gets the fields given.
    `,
    pick: ['phone', 'name', 'email', 'suburb'],
    require: ['phone', 'name'],
    variant: { match: 'phone' },
  },
  { name: 'get_receptionist_context', operationId: 'getReceptionistContext', title: 'What the receptionist may say', description: 'The business, its hours, and its active services, products, FAQs, policies, scenarios and transfer rules: load it once per call.' },
  { name: 'find_availability', operationId: 'findAvailability', title: 'Find free slots', description: 'Free slots for a service (serviceId from the context), each with the members free. Offer the caller two or three.' },
  { name: 'hold_slot', operationId: 'createHold', title: 'Hold a slot', description: 'Keeps a slot for 5 minutes while the caller confirms; SLOT_TAKEN means another took it: find availability again.' },
  {
    name: 'book_appointment',
    operationId: 'createAppointment',
    title: 'Book a held slot',
    description: 'Books the held slot for the lead, with the held member; HOLD_EXPIRED means hold a slot again.',
    pick: ['leadId', 'holdId', 'title', 'location', 'notes'],
    require: ['leadId', 'holdId'],
    variant: { source: 'CALL' },
  },
  {
    name: 'log_call',
    operationId: 'ingestInquiry',
    title: 'Log the call',
    description: 'Records the call as a CALL inquiry, finding or creating the lead by the caller’s phone: a phone and a summary suffice. Left out, the call was inbound (LEAD_TO_AI), ended now, lasted 0 seconds and was ended by the caller (user); give what else you know.',
    variant: { source: 'CALL' },
    lift: ['lead', 'data'],
    pick: ['phone', 'email', 'name', 'summary', 'keyPoints', 'transcripts', 'recordingUrl', 'direction', 'duration', 'startedAt', 'endedAt', 'endedBy', 'missed', 'transferred', 'tag', 'externalInquiryId'],
    require: ['phone', 'summary'],
  },
  { name: 'resolve_transfer', operationId: 'resolveTransfer', title: 'Resolve a transfer', description: 'Where to hand the call over now, with the rule’s summary filled in; OUTSIDE_BUSINESS_HOURS names when the business next opens.' },
  { name: 'send_sms', operationId: 'sendSms', title: 'Send an SMS', description: 'Sends an SMS to a lead (a confirmation, a link), unless the number opted out. userId is the member it is sent as: a member’s user.id (GET /v1/organization/members), as an appointment’s attendees name them.' },
  { name: 'search_leads', operationId: 'listLeads', title: 'Search leads', description: 'Finds leads by name (q), email or phone: at most one of the three.', pick: ['q', 'email', 'phone', 'limit', 'cursor'] },
];

const COMPONENTS = '#/components/schemas/';

/** The schema with the document's component references pointing at `$defs`, and the components it reaches, transitively. */
function selfContained(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const rewrite = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll(`"${COMPONENTS}`, '"#/$defs/'));
  const defs: Record<string, JsonSchema> = {};
  const pending = [JSON.stringify(schema)];
  while (pending.length) {
    for (const [, name] of pending.pop()!.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (defs[name!] || !components[name!]) continue;
      defs[name!] = rewrite(components[name!]);
      pending.push(JSON.stringify(components[name!]));
    }
  }
  const own = rewrite(schema);
  return Object.keys(defs).length ? { ...own, $defs: defs } : own;
}

/**
 * The body a curated variant sends: a branch of a body that is a choice of shapes (log_call's CALL), or the body itself
 * with what a branch that only narrows its fields requires (save_caller's `match: phone` requires `phone`).
 */
function variantBody(body: JsonSchema, branch: JsonSchema): JsonSchema {
  if (branch.type || branch.$ref) return branch;
  const { oneOf: _choice, ...shape } = body;
  return { ...shape, required: [...new Set([...(body.required ?? []), ...(branch.required ?? [])])] };
}

/** `createLead` → `create_lead`: the one name style of every tool. */
export const toolName = (operationId: string) => operationId.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A resource's toolset, by its folder: `inbound-endpoints` → `inbound_endpoints`, as the tools' names are snake_case. */
const toolsetOf = (resource: string) => resource.replaceAll('-', '_');

/** The free-text rules, in the few words an agent needs: the document's pattern for them is some 300 characters a model cannot read. */
const TEXT_WORDS = new Map([
  [TEXT_PATTERN, { rule: TEXT_RULE, words: 'Text with a visible character.' }],
  [OPTIONAL_TEXT_PATTERN, { rule: OPTIONAL_TEXT_RULE, words: 'Text; may be empty.' }],
]);

/** Keywords whose value maps names to schemas. */
const NAMED_SCHEMAS = ['properties', '$defs', 'patternProperties', 'dependentSchemas'];

/** What an output schema leaves out: an agent reads the answer and never has to satisfy it, and every answer has its defaults. */
const NOT_IN_OUTPUT = ['examples', 'default'];

/**
 * A schema as a tool states it: the free-text pattern left out, with its rule in words (the description, or a few
 * words in place of the document's long one); lengths, formats and the other patterns kept. In an output schema no
 * pattern, example or default at all.
 */
function compact(schema: unknown, output: boolean): any {
  if (Array.isArray(schema)) return schema.map((item) => compact(item, output));
  if (typeof schema !== 'object' || schema === null) return schema;
  const { pattern, description, ...all } = schema as JsonSchema;
  const rest = output ? Object.fromEntries(Object.entries(all).filter(([key]) => !NOT_IN_OUTPUT.includes(key))) : all;
  const text = typeof pattern === 'string' ? TEXT_WORDS.get(pattern) : undefined;
  // A map of names to schemas (`properties`, `$defs`) holds no keywords: a field may be named `description`.
  const named = (map: Record<string, unknown>) => Object.fromEntries(Object.entries(map).map(([name, value]) => [name, compact(value, output)]));
  const kept = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, key === 'examples' || key === 'example' || key === 'const' || key === 'enum' ? value : NAMED_SCHEMAS.includes(key) ? named(value) : compact(value, output)]));
  const said = text && description?.includes(text.rule) ? description.replace(text.rule, text.words).trim() : text ? `${description ? `${description} ` : ''}${text.words}` : description;
  return { ...kept, ...(pattern !== undefined && !text && !output ? { pattern } : {}), ...(said === undefined ? {} : { description: said }) };
}

/** Builds one tool from a route's fields (shared/openapi/fields.ts); `curated` may keep only some arguments or one variant of the body. */
function toolOf(document: OpenApiDocument, route: RouteDefinition, curated?: (typeof CURATED_TOOLS)[number]): ApiTool {
  const { components, operation, fields: described, body: describedBody, success } = describeOperation(document, route);
  const keep = (name: string) => !curated?.pick || curated.pick.includes(name);
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  const places: ArgumentPlaces = { path: [], query: [], body: null, fixed: {}, lifted: {} };
  for (const field of described) {
    if (field.in === 'body' || !keep(field.name)) continue;
    properties[field.name] = { ...field.schema, ...(field.description ? { description: field.description } : {}) };
    if (field.required) required.add(field.name);
    places[field.in].push(field.name);
  }
  let rules: JsonSchema = {};
  const bodySchema: JsonSchema | undefined = operation.requestBody?.content?.['application/json']?.schema;
  if (bodySchema && describedBody) {
    const branch = curated?.variant && (bodySchema.oneOf as JsonSchema[] | undefined)?.find((option) => Object.entries(curated.variant!).every(([name, value]) => option.properties?.[name]?.const === value));
    // The body's own fields as described, or those of the variant a curated tool sends.
    const parts = branch ? objectParts(variantBody(bodySchema, branch), components) : 'fields' in describedBody ? objectParts(bodySchema, components) : undefined;
    const collides = parts && Object.keys(parts.properties).some((name) => name in properties || RESERVED_FIELD_NAMES.has(name));
    if (parts && !collides) {
      places.fixed = curated?.variant ?? {};
      // A lifted object's fields stand at the top level in its place (log_call's phone, and its summary: the call's,
      // in place of the inquiry's own, which then defaults to it).
      const lifted = Object.fromEntries((curated?.lift ?? []).map((name) => [name, objectParts(parts.properties[name]!, components)!]));
      const liftedNames = new Set<string>();
      for (const [object, inner] of Object.entries(lifted)) {
        places.lifted[object] = Object.keys(inner.properties).filter(keep);
        for (const name of places.lifted[object]!) {
          if (liftedNames.has(name)) throw new Error(`${curated!.name} lifts ${name} from two objects`);
          liftedNames.add(name);
        }
      }
      const fields = Object.keys(parts.properties).filter((name) => !lifted[name] && !liftedNames.has(name) && keep(name) && !(name in places.fixed));
      for (const name of fields) properties[name] = parts.properties[name]!;
      for (const [object, inner] of Object.entries(lifted)) for (const name of places.lifted[object]!) properties[name] = inner.properties[name]!;
      for (const name of parts.required) if (fields.includes(name)) required.add(name);
      places.body = { fields };
      // A curated tool keeps only some fields: the body's rules across fields would name the others.
      if (!curated?.pick) rules = parts.rules;
    } else {
      properties.body = bodySchema;
      if ('whole' in describedBody ? describedBody.required : operation.requestBody.required) required.add('body');
      places.body = { nested: true };
    }
  }
  for (const name of curated?.require ?? []) required.add(name);
  if (route.method === 'POST') properties[IDEMPOTENCY_ARGUMENT] = { type: 'string', minLength: 1, maxLength: 255, description: 'Sent as the Idempotency-Key header: the same key within 24 hours answers the first result again instead of writing twice.' };
  const inputSchema = compact(selfContained({ type: 'object', properties, ...(required.size ? { required: [...required] } : {}), additionalProperties: false, ...rules }, components), false);
  const outputSchema = success && objectParts(success, components) ? compact(selfContained(success.$ref ? { type: 'object', allOf: [success] } : success, components), true) : undefined;
  const title = curated?.title ?? route.summary;
  return {
    name: curated?.name ?? toolName(route.operationId),
    title,
    description: curated ? `${curated.description}\n\n${route.method} ${route.path}: ${route.summary}.` : `${route.summary}. ${route.description}`,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    // Read-only exactly when a read key may call it: an agent that trusts the hint never finds a read-only tool refused.
    annotations: { title, readOnlyHint: scopeAllows('read', route.method), destructiveHint: mayDestroy(route), idempotentHint: route.method !== 'POST', openWorldHint: reachesOutside(route) },
    method: route.method,
    path: route.path,
    places,
    toolset: curated ? 'curated' : toolsetOf(route.resource ?? ''),
  };
}

/**
 * Every keyed route of the API as a tool named by its operationId in snake_case, and the curated tools: one list, read
 * from the document the API serves, so a tool's schemas are the route's own. A PATCH alias of a PUT is the same
 * request, so one tool (the PUT's) stands for both; a route whose curated tool has its name is that tool.
 */
export function buildTools(document: OpenApiDocument, routes: readonly RouteDefinition[]): ApiTool[] {
  // A member's own routes take a session, never the key or token an MCP client holds.
  const keyed = routes.filter((route) => route.auth !== 'none' && !route.path.startsWith('/mcp') && !route.sessionOnly);
  const byOperation = new Map(keyed.map((route) => [route.operationId, route]));
  const curated = CURATED_TOOLS.map((tool) => {
    const route = byOperation.get(tool.operationId);
    if (!route) throw new Error(`the curated tool ${tool.name} names ${tool.operationId}, which is not a keyed route`);
    return toolOf(document, route, tool);
  });
  const curatedNames = new Set(CURATED_TOOLS.map((tool) => tool.name));
  const perRoute = keyed.filter((route) => route.aliasOf === undefined && !curatedNames.has(toolName(route.operationId)));
  for (const route of perRoute) if (!(RESOURCE_TOOLSETS as readonly string[]).includes(toolsetOf(route.resource ?? ''))) throw new Error(`${route.operationId}'s resource ${route.resource} has no toolset in RESOURCE_TOOLSETS (functions/mcp/toolsets.ts): run npm run generate`);
  return [...curated, ...perRoute.map((route) => toolOf(document, route))];
}

/** Text holding half of a surrogate pair standing alone: no character, so no URL can carry it (encodeURIComponent throws). */
const holdsLoneSurrogate = (text: string) => !text.isWellFormed();

/**
 * The longest path and query a tool sends: API Gateway refuses a request line over 10 240 bytes without an answer the
 * tool could pass on, so a longer one is refused here, naming its longest argument.
 */
export const MAX_TOOL_URL_LENGTH = 8192;

/** What the route's path, a URL and a header can carry of a tool's arguments, checked before the request is made. */
export interface ToolRequest {
  pathAndQuery: string;
  body?: string;
  idempotencyKey?: string;
  /** Arguments the request cannot carry, each with why: the tool answers 400 naming them and sends nothing. */
  refused: { path: string; message: string }[];
}

/**
 * The request a tool's arguments make: its path with the path arguments, its query and its JSON body. The route's
 * own validation judges the values, but only what reaches it as that route's parameter: a path argument missing,
 * empty or a dot segment would make the URL another route's (`notes/..` is the company), an idempotency key that is
 * not text would be no key at all, and an argument too long for a URL would get the gateway's bare refusal.
 */
export function requestOf(tool: ApiTool, args: Record<string, unknown>): ToolRequest {
  const known = new Set(Object.keys(tool.inputSchema.properties ?? {}));
  const refused = Object.keys(args)
    .filter((name) => !known.has(name))
    .map((name) => ({ path: name, message: `${name} is not an argument of ${tool.name}` }));
  // What the tool requires is named here: the route may require other fields instead (a booking's title and times
  // when no hold is given), which the tool does not take.
  const pathNames = new Set([...tool.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!));
  for (const name of (tool.inputSchema.required as string[] | undefined) ?? []) if (args[name] === undefined && !pathNames.has(name)) refused.push({ path: name, message: `${name} is required` });
  // A URL carries text: a list or an object would reach the route as the text of its JSON (`["Olivia"]`), and null as "null".
  for (const name of [...pathNames, ...tool.places.query]) {
    const value = args[name];
    if (value !== undefined && (value === null || typeof value === 'object')) refused.push({ path: name, message: `${name} must be a string, a number or a boolean, not ${value === null ? 'null' : Array.isArray(value) ? 'a list' : 'an object'}` });
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  const path = tool.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = args[name] === undefined ? '' : text(args[name]);
    if (value === '' || value === '.' || value === '..') refused.push({ path: name, message: args[name] === undefined ? `${name} is required` : `${name} must not be ${JSON.stringify(value)}` });
    else if (holdsLoneSurrogate(value)) refused.push({ path: name, message: `${name} must be text a URL can carry: it holds half of a character (a lone surrogate)` });
    return encodeURIComponent(value.toWellFormed());
  });
  const queried = tool.places.query.filter((name) => args[name] !== undefined);
  for (const name of queried) if (holdsLoneSurrogate(text(args[name]))) refused.push({ path: name, message: `${name} must be text a URL can carry: it holds half of a character (a lone surrogate)` });
  const query = new URLSearchParams(queried.map((name): [string, string] => [name, text(args[name]).toWellFormed()]));
  const pathAndQuery = query.size ? `${path}?${query}` : path;
  if (pathAndQuery.length > MAX_TOOL_URL_LENGTH) {
    const longest = [...tool.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!).concat(tool.places.query).filter((name) => args[name] !== undefined).sort((a, b) => text(args[b]).length - text(args[a]).length)[0]!;
    refused.push({ path: longest, message: `${longest} is too long: the request's URL may be at most ${MAX_TOOL_URL_LENGTH} characters` });
  }
  const idempotencyKey = args[IDEMPOTENCY_ARGUMENT];
  if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || idempotencyKey === '')) {
    refused.push({ path: IDEMPOTENCY_ARGUMENT, message: `${IDEMPOTENCY_ARGUMENT} must be a non-empty string` });
  } else if (typeof idempotencyKey === 'string' && !IDEMPOTENCY_KEY_FORMAT.test(idempotencyKey)) {
    // The API's own rule, checked here: the key travels as a header, and a character no header carries would fail the call itself.
    refused.push({ path: IDEMPOTENCY_ARGUMENT, message: `${IDEMPOTENCY_ARGUMENT} ${IDEMPOTENCY_KEY_RULE}` });
  }
  const { body: bodyPlace } = tool.places;
  const given = (names: readonly string[]) => Object.fromEntries(names.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]));
  const lifted = Object.entries(tool.places.lifted ?? {}).map(([object, names]) => [object, given(names)] as const).filter(([, fields]) => Object.keys(fields).length);
  const body = bodyPlace === null ? undefined : 'nested' in bodyPlace ? args.body : { ...tool.places.fixed, ...given(bodyPlace.fields), ...Object.fromEntries(lifted) };
  return { pathAndQuery, ...(body === undefined ? {} : { body: JSON.stringify(body) }), ...(typeof idempotencyKey === 'string' && idempotencyKey && !refused.length ? { idempotencyKey } : {}), refused };
}
