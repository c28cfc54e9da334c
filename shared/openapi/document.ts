import type * as v from 'valibot';
import type { OutgoingWebhook, RouteDefinition } from '../routes/route';
import type { OpenApiDocument } from './schemas';
import { convertComponents, type JsonSchema } from './json-schema';
import { operation } from './operation';
import { webhooksSection } from './outgoing';
import { preflightOperation } from './preflight';
import { EITHER, SECURITY_SCHEMES } from './security';
import { envelopeRef, examplesObject, forbiddenResponses, JSON_MEDIA_TYPE, SHARED_ERRORS, sharedExamples, type Json } from './responses';

export { errorExamplesOfRoute } from './operation';

export const LOCAL_BASE_URL = 'http://localhost:3000';

/** What the document describes: the route table, its tags, the named schemas it refers to and their examples. */
export interface ApiDescription {
  routes: readonly RouteDefinition[];
  /** Tag → its description, in the order the reference shows them; every route's tag must be one. */
  tags: Readonly<Record<string, string>>;
  /** Schemas named under components.schemas, referred to wherever the same schema object appears. */
  components: Readonly<Record<string, v.GenericSchema>>;
  /** An example per named schema. */
  examples: Readonly<Record<string, unknown>>;
  /** The document's title and its opening description (Markdown): what the API is, authentication, errors, limits. */
  info: { title: string; description: string };
  /** What the Idempotency-Key header does, on every operation that honours it: how a retry is answered. */
  idempotencyKey: string;
  /** What the API POSTs to its subscribers (OpenAPI 3.1 `webhooks`), by name. */
  webhooks?: Readonly<Record<string, OutgoingWebhook>>;
}

function componentsSection({ components, examples, routes }: ApiDescription): Json {
  const schemas = convertComponents(components);
  for (const [name, example] of Object.entries(examples)) {
    if (schemas[name]) schemas[name] = { ...schemas[name], examples: [example as NonNullable<JsonSchema['default']>] };
  }
  // The 403s in their place among the statuses: one per set of codes the routes refuse their callers with.
  const sharedErrors = Object.entries(SHARED_ERRORS).flatMap(([status, error]) => (Number(status) === 404 ? [...forbiddenResponses(routes), error] : [error]));
  const responses = Object.fromEntries(
    sharedErrors.map((shared) => [
      shared.name,
      {
        description: shared.description,
        ...(shared.headers ? { headers: shared.headers } : {}),
        content: { [JSON_MEDIA_TYPE]: { schema: envelopeRef, ...(Object.keys(sharedExamples(shared)).length ? { examples: sharedExamples(shared) } : {}) } },
      },
    ]),
  );
  return {
    schemas,
    responses,
    securitySchemes: SECURITY_SCHEMES,
  };
}

/**
 * The document's one server, `{base_url}`: by default the API that served the document; in the committed copy
 * (docs/openapi.json), which no request served, the local API.
 */
function serversOf(baseUrl: string | undefined): Json[] {
  return [
    {
      url: '{base_url}',
      description: 'The API: npm start serves it locally; deployed, it is the API stack’s output',
      variables: {
        base_url: {
          default: baseUrl ?? LOCAL_BASE_URL,
          description:
            baseUrl === undefined
              ? 'http://localhost:3000 for npm start; deployed, the API stack’s ApiUrl output, e.g. https://abc123.execute-api.ap-southeast-2.amazonaws.com/prod'
              : 'The API that served this document; another deployment’s base URL (its API stack’s ApiUrl output) to call that one.',
        },
      },
    },
  ];
}

/** The document as served from one base URL: the same, naming that API as its server. */
export const servedFrom = (document: OpenApiDocument, baseUrl: string): OpenApiDocument => ({ ...document, servers: serversOf(baseUrl) });

/** A route's operation, or an error that names the route before what failed (`POST /v1/automations (createAutomation): body.…`). */
function operationNamed(route: RouteDefinition, api: ApiDescription): Json {
  try {
    return operation(route, api);
  } catch (error) {
    throw new Error(`${route.method} ${route.path} (${route.operationId}): ${(error as Error).message}`, { cause: error });
  }
}

/** The OpenAPI 3.1 description of the API, generated from the route table and its valibot schemas. */
export function buildOpenApiDocument(api: ApiDescription): OpenApiDocument {
  const { routes } = api;
  // The named schemas first: every operation refers to them, so one they cannot convert is named as itself, not as
  // the first operation that reaches it.
  const components = componentsSection(api);
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    if (!(route.tag in api.tags)) throw new Error(`${route.operationId}: its tag ${route.tag} has no description`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operationNamed(route, api);
    if (route.preflight) paths[route.path]!.options = preflightOperation(route);
  }
  for (const [name, webhook] of Object.entries(api.webhooks ?? {})) {
    if (!(webhook.tag in api.tags)) throw new Error(`webhook ${name}: its tag ${webhook.tag} has no description`);
  }
  const used = new Set([...routes.map((route) => route.tag), ...Object.values(api.webhooks ?? {}).map((webhook) => webhook.tag)]);
  const tags = Object.entries(api.tags)
    .filter(([name]) => used.has(name))
    .map(([name, description]) => ({ name, description }));
  return {
    openapi: '3.1.0',
    info: {
      title: api.info.title,
      version: '1.0.0',
      description: api.info.description,
      contact: { name: 'Sales Pipeline API team' },
      // Not open source: an SPDX reference to the terms the API is licensed under, not a public licence.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: serversOf(undefined),
    // What most operations take; each states its own (shared/openapi/security.ts).
    security: EITHER,
    tags,
    paths,
    ...(api.webhooks ? { webhooks: webhooksSection(api.webhooks, api.components) } : {}),
    components,
  };
}

/** docs/openapi.json as `npm run generate` writes it. */
export const OPENAPI_FILE = new URL('../../docs/openapi.json', import.meta.url);

export function serializeDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
