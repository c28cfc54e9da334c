import { describe, expect, it, vi } from 'vitest';
import { useTestApi } from './support/api';
import { requestWithHost } from './support/host-header';
import { startReceiver } from './support/receiver';

/**
 * The functions as deployed: the local server gives them neither its address nor the request's Host, so every URL they
 * name or call is PUBLIC_BASE_URL's (shared/http/base-url.ts). Each request names a Host a caller chose.
 */
const api = useTestApi({ asDeployed: true });
const HOSTILE = 'attacker.example';

describe('without PUBLIC_BASE_URL', () => {
  // First in the file: the setting is kept once read.
  it('fails loudly, naming the setting, rather than build a URL from the Host', async () => {
    const { client } = await api.organization();
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args) => void errors.push(args.map(String).join(' ')));
    try {
      const document = await requestWithHost(`${api.url}/openapi`, HOSTILE);
      const created = await client.post('/v1/inbound-endpoints', { name: 'Website contact form', source: 'WEBFORM' });
      expect([document.status, created.status]).toEqual([500, 500]);
      expect(created.body.error).toMatchObject({ code: 'INTERNAL_ERROR', message: 'Internal server error' });
    } finally {
      spy.mockRestore();
    }
    expect(errors.join('\n')).toContain('Missing required environment variable PUBLIC_BASE_URL');
  });
});

describe('with PUBLIC_BASE_URL', () => {
  // The API's address as its stack would set it: here the local server's own, so a tool call has an API to reach.
  const configured = () => {
    process.env.PUBLIC_BASE_URL = api.url;
    return api.url;
  };

  it('names it in the URL of a new or rotated inbound endpoint, whatever Host the request named', async () => {
    const base = configured();
    const { apiKey } = await api.organization();
    const headers = { authorization: `Bearer ${apiKey}` };
    const created = await requestWithHost(`${api.url}/v1/inbound-endpoints`, HOSTILE, { method: 'POST', headers, body: { name: 'Website contact form', source: 'WEBFORM' } });
    expect(created.status).toBe(201);
    const { id, url } = created.body.inboundEndpoint;
    expect(url).toMatch(new RegExp(`^${base}/v1/inbound/${id}\\?token=`));
    const rotated = await requestWithHost(`${api.url}/v1/inbound-endpoints/${id}/rotate`, HOSTILE, { method: 'POST', headers });
    expect(rotated.status).toBe(200);
    expect(rotated.body.inboundEndpoint.url).toMatch(new RegExp(`^${base}/v1/inbound/${id}\\?token=`));
    expect(rotated.body.inboundEndpoint.url).not.toBe(url);
  });

  it('names it as the document’s server, whatever Host the request named', async () => {
    const base = configured();
    for (const host of [HOSTILE, '169.254.169.254']) {
      const document = await requestWithHost(`${api.url}/openapi`, host);
      expect(document.status).toBe(200);
      expect(document.body.servers[0].variables.base_url.default, host).toBe(base);
      expect(JSON.stringify(document.body.servers), host).not.toContain(host);
    }
  });

  it('sends a tool call there, never to the Host the /mcp request named', async () => {
    configured();
    const { client, apiKey } = await api.organization();
    const lead = (await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com' })).body.lead;
    const receiver = await startReceiver();
    try {
      for (const [id, host] of [new URL(receiver.url).host, '169.254.169.254'].entries()) {
        const answer = await requestWithHost(`${api.url}/mcp`, host, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}` },
          body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_lead', arguments: { leadId: lead.id } } },
        });
        const read = (await client.get(`/v1/leads/${lead.id}`)).body;
        expect(answer.body, host).toEqual({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(read) }], structuredContent: read } });
      }
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
