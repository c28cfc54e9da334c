import type { Capability } from '#shared/routes/route';

/** The SMS configuration set's name: the events stack makes it, and the SMS-sending functions name it, with no cross-stack reference. */
export const smsConfigurationSetName = (tableName: string) => `${tableName}-sms`;

/** Where an SMS may leave from: the account's numbers, pools and sender ids. */
const ORIGINS = ['phone-number', 'pool', 'sender-id'] as const;

/**
 * Sending SMS through AWS End User Messaging SMS: the provider's settings with the events stack's configuration set, and
 * SendTextMessage through that set from the account's numbers, pools and sender ids.
 */
export const smsSender: Capability = {
  name: 'smsSender',
  reachesOutside: true,
  environment: ({ tableName, setting }) => {
    const origination = setting('smsOriginationIdentity');
    return { SMS_PROVIDER: 'end-user-messaging', SMS_CONFIGURATION_SET: smsConfigurationSetName(tableName), ...(origination ? { SMS_ORIGINATION_IDENTITY: origination } : {}) };
  },
  statements: ({ partition, region, account, tableName }) => {
    const arn = (resource: string) => `arn:${partition}:sms-voice:${region}:${account}:${resource}`;
    return [{ actions: ['sms-voice:SendTextMessage'], resources: [arn(`configuration-set/${smsConfigurationSetName(tableName)}`), ...ORIGINS.map((origin) => arn(`${origin}/*`))] }];
  },
  wildcardReason: 'Which number, pool or sender id an SMS leaves from is the account’s End User Messaging setup (smsOriginationIdentity), not the stack’s.',
};
