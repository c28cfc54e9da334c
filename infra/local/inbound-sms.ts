import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SNSEvent } from 'aws-lambda';
import { JSON_HEADERS } from '../../shared/http/envelope';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '../../shared/http/gateway-responses';
import { MAX_BODY_BYTES } from '../../shared/http/middleware';

/**
 * Where `npm start` takes a simulated reply from a lead: `{from, to, body}` as JSON, and optionally the provider's
 * `inboundMessageId` (a new one otherwise), so a redelivery of one reply can be simulated. Not part of the API.
 */
export const LOCAL_INBOUND_SMS_PATH = '/local/sms/inbound';

export type InboundHandler = (event: SNSEvent) => Promise<void>;

/** The largest body the simulator reads, as the API reads no larger request body; an SMS is at most 1 600 characters. */
export const MAX_SIMULATED_SMS_BYTES = MAX_BODY_BYTES;

/** The SNS event End User Messaging's two-way channel would deliver for this reply. */
function twoWayEvent({ from, to, body, inboundMessageId }: { from: string; to: string; body: string; inboundMessageId: string }): SNSEvent {
  const message = { originationNumber: from, destinationNumber: to, messageBody: body, inboundMessageId, messageKeyword: body.trim().split(/\s+/)[0]?.toUpperCase() ?? '' };
  return {
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn: 'arn:aws:sns:local:000000000000:inbound-sms:local',
        Sns: { Type: 'Notification', MessageId: randomUUID(), TopicArn: 'arn:aws:sns:local:000000000000:inbound-sms', Subject: '', Message: JSON.stringify(message), Timestamp: new Date().toISOString(), SignatureVersion: '1', Signature: '', SigningCertUrl: '', UnsubscribeUrl: '', MessageAttributes: {} },
      },
    ],
  } as SNSEvent;
}

/**
 * Simulates a reply arriving: `curl -X POST localhost:3000/local/sms/inbound -d '{"from":"+61412345001","to":"+61299990000","body":"STOP"}'`
 * hands the deployed inbound function's own code the SNS event AWS would send. Answers 202, 400 for a malformed body,
 * or 413 (the gateway's REQUEST_TOO_LARGE) for one over MAX_SIMULATED_SMS_BYTES.
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
  let body: { from?: unknown; to?: unknown; body?: unknown; inboundMessageId?: unknown };
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
  } catch {
    body = {};
  }
  const { from, to, body: text, inboundMessageId = randomUUID() } = body;
  if (typeof from !== 'string' || typeof to !== 'string' || typeof text !== 'string' || typeof inboundMessageId !== 'string') {
    response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Send {"from": "+61…", "to": "<the organization’s smsSenderId>", "body": "…"} (and "inboundMessageId": "…" to repeat a delivery)' }));
    return;
  }
  await handler(twoWayEvent({ from, to, body: text, inboundMessageId }));
  response.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true }));
}
