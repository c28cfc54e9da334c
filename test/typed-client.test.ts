import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { leadToInquiryFlow, salesPipelineClient } from '../examples/client/flow';
import { assertFetchMatchesDocument } from './support/contract';
import { useTestApi } from './support/api';

const api = useTestApi();

describe('a client generated from docs/openapi.json (openapi-typescript + openapi-fetch)', () => {
  it('drives create lead → list → send SMS → read the inquiry against the API', async () => {
    const { apiKey } = await api.organization({ demo: true });
    const client = salesPipelineClient(api.url, apiKey);
    // The typed client's responses are held to the document like every other test's.
    client.use({ onResponse: ({ request, response }) => assertFetchMatchesDocument(request.method, request.url, response) });

    const { lead, list, sms, inquiry } = await leadToInquiryFlow(client);

    expect(lead).toMatchObject({ firstName: 'Mia', lastName: 'Kelly', status: 'NEW' });
    expect(list.leads.map((listed) => listed.id)).toContain(lead.id);
    expect(sms.message).toEqual(expect.any(String));
    expect(inquiry).toMatchObject({ source: 'SMS', leadId: lead.id });
    if (inquiry.source !== 'SMS') throw new Error('expected an SMS inquiry');
    expect(inquiry.data.messages.at(-1)).toMatchObject({ direction: 'OUTBOUND', body: 'Hi Mia, thanks for your enquiry. Can we call you this afternoon?' });
  });

  // examples/client/README.md: `npm start`, then `npx tsx examples/client/flow.ts http://localhost:3000 <API key>`.
  // A developer runs it again (to watch it, after an edit) against the same server and its demo key.
  it('runs its flow again against the same organization, taking the same lead', async () => {
    const { apiKey } = await api.organization({ demo: true });
    const client = salesPipelineClient(api.url, apiKey);
    await leadToInquiryFlow(client);
    await expect(leadToInquiryFlow(client)).resolves.toMatchObject({ inquiry: { source: 'SMS' } });
  });

  it('has its types generated from the committed document (run npm run client:types)', () => {
    expect(() =>
      execFileSync('npm', ['run', '--silent', 'types', '--prefix', 'examples/client', '--', '--check'], { stdio: 'pipe', encoding: 'utf8' }),
    ).not.toThrow();
  });
});
