import type { SNSEvent } from 'aws-lambda';
import * as v from 'valibot';
import { receiveSms } from './replies';
import { logger } from '#shared/observability';
import { asWriter, inboundWriter } from '#shared/audit/writer';

/**
 * The provider's id of an inbound text (a UUID from End User Messaging), which goes into the reply's item key: bounded
 * well below DynamoDB's 1 024 bytes of sort key, so a longer one is refused, not a failed write.
 */
export const INBOUND_MESSAGE_ID_MAX_LENGTH = 128;
export const InboundMessageId = v.pipe(
  v.string('inboundMessageId must be a string'),
  v.nonEmpty('inboundMessageId must not be empty'),
  v.maxLength(INBOUND_MESSAGE_ID_MAX_LENGTH, `inboundMessageId must be at most ${INBOUND_MESSAGE_ID_MAX_LENGTH} characters: the provider's id of the text`),
);

/** What End User Messaging SMS publishes for a two-way reply (the phone number's two-way channel is this topic). */
const TwoWayMessage = v.object({
  originationNumber: v.string(),
  destinationNumber: v.string(),
  messageBody: v.string(),
  inboundMessageId: InboundMessageId,
});

/**
 * Texts to the organizations' numbers: a lead's reply is recorded in its thread (or a new SMS inquiry), a first text
 * from a phone no lead has makes a lead with its SMS inquiry; STOP and START are honoured.
 */
export async function handler(event: SNSEvent): Promise<void> {
  for (const record of event.Records) {
    const message = v.safeParse(TwoWayMessage, JSON.parse(record.Sns.Message));
    if (!message.success) {
      logger.warn('not a two-way SMS message; ignored', { messageId: record.Sns.MessageId });
      continue;
    }
    const { originationNumber, destinationNumber, messageBody, inboundMessageId } = message.output;
    // Written as the reply itself (via inbound, no key): the audit log attributes its records to it.
    const outcome = await asWriter(inboundWriter(inboundMessageId), () =>
      receiveSms({ from: originationNumber, to: destinationNumber, body: messageBody, providerMessageId: inboundMessageId, receivedAt: record.Sns.Timestamp }),
    );
    if (outcome !== 'recorded') logger.info('inbound SMS not recorded', { outcome, inboundMessageId });
  }
}
