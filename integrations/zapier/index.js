'use strict';

/**
 * The Sales Pipeline API's Zapier app (a Zapier Platform CLI app): API-key authentication, instant triggers by REST
 * hooks, creates and searches. What each one is (its request, input fields and sample) is generated from the API's
 * route table into generated.json (`npm run generate`, integrations/zapier/generate.ts); this file only turns those
 * definitions into what zapier-platform-core runs.
 */

const zapier = require('zapier-platform-core');
const { version } = require('./package.json');
const generated = require('./generated.json');

/** The API's address as the user typed it, without a trailing slash or `/v1`. */
const baseUrlOf = (bundle) => String(bundle.authData.baseUrl ?? '').trim().replace(/\/+$/, '').replace(/\/v1$/, '');

/** Every request carries the account's API key as a bearer token. */
const withApiKey = (request, z, bundle) => {
  if (bundle.authData && bundle.authData.apiKey) request.headers = { ...request.headers, Authorization: `Bearer ${bundle.authData.apiKey}` };
  return request;
};

/**
 * An error the API answers is thrown with its own message (and the fields it names), its code and status: what Zapier
 * shows the user. A 429 is a throttle Zapier retries after the API's Retry-After.
 */
function throwApiError(response, z) {
  let body;
  try {
    body = JSON.parse(response.content);
  } catch {
    body = undefined;
  }
  const error = (body && body.error) || {};
  const stated = error.message || (body && body.message) || `The API answered HTTP ${response.status}`;
  const details = (error.details || []).filter((detail) => !stated.includes(detail.message)).map((detail) => `${detail.path}: ${detail.message}`);
  const message = details.length ? `${stated} (${details.join('; ')})` : stated;
  if (response.status === 429) throw new z.errors.ThrottledError(message, Number(response.getHeader('retry-after')) || 60);
  throw new z.errors.Error(message, error.code || `HTTP_${response.status}`, response.status);
}

const apiErrors = (response, z) => (response.status < 400 || response.skipThrowForStatus ? response : throwApiError(response, z));

/** One call of the API: its JSON answer. */
async function call(z, bundle, method, path, { params, body, headers } = {}) {
  const response = await z.request({
    method,
    url: `${baseUrlOf(bundle)}${path}`,
    ...(params && Object.keys(params).length ? { params } : {}),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
  });
  return response.data;
}

const TRUE = ['true', 'yes', '1'];
const FALSE = ['false', 'no', '0'];

/** A value as the API takes it; one that is not of its type is sent as given, for the API to refuse naming its field. */
function scalarOf(type, value) {
  if (type === 'integer' || type === 'number') return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
  if (type === 'boolean' && typeof value === 'string') return TRUE.includes(value.toLowerCase()) ? true : FALSE.includes(value.toLowerCase()) ? false : value;
  return value;
}

/** A field's value from the Zap's input, or undefined when left empty. */
function valueOf(field, value) {
  if (value === undefined || value === null || value === '') return undefined;
  if (field.children) return Array.isArray(value) ? value.map((item) => argumentsOf(field.children, item)) : value;
  if (field.dict) return value;
  if (field.list) return (Array.isArray(value) ? value : [value]).filter((item) => item !== '' && item !== null && item !== undefined).map((item) => scalarOf(field.type, item));
  return scalarOf(field.type, value);
}

const argumentsOf = (fields, input) => Object.fromEntries(fields.map((field) => [field.key, valueOf(field, (input || {})[field.key])]).filter(([, value]) => value !== undefined));

/** An action's request from the Zap's input: its path, query and body, where its API tool puts each argument. */
function requestOf(action, input) {
  const args = argumentsOf(action.fields, input);
  const { places } = action;
  const path = action.path.replace(/\{(\w+)\}/g, (_, name) => {
    if (args[name] === undefined) throw new zapier.errors.Error(`${name} is required`, 'VALIDATION_ERROR', 400);
    return encodeURIComponent(String(args[name]));
  });
  const given = (names) => Object.fromEntries(names.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]));
  const lifted = Object.entries(places.lifted || {})
    .map(([object, names]) => [object, given(names)])
    .filter(([, fields]) => Object.keys(fields).length);
  const body = places.body ? { ...places.fixed, ...given(places.body.fields), ...Object.fromEntries(lifted) } : undefined;
  const headers = args.idempotencyKey === undefined ? {} : { 'Idempotency-Key': String(args.idempotencyKey) };
  return { path, params: given(places.query), body, headers };
}

