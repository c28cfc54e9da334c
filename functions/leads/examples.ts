import { LEAD_ID } from './example';

/**
 * Examples of the lead's components in the OpenAPI document, drawn from the demo organization with fixed ids and
 * dates so the document does not change from run to run; the OpenAPI tests validate each against its schema.
 */
export { LEAD_ID, lead } from './example';

export const leadActivity = {
  id: 1,
  event: 'LEAD_CREATED',
  data: 'Lead Olivia Nguyen created',
  referenceId: null,
  userId: null,
  leadId: LEAD_ID,
  createdAt: '2026-11-20T04:12:09.512Z',
  updatedAt: '2026-11-20T04:12:09.512Z',
};
