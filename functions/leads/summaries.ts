import * as v from 'valibot';

/** A lead as a list of other records shows it beside each (`expand=lead`): who they are and how to reach them. */
export const LeadSummary = v.object({
  id: v.string(),
  firstName: v.nullable(v.string()),
  lastName: v.nullable(v.string()),
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  businessName: v.nullable(v.string()),
});
export type LeadSummary = v.InferOutput<typeof LeadSummary>;
