import { useEffect, useState } from 'preact/hooks';
import { answer, api } from '../api';
import { leadName } from '../format';

/** Names already read, for this page's life: lists of runs give lead ids only. */
const known = new Map<string, string>();

/**
 * The names of the leads given, read one GET each for those not yet known; a lead that cannot be read is "A lead".
 * TODO(api): runs carry a leadId alone; a lead's name on each run (or ?expand=lead, as inquiries have) would save these reads.
 */
export function useLeadNames(ids: string[]): (id: string) => string {
  const [, rendered] = useState(0);
  const missing = [...new Set(ids)].filter((id) => !known.has(id));
  const wanted = missing.join(',');
  useEffect(() => {
    if (!missing.length) return;
    const controller = new AbortController();
    void Promise.all(
      missing.map((id) =>
        answer(api.GET('/v1/leads/{leadId}', { params: { path: { leadId: id } }, signal: controller.signal })).then(
          ({ lead }) => known.set(id, leadName(lead)),
          () => controller.signal.aborted || known.set(id, 'A lead'),
        ),
      ),
    ).then(() => controller.signal.aborted || rendered((n) => n + 1));
    return () => controller.abort();
  }, [wanted]);
  return (id) => known.get(id) ?? 'A lead';
}
