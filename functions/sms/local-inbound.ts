import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SNSEvent } from 'aws-lambda';
import * as v from 'valibot';
import { errorEnvelope, JSON_HEADERS } from '#shared/http/envelope';
import { BadRequestError, ValidationError } from '#shared/errors';
import { validationDetails } from '#shared/validation';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '#shared/http/gateway-responses';
import { MAX_BODY_BYTES } from '#shared/http/middleware';
import { toE164 } from '#shared/phone';
import { InboundMessageId } from './inbound';

export { LOCAL_INBOUND_SMS_PATH } from './channels';

export type InboundHandler = (event: SNSEvent) => Promise<void>;

/** The largest body the simulator reads, as the API reads no larger request body; an SMS is at most 1 600 characters. */
export const MAX_SIMULATED_SMS_BYTES = MAX_BODY_BYTES;

/**
 * A simulated text: the sender's phone (a lead's, or a new customer's), the organization's number, the text, and the
 * provider's id to repeat a delivery. The sender is a phone number with its country code, as the provider names it.
 */
const SimulatedReply = v.strictObjectAsync({
  from: v.pipeAsync(
    v.string('from must be a string: the lead’s phone, e.g. +61412345001'),
    v.checkAsync(async (from) => (await toE164(from, undefined)) !== undefined, 'from must be a phone number with its country code, as the provider names the sender: e.g. +61412345001'),
  ),
  to: v.string('to must be a string: the organization’s smsSenderId'),
  body: v.string('body must be a string: the text of the reply'),
  inboundMessageId: v.optional(InboundMessageId),
});

/** A 400 in the API's error envelope, naming each field at fault, as the API answers a body it cannot take. */
function refuse(response: ServerResponse, error: BadRequestError): void {
  response.writeHead(error.status, JSON_HEADERS).end(JSON.stringify(errorEnvelope(error.status, error.message, error.code, error.details)));
}

/** The SNS event End User Messaging's two-way channel would deliver for this reply. */
function twoWayEvent({ from, to, body, inboundMessageId }: { from: string; to: string; body: string; inboundMessageId: string }): SNSEvent {
  const message = { originationNumber: from, destinationNumber: to, messageBody: body, inboundMessageId, messageKeyword: body.trim().split(/\s+/)[0]?.toUpperCase() ?? '' };
  return {
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn: 'arn:aws:sns:local:000000000000:inbound-sms:local',
        Sns: {
          Type: 'Notification',
          MessageId: randomUUID(),
          TopicArn: 'arn:aws:sns:local:000000000000:inbound-sms',
          Subject: '',
          Message: JSON.stringify(message),
          Timestamp: new Date().toISOString(),
          SignatureVersion: '1',
          Signature: '',
          SigningCertUrl: '',
          UnsubscribeUrl: '',
          MessageAttributes: {},
        },
      },
    ],
  } as SNSEvent;
}

/**
 * Simulates a reply arriving: `curl -X POST localhost:3000/local/sms/inbound -d '{"from":"+61412345001","to":"+61299990000","body":"STOP"}'`
 * hands the deployed inbound function's own code the SNS event AWS would send. Answers 202, 400 in the API's error
 * envelope naming each field at fault (INVALID_JSON for a body that is not JSON), or 413 (the gateway's REQUEST_TOO_LARGE) for one over MAX_SIMULATED_SMS_BYTES.
 */
export async function simulateInboundSms(request: IncomingMessage, response: ServerResponse, handler: InboundHandler): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Past the limit the rest is read and dropped, not kept: the sender still gets its answer on an intact connection.
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size <= MAX_SIMULATED_SMS_BYTES) chunks.push(chunk as Buffer);
  }
  if (size > MAX_SIMULATED_SMS_BYTES) {
    const tooLarge = GATEWAY_RESPONSES.REQUEST_TOO_LARGE;
    response.writeHead(tooLarge.status, JSON_HEADERS).end(JSON.stringify(gatewayResponseBody(tooLarge)));
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    refuse(response, new BadRequestError('Request body must be valid JSON', 'INVALID_JSON'));
    return;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    refuse(response, new ValidationError([{ path: 'body', message: 'body must be a JSON object: {"from": "+61…", "to": "<the organization’s smsSenderId>", "body": "…"}' }]));
    return;
  }
  const parsed = await v.safeParseAsync(SimulatedReply, json);
  if (!parsed.success) {
    refuse(response, new ValidationError(validationDetails(parsed.issues, 'body')));
    return;
  }
  const { from, to, body: text, inboundMessageId = randomUUID() } = parsed.output;
  // The provider names the sender in its one E.164 form (`+61 412…` or `+610412…` typed here is `+61412…` there).
  await handler(twoWayEvent({ from: (await toE164(from, undefined))!, to, body: text, inboundMessageId }));
  response.writeHead(202, JSON_HEADERS).end(JSON.stringify({ received: true }));
}