/** The record the answer holds, with the answer's other parts beside its fields (an upsert's `created`). */
const recordOf = (action, answer) => {
  const { [action.unwrap]: record, ...rest } = answer;
  return Array.isArray(record) ? record : { ...rest, ...record };
};

const performOf = (action) => async (z, bundle) => {
  const { path, params, body, headers } = requestOf(action, bundle.inputData);
  return recordOf(action, await call(z, bundle, action.method, path, { params, body, headers }));
};

const operationOf = (action) => ({
  key: action.key,
  noun: action.noun,
  display: { label: action.label, description: action.description },
  operation: { inputFields: action.fields, perform: performOf(action), sample: action.sample },
});

/** Whether an event is one the trigger reports: its data's fields have the values named, and the fields named changed. */
function passes(trigger, event) {
  const { where = {}, changed = [] } = trigger.filter || {};
  const data = (event && event.data) || {};
  return Object.entries(where).every(([field, value]) => data[field] === value) && changed.every((field) => Object.hasOwn((event && event.previousAttributes) || {}, field));
}

const eventTypeOf = (trigger, bundle) => trigger.eventType || bundle.inputData.type;

/**
 * A REST-hook trigger: subscribing POSTs the Zap's hook URL and event type to /v1/webhooks (the same URL and events
 * again answer the subscription already made, so a retried subscribe makes no second one); unsubscribing deletes it
 * (one already gone is unsubscribed); a delivery is the event; samples are the organization's latest events of the type.
 */
const triggerOf = (trigger) => ({
  key: trigger.key,
  noun: trigger.noun,
  display: { label: trigger.label, description: trigger.description },
  operation: {
    type: 'hook',
    inputFields: trigger.eventTypes ? [{ key: 'type', label: 'Event Type', required: true, choices: trigger.eventTypes, helpText: 'The event that starts the Zap.' }] : [],
    performSubscribe: async (z, bundle) => {
      const { webhook } = await call(z, bundle, 'POST', '/v1/webhooks', { body: { url: bundle.targetUrl, events: [eventTypeOf(trigger, bundle)], description: `Zapier: ${trigger.label}` } });
      return webhook;
    },
    performUnsubscribe: async (z, bundle) => {
      const { id } = bundle.subscribeData;
      const response = await z.request({ method: 'DELETE', url: `${baseUrlOf(bundle)}/v1/webhooks/${encodeURIComponent(id)}`, skipThrowForStatus: true });
      if (response.status === 404) return { id, deleted: true };
      if (response.status >= 400) throwApiError(response, z);
      return response.data;
    },
    perform: (z, bundle) => [bundle.cleanedRequest].filter((event) => passes(trigger, event)),
    performList: async (z, bundle) => (await call(z, bundle, 'GET', '/v1/events/samples', { params: { type: eventTypeOf(trigger, bundle) } })).data.filter((event) => passes(trigger, event)),
    sample: trigger.sample,
  },
});

const byKey = (items) => Object.fromEntries(items.map((item) => [item.key, item]));

module.exports = {
  version,
  platformVersion: zapier.version,
  authentication: {
    type: 'custom',
    fields: [
      { key: 'baseUrl', label: 'API Base URL', required: true, type: 'string', helpText: 'Where your Sales Pipeline API answers, for example `https://api.example.com` (with or without `/v1`).' },
      { key: 'apiKey', label: 'API Key', required: true, type: 'password', helpText: 'An API key of your organization with the `full` scope: a trigger deletes its webhook subscription when its Zap is turned off, which a `write` key may not.' },
    ],
    test: async (z, bundle) => (await call(z, bundle, 'GET', '/v1/organization')).organization,
    connectionLabel: (z, bundle) => bundle.inputData.name,
  },
  beforeRequest: [withApiKey],
  afterResponse: [apiErrors],
  triggers: byKey(generated.triggers.map(triggerOf)),
  creates: byKey(generated.creates.map(operationOf)),
  searches: byKey(generated.searches.map(operationOf)),
  searchOrCreates: byKey(generated.searchOrCreates.map(({ search, create, label }) => ({ key: search, display: { label, description: `Finds a record, or creates it when none is found.` }, search, create }))),
};
