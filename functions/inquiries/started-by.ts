/**
 * Who started an inquiry: the lead (a text, a call, a form, an email, a chat), or the organization — a thread opened
 * by a member's or an automation's text (`startedBy` on the item, ./store.ts), or a call its agent made to the lead.
 * One rule, read two ways: on an item (the reports' counts) and by DynamoDB (GET /v1/inquiries?startedBy).
 */
export const INQUIRY_STARTERS = ['LEAD', 'BUSINESS'] as const;
export type InquiryStarter = (typeof INQUIRY_STARTERS)[number];

/** Whether the lead started this INQUIRY item. */
export const startedByLead = (inquiry: Record<string, unknown>): boolean => inquiry.startedBy === undefined && !(inquiry.source === 'CALL' && inquiry.callDirection === 'AI_TO_LEAD');

const byLead = 'attribute_not_exists(#startedBy) AND NOT (#source = :call AND #callDirection = :agentCalled)';

/** The same rule as a Query's FilterExpression, for each starter. */
export const startedByFilter = (starter: InquiryStarter) => ({
  expression: starter === 'LEAD' ? byLead : `NOT (${byLead})`,
  names: { '#startedBy': 'startedBy', '#source': 'source', '#callDirection': 'callDirection' },
  values: { ':call': 'CALL', ':agentCalled': 'AI_TO_LEAD' },
});
