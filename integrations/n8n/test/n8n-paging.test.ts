import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../../test/support/api';
import { runAction } from './n8n-host';

// No stream consumer: paging reads what the creates wrote, and the hundred creates meet DynamoDB Local without the
// stream's ten lanes writing their events and audit entries beside them (on two busy cores those held writes past
// their timeout, and the creates past the test's).
const api = useTestApi();

describe('the action node, run by n8n-core', () => {
  it('returns every page with Return All, following the cursor, and one page of Limit without it', async () => {
    const { client: other, apiKey } = await api.organization();
    // More than the 100 a page holds, so Return All takes two
    const names = Array.from({ length: 103 }, (_, index) => `Paged Lead${index}`);
    for (let start = 0; start < names.length; start += 8) {
      await Promise.all(names.slice(start, start + 8).map(async (name, index) => expect((await other.post('/v1/leads', { name, email: `paged${start + index}@example.com` })).status).toBe(201)));
    }
    const all = await runAction({ apiKey, baseUrl: api.url }, { resource: 'leads', operation: 'listLeads', returnAll: true });
    expect(all.error).toBeUndefined();
    expect(all.items.map((item) => `${item.firstName} ${item.lastName}`).sort()).toEqual([...names].sort());
    const some = await runAction({ apiKey, baseUrl: api.url }, { resource: 'leads', operation: 'listLeads', returnAll: false, limit: 5 });
    expect(some.items).toHaveLength(5);
  });
});
