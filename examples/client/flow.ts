import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

export type SalesPipelineClient = Client<paths>;

/** A client typed from docs/openapi.json: paths, parameters, bodies and answers are all checked by tsc. */
export function salesPipelineClient(baseUrl: string, apiKey: string): SalesPipelineClient {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
}

function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(`${what} answered ${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}

/**
 * Creates a lead (an upsert by email, so running it again takes the same lead), finds it in the list, texts it, and
 * reads the SMS inquiry that holds the text.
 */
export async function leadToInquiryFlow(client: SalesPipelineClient) {
  const { lead } = ok(
    await client.POST('/v1/leads/upsert', { body: { match: 'email', name: 'Mia Kelly', email: 'mia.kelly@example.com.au', phone: '+61412345099', suburb: 'Leichhardt' } }),
    'POST /v1/leads/upsert',
  );
  const list = ok(await client.GET('/v1/leads', { params: { query: { page: 1, limit: 10 } } }), 'GET /v1/leads');

  const { members } = ok(await client.GET('/v1/organization/members', { params: { query: { limit: 1 } } }), 'GET /v1/organization/members');
  const sender = members[0];
  if (!sender) throw new Error('The organization has no member to send the SMS from');
  const sms = ok(
    await client.POST('/v1/sms', { body: { userId: sender.user.id, leadId: lead.id, message: 'Hi Mia, thanks for your enquiry. Can we call you this afternoon?' } }),
    'POST /v1/sms',
  );

  const { inquiries } = ok(await client.GET('/v1/inquiries', { params: { query: { leadId: lead.id, source: 'SMS' } } }), 'GET /v1/inquiries');
  const listed = inquiries[0];
  if (!listed) throw new Error(`No SMS inquiry for lead ${lead.id}`);
  const inquiry = ok(await client.GET('/v1/inquiries/{inquiryId}', { params: { path: { inquiryId: listed.id } } }), 'GET /v1/inquiries/{inquiryId}');
  return { lead, list, sms, inquiry };
}

// `npx tsx examples/client/flow.ts <base URL> <API key>` runs it against a running API (npm start prints both).
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [baseUrl = 'http://localhost:3000', apiKey = process.env.API_KEY ?? ''] = process.argv.slice(2);
  const { lead, inquiry } = await leadToInquiryFlow(salesPipelineClient(baseUrl, apiKey));
  console.log(`Lead ${lead.id} texted; inquiry ${inquiry.id} (${inquiry.source}) holds ${inquiry.source === 'SMS' ? inquiry.data.messages.length : 0} message(s).`);
}
