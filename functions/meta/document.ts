import { CompressibleJson } from '#shared/http/compressible-text';
import { buildOpenApiDocument, servedFrom, type ApiDescription } from '#shared/openapi/document';
import type { OpenApiDocument } from '#shared/openapi/schemas';
import { componentExamples, componentSchemas, outgoingWebhooks, resources, routes, tagDescriptions } from '../resources';
import { prose } from '#shared/prose';

/**
 * The document's opening: what the API is, its groups of operations as the resources' tags name them (so a new
 * resource is named with no edit here), and what holds for every operation.
 */
const DESCRIPTION = prose`
  A sales pipeline for trades businesses. Its operations, by group: ${Object.keys(tagDescriptions).join(', ')}.

  **Authentication.** Every operation except this description and its reference page takes the organization's API key
  as a bearer token: \`Authorization: Bearer <API key>\`. Every record read or written belongs to that organization;
  another organization's record answers 404. A key has a scope: \`read\` may only GET, \`write\` may do anything but
  DELETE, \`full\` (the default) may do everything; a method outside it answers 403 with code \`INSUFFICIENT_SCOPE\`. The
  console calls the same operations with a member's session instead: the \`__Host-session\` cookie its sign-in sets
  (the \`sessionCookie\` scheme), held to the member's role (an operation's \`x-session-role\`), each change carrying
  \`X-CSRF-Token\` (403 \`CSRF_TOKEN_REQUIRED\` without). A member's own operations (\`/v1/me\`, \`/v1/api-keys\`)
  take the session alone and answer a key 403 \`SESSION_REQUIRED\`.

  **Errors.** Every error is the envelope \`{success: false, message, error: {status, message, code?}}\`
  (ErrorEnvelope), except the SMS provider's failure, which is \`{message}\` only.

  **Rate limits.** Each organization has a usage plan: requests per second, a burst and a daily quota. Beyond them the
  answer is 429 with code \`RATE_LIMITED\` and a \`Retry-After\` header in seconds.

  **Lists.** \`page\` (from 1, default 1) and \`limit\` (1–100, default 50); newest first; \`{<items>, totalPages,
  currentPage, totalCount}\`.

  **Methods and parameters.** A method a path does not take answers 405 with an \`Allow\` header naming those it does;
  a query parameter an operation does not take answers 400 naming it.
`;

/** What Idempotency-Key does, on every operation that honours it (shared/http/idempotency.ts keeps the answers). */
const IDEMPOTENCY_KEY = prose`
  Makes a retry safe: the first completed answer to this key is kept for 24 hours and sent again, with
  \`Idempotent-Replayed: true\`, to the same request. The same key on another request answers 409
  IDEMPOTENCY_KEY_REUSED; while the first request runs, 409 IDEMPOTENCY_IN_PROGRESS. A 400, 413, 429 or 5xx is not
  kept, so a corrected retry runs; but a 502, the SMS provider’s answer to a message already recorded and perhaps
  sent, is kept, so a retry never texts the lead twice.
`;

/** This API as its document describes it: the resources' routes, tags, named schemas and their examples. */
export const API: ApiDescription = {
  routes,
  tags: tagDescriptions,
  components: componentSchemas,
  examples: componentExamples,
  info: { title: 'Sales Pipeline API', description: DESCRIPTION },
  idempotencyKey: IDEMPOTENCY_KEY,
  webhooks: outgoingWebhooks,
};

/** Each event type's `data`: the named schema of the record its event source emits. */
const EVENT_DATA = new Map(resources.flatMap((resource) => resource.events ?? []).flatMap((source) => source.types.map((type) => [type, source.data] as const)));

type Json = Record<string, any>;

/**
 * The Event schema with `data` typed by `type`. The code keeps one Event (GET /v1/events and the webhooks handlers
 * would otherwise bundle every resource's schemas); the document splits each of its variants by the record its types
 * carry, so a client generated from it reads a `lead.created`'s data as a Lead.
 */
function withTypedEventData(document: OpenApiDocument): OpenApiDocument {
  const schemas = (document as Json).components.schemas as Json;
  const { oneOf, ...rest } = schemas.Event as Json;
  const variants = (oneOf as Json[]).flatMap((variant) => {
    const byData = new Map<string, string[]>();
    for (const type of variant.properties.type.enum as string[]) {
      const data = EVENT_DATA.get(type);
      if (!data || !schemas[data]) throw new Error(`Event type ${type} names no data schema of the document (${data})`);
      byData.set(data, [...(byData.get(data) ?? []), type]);
    }
    return [...byData].map(([data, types]) => ({
      ...variant,
      properties: { ...variant.properties, type: { ...variant.properties.type, enum: types }, data: { $ref: `#/components/schemas/${data}` } },
    }));
  });
  return { ...document, components: { ...(document as Json).components, schemas: { ...schemas, Event: { oneOf: variants, ...rest } } } } as OpenApiDocument;
}

export const buildDocument = (): OpenApiDocument => withTypedEventData(buildOpenApiDocument(API));

/** Documents served are kept per base URL, a few: a function is reached at its API's URL and perhaps a custom domain. */
const MAX_KEPT = 8;
let built: OpenApiDocument | undefined;
const served = new Map<string, CompressibleJson<OpenApiDocument>>();

/**
 * The document as served from a base URL (its one server is that API), sent gzipped where the client takes it. Built
 * once per container (the route table does not change while it runs); its text is kept per base URL, the oldest let
 * go beyond a few, so Host headers made up by a caller cannot grow it.
 */
export function openApiDocument(baseUrl: string): CompressibleJson<OpenApiDocument> {
  let document = served.get(baseUrl);
  if (!document) {
    document = new CompressibleJson(servedFrom((built ??= buildDocument()), baseUrl));
    if (served.size >= MAX_KEPT) served.delete(served.keys().next().value!);
    served.set(baseUrl, document);
  }
  return document;
}
