import * as v from 'valibot';
import { batchGetItems } from '#shared/store/batch-get';
import { leadKeys, withLeadDefaults } from './entity';
import { LeadSummary } from './summaries';

const FIELDS = Object.keys(LeadSummary.entries);

/** The leads a page names, in one BatchGetItem (a page names at most 100): a lead deleted since is absent. */
export async function readLeadSummaries(organizationId: string, leadIds: readonly string[]): Promise<Map<string, LeadSummary>> {
  const items = await batchGetItems(
    [...new Set(leadIds)].map((leadId) => leadKeys.lead(organizationId, leadId)),
    { attributes: FIELDS },
  );
  return new Map(items.map((item) => v.parse(LeadSummary, withLeadDefaults(item))).map((lead) => [lead.id, lead]));
}
