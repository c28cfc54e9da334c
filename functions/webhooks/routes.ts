import { errorEnvelope } from '#shared/http/envelope';
import { MAX_ROTATIONS_PER_HOUR, MAX_WEBHOOKS_PER_ORGANIZATION, ROTATION_OVERLAP_HOURS } from './schema';
import {
  DELIVERY_STATUSES,
  RedeliverEventBody,
  WebhookDeliveryResponse,
  WebhookIdPath,
  WebhookSecretResponse,
  WebhookTestEvent,
  WebhookTestResponse,
} from './schema';
import type { OutgoingWebhook } from '#shared/routes/route';
import { actionRow } from '#shared/routes/rows';
import * as schema from './schema';
import { recordRows } from '#shared/routes/record-rows';
import { WEBHOOK_LIMITS } from './limits';
import { Event, EventIdPath, EVENT_RETENTION_DAYS } from '../events/schema';
import { SIGNATURE_HEADERS } from './signature-headers';
import { webhook } from './examples';
import { deliveryQueueSender } from './capability';
import { opensSecrets, sealsSecrets } from '#shared/sealing-key';
import { prose } from '#shared/prose';

const delivery = recordRows(schema, { tag: 'Webhooks', names: { one: 'WebhookDelivery', many: 'WebhookDeliveries' }, path: '/v1/webhooks/{webhookId}/deliveries', parent: WebhookIdPath });
const webhookRows = recordRows(schema, { tag: 'Webhooks', names: { one: 'Webhook', many: 'Webhooks' }, path: '/v1/webhooks', changeLog: true });

const SIGNING = 'Deliveries follow the Standard Webhooks specification: a POST of the event JSON with `webhook-id` (the event id, the same on every retry), `webhook-timestamp` and `webhook-signature` headers, verifiable with any Standard Webhooks library.';

export const createWebhook = webhookRows.create({
  summary: 'Subscribe a URL to events',
  description: prose`
    Delivers each event of the listed types (or \`*\` for all) to \`url\`, which must be https and must not point at a
    private, loopback or link-local address. The answer carries \`secret\` (\`whsec_…\`) — shown only here and on
    rotation. ${SIGNING} An organization has at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks. \`expiresAt\` (RFC 3339,
    in the future, at most a year on) ends the subscription by itself: from then it is sent nothing and reads as
    disabled, \`disabledReason\` EXPIRED, and a \`webhook.disabled\` event follows. Subscribing again is safe: a \`url\`
    and \`events\` an enabled subscription of the organization already has (the same url exactly, the same events in any
    order) answer 200 with that subscription and its \`secret\`, changing nothing but its \`expiresAt\` when the body
    gives another (later or sooner), rather than 201 with a second one; creates of the same url and events at the same
    moment make one subscription.
  `,
  // GetItem: after the claim of the url and events was found taken, the claim and the subscription holding it.
  // A subscribe again with another expiresAt: the subscription and its expiry item in one transaction, then read back.
  dynamodb: ['UpdateItem', 'PutItem', 'GetItem'],
  response: WebhookSecretResponse,
  responses: { 200: { description: 'An enabled subscription of the organization has this url and these events: it is answered, with its secret, and nothing is made; an `expiresAt` other than its own is set on it.', schema: WebhookSecretResponse } },
  // Its first secret is sealed in the item; the subscription it would duplicate has its secret opened to answer it.
  capabilities: [sealsSecrets, opensSecrets],
});

export const listWebhooks = webhookRows.list({
  summary: 'List webhooks, newest first',
  description: 'The organization’s webhook subscriptions, without their secrets. `url` keeps those to that url exactly (a platform’s check that its subscription still exists), paged and counted as the whole list is; with `updatedSince` it answers 400.',
});

export const getWebhook = webhookRows.get({
  summary: 'Get a webhook',
  description: 'One subscription, without its secret. `disabledReason` says why the service disabled it, if it did: GONE (its receiver answered 410 Gone), FAILING (its deliveries failed for 24 hours) or EXPIRED (its `expiresAt` passed); each also records a `webhook.disabled` event.',
});

export const updateWebhook = webhookRows.update({
  method: 'PUT',
  summary: 'Change a webhook’s url, events, description or isEnabled',
  description: prose`
    Fields left out keep their values; \`expiresAt\` is as on create: RFC 3339, in the future, at most a year on, or
    null for none. Setting \`isEnabled\` to true re-enables a subscription the service disabled and clears
    \`disabledReason\`; one whose \`expiresAt\` has passed answers 400 naming expiresAt unless the body gives a later
    one or null, which alone also starts an expired subscription again. A \`url\` other than its own restarts the 24
    hours of failures that disable it; the same url sent again does not.
  `,
  // GetItem: the subscription as it is, read only when the body names a url, an expiresAt or isEnabled true. PutItem,
  // DeleteItem: its expiry item, put or removed with a new expiresAt.
  dynamodb: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem'],
});

