import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE } from '#shared/openapi/document';

/**
 * Holds every response the tests receive to the OpenAPI document the API serves: the operation for
 * the method and path, the response for the status, its media type, and the body against the
 * response's schema. A path the document does not list may only give the gateway's 404 envelope, and a method the
 * document does not list for a path it does, the 405 envelope.
 */
type Json = Record<string, any>;

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const DOCUMENT_ID = 'urn:sales-pipeline:openapi';
// The committed document, which test/openapi.test.ts holds equal to the one the routes generate: read rather than
// generated again in every test file.
const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
// Amounts are multiples of 0.01, which binary floating point divides only approximately.
const ajv = new Ajv2020({ allErrors: true, strict: false, multipleOfPrecision: 9 });
addFormats(ajv);
ajv.addSchema(document, DOCUMENT_ID);

export class ContractError extends Error {
  override name = 'ContractError';
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const pointerPart = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  operation: Json;
}

const operations: Operation[] = Object.entries(document.paths as Record<string, Json>)
  .flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(`^${template.split(/\{\w+\}/).map(escapeRegExp).join('[^/]+')}/?$`),
      params: (template.match(/\{/g) ?? []).length,
      operation: operation as Json,
    })),
  )
  // Literal segments win over parameters, as in API Gateway (/v1/products/batch before /v1/products/{productId}).
  .sort((a, b) => a.params - b.params);

const validators = new Map<string, ValidateFunction>();
/** The validator of the schema at a JSON pointer into the document. */
export function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
    if (!validate) throw new ContractError(`The OpenAPI document has no schema at ${pointer}`);
    validators.set(pointer, validate);
  }
  return validate;
}

function resolveResponse(pointer: string, response: Json): { pointer: string; response: Json } {
  if (typeof response.$ref !== 'string') return { pointer, response };
  const target = (response.$ref as string).replace(/^#/, '');
  const resolved = target.split('/').slice(1).reduce<Json | undefined>((node, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  if (!resolved) throw new ContractError(`The OpenAPI document's ${response.$ref} does not exist`);
  return { pointer: target, response: resolved };
}

export interface ObservedResponse {
  method: string;
  /** Path without the query string. */
  path: string;
  status: number;
  contentType: string | null;
  /** Parsed JSON, the text of any other media type, or undefined for an empty body. */
  body: unknown;
}

function checkBody(where: string, pointer: string, body: unknown) {
  const validate = validatorAt(pointer);
  if (!validate(body)) {
    const problems = (validate.errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message}${error.params && 'additionalProperty' in error.params ? ` (${error.params.additionalProperty})` : ''}`);
    throw new ContractError(`${where}: the body does not match the OpenAPI document: ${problems.join('; ')}\nBody: ${JSON.stringify(body).slice(0, 2000)}`);
  }
}

const mediaTypeOf = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** Throws a ContractError naming the route, the status and the violation. */
export function assertMatchesDocument({ method, path, status, contentType, body }: ObservedResponse): void {
  // As API Gateway routes: the most specific path the document lists, then the method on it.
  const template = operations.find((candidate) => candidate.pattern.test(path))?.template;
  const match = operations.find((candidate) => candidate.template === template && candidate.method === method.toUpperCase());
  if (!match) {
    const where = `${method} ${path} (no operation in the OpenAPI document) answered ${status}`;
    const expected = template === undefined ? 404 : 405;
    if (status !== expected) {
      throw new ContractError(`${where}; ${template === undefined ? "a path the document does not list may only answer the gateway's 404 envelope" : `${template} takes other methods: it may only answer 405`}`);
    }
    checkBody(where, '/components/schemas/ErrorEnvelope', body);
    return;
  }
  const where = `${method} ${match.template} (${match.operation.operationId}) answered ${status}`;
  const responses = match.operation.responses as Json;
  const documented = responses[String(status)];
  if (!documented) {
    throw new ContractError(`${where}, a status the OpenAPI document does not list for it (it lists ${Object.keys(responses).join(', ')})\nBody: ${JSON.stringify(body).slice(0, 2000)}`);
  }
  const { pointer, response } = resolveResponse(`/paths/${pointerPart(match.template)}/${method.toLowerCase()}/responses/${status}`, documented);
  const content = response.content as Json | undefined;
  if (!content) {
    if (body !== undefined && body !== '') throw new ContractError(`${where} with a body, but the OpenAPI document gives that response none`);
    return;
  }
  const mediaType = mediaTypeOf(contentType);
  if (!content[mediaType]) throw new ContractError(`${where} as ${contentType ?? 'no content type'}, but the OpenAPI document gives ${Object.keys(content).join(', ')}`);
  checkBody(where, `${pointer}/content/${pointerPart(mediaType)}/schema`, body);
}

/** Reads a fetch response's body the way the tests see it: JSON parsed, other media types as text. */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  return mediaTypeOf(response.headers.get('content-type')).endsWith('json') ? JSON.parse(text) : text;
}

/** Checks a fetch response without consuming it (for clients such as openapi-fetch). */
export async function assertFetchMatchesDocument(method: string, url: string, response: Response): Promise<void> {
  assertMatchesDocument({
    method,
    path: new URL(url).pathname,
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: await readBody(response.clone()),
  });
}
