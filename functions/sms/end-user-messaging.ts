import type { PinpointSMSVoiceV2Client } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { SmsDeliveryError } from './delivery-error';
import type { OutgoingSms, SmsSender } from './sender';
import { providerContext } from './provider-context';

/**
 * A hung End User Messaging must fail the send well inside the function's timeout (15 s), leaving time to record
 * the message FAILED: at most 1 s to connect and 5 s to answer, on its single attempt. Without these the SDK
 * waits as long as the socket does.
 */
export const SMS_PROVIDER_TIMEOUTS = { connectionTimeout: 1_000, requestTimeout: 5_000, throwOnRequestTimeout: true } as const;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name} (SMS_PROVIDER is end-user-messaging)`);
  return value;
}

/**
 * AWS End User Messaging SMS. SendTextMessage takes no idempotency token, so the client never retries
 * (one attempt: a timed-out send might have left, and sending twice is worse than a FAILED record the
 * member can retry). The message's ids travel as Context, which delivery receipts carry back.
 */
export function endUserMessagingSender(): SmsSender {
  // The default for organizations without an smsSenderId. Optional: without it, End User Messaging picks from
  // the account's numbers for the destination country.
  const defaultOriginationIdentity = process.env.SMS_ORIGINATION_IDENTITY || undefined;
  const configurationSetName = required('SMS_CONFIGURATION_SET');
  // The client's module is loaded with import() at the first send, and the client made then, once per container: the
  // routes of a function that may text (listing messages, an automation step that waits or calls a webhook) never
  // parse it (about 11 KB, in a chunk of its own: infra/cdk/bundling.ts).
  type Provider = { client: PinpointSMSVoiceV2Client; SendTextMessageCommand: typeof import('./end-user-messaging-send').SendTextMessageCommand };
  let provider: Promise<Provider> | undefined;
  const loaded = () =>
    (provider ??= import('./end-user-messaging-send').then(({ PinpointSMSVoiceV2Client, SendTextMessageCommand }) => ({
      client: new PinpointSMSVoiceV2Client({ maxAttempts: 1, requestHandler: SMS_PROVIDER_TIMEOUTS }),
      SendTextMessageCommand,
    })));
  return {
    name: 'end-user-messaging',
    async send(sms: OutgoingSms) {
      const { client, SendTextMessageCommand } = await loaded();
      const result = await client
        .send(
          new SendTextMessageCommand({
            DestinationPhoneNumber: sms.to,
            // The organization's own number or sender id: inbound replies find the organization by it.
            OriginationIdentity: sms.from ?? defaultOriginationIdentity,
            ConfigurationSetName: configurationSetName,
            MessageBody: sms.body,
            MessageType: 'TRANSACTIONAL',
            Context: providerContext(sms),
          }),
        )
        .catch((error: unknown) => {
          // A client error (4xx: invalid, denied, throttled) left nothing. Without an answer, or with a fault of the
          // provider's own (5xx), it may have taken the message: its delivery receipt will say.
          const httpStatus = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
          const name = (error as Error).name;
          if (httpStatus !== undefined && httpStatus >= 400 && httpStatus < 500) throw new SmsDeliveryError(`SMS provider refused the message: ${name}`);
          throw new SmsDeliveryError(`SMS provider did not confirm the message: ${name}; if it was sent, its delivery receipt will mark it sent`, true);
        });
      return { providerMessageId: result.MessageId ?? sms.messageId };
    },
  };
}