export const deleteWebhook = webhookRows.delete({ summary: 'Delete a webhook', description: 'Stops deliveries at once, including pending retries.' });

export const rotateWebhookSecret = webhookRows.action('rotate-secret', {
  operationId: 'rotateWebhookSecret',
  summary: 'Rotate a webhook’s signing secret',
  description: prose`
    Answers the new \`secret\`, shown only here. For ${ROTATION_OVERLAP_HOURS} hours deliveries carry two signatures,
    one per secret, so the receiver can switch over without missing one; a secret older than the one just replaced stops
    signing at once, so a delivery never carries more than two. A webhook's secret may be rotated at most
    ${MAX_ROTATIONS_PER_HOUR} times in any hour: another rotation answers 429 TOO_MANY_ROTATIONS, with \`Retry-After\`,
    and changes nothing.
  `,
  dynamodb: ['GetItem', 'UpdateItem'],
  // The old secret stops signing once the overlap ends.
  replaces: true,
  // The current secret, opened, signs on beside the new one, which is sealed.
  capabilities: [opensSecrets, sealsSecrets],
  response: WebhookSecretResponse,
  errors: [409],
  responses: {
    429: {
      description: `TOO_MANY_ROTATIONS: the webhook's secret was rotated ${MAX_ROTATIONS_PER_HOUR} times in the last hour; nothing changed. Wait the Retry-After seconds, until the oldest of them is an hour old. Or RATE_LIMITED: the organization's usage plan was exceeded.`,
      examples: { TooManyRotations: errorEnvelope(429, `A webhook's secret may be rotated at most ${MAX_ROTATIONS_PER_HOUR} times an hour; retry in 1740 s`, 'TOO_MANY_ROTATIONS') },
    },
  },
});

export const listWebhookDeliveries = delivery.list({
  summary: 'List a webhook’s delivery attempts, newest first',
  description: prose`
    Every attempt of the last 30 days: the event, the attempt number, the receiver’s status code or the error, the
    duration and when the next attempt is due. A non-2xx answer or none within 10 s is retried with exponential backoff
    for up to 24 hours. \`eventType\` (an event type, or \`webhook.test\`) and \`status\`
    (${DELIVERY_STATUSES.join(', ')}; PENDING is a redelivery not yet attempted) filter the list, together or alone,
    paged and counted as the whole list is.
  `,
  indexes: ['gsi1', 'gsi2', 'gsi3'],
});

export const testWebhook = webhookRows.action('test', {
  operationId: 'testWebhook',
  summary: 'Send a test event to a webhook now',
  description: prose`
    POSTs a \`webhook.test\` event \`{id, type: "webhook.test", occurredAt, organizationId, data: {webhookId,
    message}}\` to the subscription's url at once, signed as every delivery is and held to the same destination rules,
    and answers the attempt as the deliveries list records it. A receiver that is down, slow or answers non-2xx is still
    a 200 here: \`attempt.status\` is FAILED with its \`statusCode\` or \`error\`. The test is not retried, does not
    count towards disabling the subscription, is sent even to a disabled one, and is not stored as an event (\`GET
    /v1/events\` does not list it); its attempt shows in the deliveries with \`eventType\` \`webhook.test\`. ${SIGNING}
  `,
  dynamodb: ['GetItem', 'PutItem'],
  callsOutside: true,
  // The test is signed with the subscription's secrets, opened.
  capabilities: [opensSecrets],
  response: WebhookTestResponse,
});

/**
 * Beside the events routes in the reference (its tag), but answered here: redelivering is the webhooks' work, and the
 * webhooks resource already uses the events one (never the other way).
 */
