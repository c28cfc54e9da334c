import { lead } from '../leads/examples';

/** The event's example in the OpenAPI document (see functions/leads/examples.ts). */
export const EVENT_ID = 'evt_01JCZ59Q4R5S6T7V8W9X0Y1Z2A';

export const event = { id: EVENT_ID, type: 'lead.created', occurredAt: '2026-11-02T21:14:09.000Z', organizationId: 'org_01JA0000000000000000000000', data: lead };
