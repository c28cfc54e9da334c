import * as v from 'valibot';

/**
 * A lead as a list of other records shows it beside each (`expand=lead`): who they are, how to reach them and who
 * of the organization looks after them (an inbox shows whose conversation it is).
 */
export const LeadSummary = v.object({
  id: v.string(),
  firstName: v.nullable(v.string()),
  lastName: v.nullable(v.string()),
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  businessName: v.nullable(v.string()),
  assignedMemberId: v.nullable(v.pipe(v.number(), v.integer())),
});
export type LeadSummary = v.InferOutput<typeof LeadSummary>;
