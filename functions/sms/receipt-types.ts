/**
 * The End User Messaging SMS events the configuration set sends to the receipts topic, and the status each
 * means for the message. TEXT_SUCCESSFUL (accepted by the carrier) counts as delivered: depending on the
 * country, carriers report one or the other.
 */
export const RECEIPT_STATUS = {
  TEXT_DELIVERED: 'DELIVERED',
  TEXT_SUCCESSFUL: 'DELIVERED',
  TEXT_BLOCKED: 'FAILED',
  TEXT_CARRIER_BLOCKED: 'FAILED',
  TEXT_CARRIER_UNREACHABLE: 'FAILED',
  TEXT_INVALID: 'FAILED',
  TEXT_INVALID_MESSAGE: 'FAILED',
  TEXT_SPAM: 'FAILED',
  TEXT_TTL_EXPIRED: 'FAILED',
  TEXT_UNREACHABLE: 'FAILED',
  TEXT_UNKNOWN: 'FAILED',
  TEXT_OPTED_OUT: 'FAILED',
} as const;

export const RECEIPT_EVENT_TYPES = Object.keys(RECEIPT_STATUS) as (keyof typeof RECEIPT_STATUS)[];