export const redeliverEvent = actionRow({
  operationId: 'redeliverEvent',
  path: '/v1/events/{eventId}/redeliver',
  summary: 'Deliver an event again to one webhook',
  description: prose`
    Queues a new delivery of a stored event to the subscription \`webhookId\`, through the same queue, signing and
    retries as every delivery, and answers 202 with its record, PENDING until it is attempted (then SUCCEEDED or FAILED
    in the webhook's deliveries). The receiver gets the event's own id as \`webhook-id\`, as the first delivery had,
    with a new \`webhook-timestamp\` and signature. An event older than the ${EVENT_RETENTION_DAYS} days events are kept
    answers 410 EVENT_EXPIRED; a webhook that is disabled (WEBHOOK_DISABLED) or does not subscribe to the event's type
    (NOT_SUBSCRIBED) answers 409; an unknown event or webhook, or another organization's, 404.
  `,
  tag: 'Events',
  dynamodb: ['GetItem', 'PutItem'],
  capabilities: [deliveryQueueSender],
  status: 202,
  request: { path: EventIdPath, body: RedeliverEventBody },
  response: WebhookDeliveryResponse,
  errors: [409],
  requestExample: { webhookId: webhook.id },
  responses: { 410: { description: `EVENT_EXPIRED: the event is older than the ${EVENT_RETENTION_DAYS} days events are kept.` } },
});

export const webhookRoutes = [createWebhook, listWebhooks, getWebhook, updateWebhook, deleteWebhook, rotateWebhookSecret, listWebhookDeliveries, testWebhook, redeliverEvent];

const TIMEOUT_SECONDS = WEBHOOK_LIMITS.timeoutMs / 1000;
const LONGEST_WAIT_HOURS = WEBHOOK_LIMITS.maxDelaySeconds / 3600;

/**
 * What a receiver is sent (the document's OpenAPI 3.1 `webhooks`): every event, and the test event, each a POST
 * signed with the Standard Webhooks headers, with what each answer makes the sender do.
 */
export const webhookMessages: Record<string, OutgoingWebhook> = {
  event: {
    operationId: 'receiveEvent',
    summary: 'An event, POSTed to each subscription that asks for its type',
    description: prose`
      Each event of a type a subscription lists (or every event, with \`*\`) is POSTed to its \`url\`, the body being
      the event as \`GET /v1/events\` lists it: \`data\` is the record as the API returns it, and a \`*.updated\` event
      also carries \`previousAttributes\`. \`webhook-id\` is the event id, the same on every retry and on a redelivery
      (\`POST /v1/events/{eventId}/redeliver\`), each attempt with a new timestamp and signature. Verify the signature
      with the subscription's \`secret\` before trusting the body, for example with the standardwebhooks package.
    `,
    tag: 'Webhooks',
    body: Event,
    headers: SIGNATURE_HEADERS,
    answers: {
      '2XX': { description: `Delivered: the attempt is recorded SUCCEEDED. The status line is the answer and must come within ${TIMEOUT_SECONDS} s; the body of the answer is not read (it is drained, up to 64 KB, without being waited for).` },
      '410': { description: 'Gone: the receiver wants no more webhooks. The subscription is disabled at once, `disabledReason` GONE, with a `webhook.disabled` event; the event is not retried and nothing more is sent to it.' },
      default: {
        description: prose`
          Any other answer, or none within ${TIMEOUT_SECONDS} s: the attempt is recorded FAILED and retried with
          exponential backoff and jitter (from 30 s, at most ${LONGEST_WAIT_HOURS} hour apart) until 24 hours after the
          first attempt, then dead-lettered. After ${WEBHOOK_LIMITS.pauseAfterFailures} failed attempts in a row the
          subscription is paused, from 30 s and twice as long after each further failure, at most ${LONGEST_WAIT_HOURS}
          hour: its deliveries wait, and one attempt when the pause ends tries the receiver again, a success resuming
          them all. A subscription whose deliveries have failed for 24 hours is disabled, \`disabledReason\` FAILING,
          with a \`webhook.disabled\` event.
        `,
        headers: { 'Retry-After': `Seconds, or an HTTP-date: the next attempt is not made before it when that is later than the backoff, waiting at most ${LONGEST_WAIT_HOURS} hour; the attempt's \`nextAttemptAt\` shows when.` },
      },
    },
  },
  [WebhookTestEvent.entries.type.literal]: {
    operationId: 'receiveTestEvent',
    summary: 'The test event POST /v1/webhooks/{webhookId}/test sends',
    description: 'A `webhook.test` event, sent only when asked for: `{id, type: "webhook.test", occurredAt, organizationId, data: {webhookId, message}}`, signed as every delivery is. Its id is new each time and names no stored event.',
    tag: 'Webhooks',
    body: WebhookTestEvent,
    headers: SIGNATURE_HEADERS,
    answers: {
      '2XX': { description: 'The attempt is recorded SUCCEEDED, and the test’s request answers it.' },
      '410': { description: 'Recorded FAILED with its statusCode. Unlike a delivery, a test answered 410 disables nothing.' },
      default: { description: `Any other answer, or none within ${TIMEOUT_SECONDS} s: recorded FAILED. A test is never retried and never counts towards disabling the subscription.` },
    },
  },
};
