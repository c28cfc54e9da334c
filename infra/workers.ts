/** The handlers of the events stack's functions, below functions/: what runs on a stream, a queue or a topic rather than a route. */
export const WORKER_HANDLERS = {
  /** The table's stream: events recorded and handed to webhook subscriptions. */
  recordEvents: 'stream/record',
  /** The webhook delivery queue. */
  deliverWebhooks: 'webhooks/deliver',
  /** SMS delivery receipts from the configuration set's topic. */
  smsReceipts: 'sms/receipt',
  /** Replies from leads from the numbers' two-way topic. */
  inboundSms: 'sms/inbound',
} as const;
