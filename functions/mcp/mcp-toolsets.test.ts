import { readFileSync } from 'node:fs';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { routes } from '../resources';
import { CURATED_TOOLS, toolName } from './tools';
import { createApiKey } from '#shared/auth/api-keys';
import { useTestApi } from '../../test/support/api';
import { mcpConnector } from '../../test/support/mcp-client';

/**
 * What an agent's context has to hold of /mcp: the tool list it loads by default, the toolsets it may ask for, one
 * name style, one tool per request, hints that agree with the key's scope, and the context and the call flow offered
 * as a resource and a prompt. Driven by the official MCP SDK client, as Claude, Cursor or a voice platform would.
 */

const api = useTestApi();
/** An MCP client connected (initialized) with this API key, to the tools a `?tools=` query names. */
const connect = mcpConnector(api);

/** tools/list as JSON-RPC over plain HTTP: the answer's bytes as an agent's context receives them. */
async function listedJson(apiKey: string, query = ''): Promise<{ text: string; tools: { name: string; annotations: { readOnlyHint: boolean } }[] }> {
  const res = await fetch(`${api.url}/mcp${query}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, tools: JSON.parse(text).result.tools };
}

const curatedNames = CURATED_TOOLS.map((tool) => tool.name);
/** The route each per-route tool stands for, by the tool's name. */
const routeOfTool = new Map(routes.filter((route) => route.auth !== 'none' && route.path !== '/mcp' && route.aliasOf === undefined && !route.sessionOnly).map((route) => [toolName(route.operationId), route]));

describe('the tool list an agent loads', () => {
  it('is the curated tools by default: at most 40 tools in at most 40 KB of JSON', async () => {
    const { apiKey } = await api.organization();
    const { text, tools } = await listedJson(apiKey);
    expect(tools.map((tool) => tool.name)).toEqual(curatedNames);
    expect(tools.length).toBeLessThanOrEqual(40);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(40 * 1024);
    // The SDK client loads the same list.
    expect((await (await connect(apiKey)).listTools()).tools.map((tool) => tool.name)).toEqual(curatedNames);
  });

  it('is what the README names and the document bounds: the curated tools, each by name, at most 40 in at most 40 KB', async () => {
    const readme = readFileSync('README.md', 'utf8').replace(/\s+/g, ' ');
    const named = /`tools\/list` offers the curated tools for a voice agent: (.*?)\. `log_call`/.exec(readme)?.[1] ?? '';
    expect([...named.matchAll(/`(\w+)`/g)].map(([, name]) => name)).toEqual(curatedNames);
    const document = await api.anonymous.get('/openapi');
    const toolsParameter = document.body.paths['/mcp'].post.parameters.find((parameter: { name: string }) => parameter.name === 'tools');
    expect(toolsParameter.description).toContain('at most 40 in at most 40 KB of JSON');
  });

  it('states free-text rules in words, not the document’s long pattern, and keeps lengths', async () => {
    const { apiKey } = await api.organization();
    const { text, tools } = await listedJson(apiKey, '?tools=all');
    expect(text).not.toContain('u0600-\\\\u0605');
    const createFaq = (tools as any[]).find((tool) => tool.name === 'create_faq');
    expect(createFaq.inputSchema.properties.question).toMatchObject({ type: 'string', maxLength: expect.any(Number), description: expect.stringContaining('Text with a visible character.') });
    expect(createFaq.inputSchema.properties.question.pattern).toBeUndefined();
  });

  it('adds the toolsets ?tools= names: a resource’s tools beside the curated ones, or every tool', async () => {
    const { apiKey } = await api.organization();
    const leads = (await listedJson(apiKey, '?tools=curated,leads')).tools.map((tool) => tool.name);
    const leadTools = [...routeOfTool].filter(([, route]) => route.resource === 'leads').map(([name]) => name);
    expect(leadTools).toContain('update_lead');
    expect(leads.sort()).toEqual([...curatedNames, ...leadTools.filter((name) => !curatedNames.includes(name))].sort());
    expect((await listedJson(apiKey, '?tools=audit_log')).tools.map((tool) => tool.name)).toEqual(['list_audit_log']);
    const all = (await listedJson(apiKey, '?tools=all')).tools;
    expect(all.length).toBeGreaterThan(90);
    // A toolset that does not exist is the API's 400 naming the parameter.
    const refused = await fetch(`${api.url}/mcp?tools=curated,bananas`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).error.details[0].path).toBe('tools');
  });

  it('offers the three reports as read-only tools in the reports toolset, with the recount and its reading, outside the curated ones', async () => {
    const { organizationId, apiKey } = await api.organization();
    const reports = (await listedJson(apiKey, '?tools=reports')).tools;
    expect(reports.map((tool) => [tool.name, tool.annotations.readOnlyHint])).toEqual([
      ['get_report_summary', true],
      ['get_report_timeseries', true],
      ['get_report_funnel', true],
      ['start_report_rebuild', false],
      ['get_report_rebuild', true],
    ]);
    expect(curatedNames.filter((name) => name.includes('report'))).toEqual([]);
    // A key that may only read is offered the reads, and a call answers the report.
    const { token } = await createApiKey(organizationId, null, 'reader', 'read');
    expect((await listedJson(token, '?tools=reports')).tools.map((tool) => tool.name)).toEqual(reports.filter((tool) => tool.annotations.readOnlyHint).map((tool) => tool.name));
    const called = await (await connect(token, '?tools=reports')).callTool({ name: 'get_report_summary', arguments: { from: '2026-03-01', to: '2026-03-31' } });
    expect(called.isError).toBeFalsy();
    expect(JSON.parse((called.content as { text: string }[])[0]!.text).summary).toMatchObject({ from: '2026-03-01', to: '2026-03-31', leads: { created: 0 } });
  });

  it('names every tool in snake_case and offers one tool per request: no PUT and PATCH twins', async () => {
    const { apiKey } = await api.organization();
    const { tools } = await listedJson(apiKey, '?tools=all');
    const names = tools.map((tool) => tool.name);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(new Set(names).size).toBe(names.length);
    // Each path with a tool for PUT has none for PATCH, though both methods answer it.
    const methodsByPath = new Map<string, string[]>();
    for (const name of names.filter((each) => routeOfTool.has(each))) {
      const route = routeOfTool.get(name)!;
      methodsByPath.set(route.path, [...(methodsByPath.get(route.path) ?? []), route.method]);
    }
    const twinned = [...methodsByPath].filter(([, methods]) => methods.includes('PUT') && methods.includes('PATCH'));
    expect(twinned).toEqual([]);
    expect(routes.some((route) => route.aliasOf === 'updateCompany')).toBe(true);
    expect(names).toContain('update_company');
    expect(names).not.toContain('patch_company');
  });

  it('shows a read key exactly the tools marked readOnlyHint, and a full key the others besides', async () => {
    const { organizationId, apiKey } = await api.organization();
    const { token } = await createApiKey(organizationId, null, 'reader', 'read');
    for (const query of ['?tools=all', '']) {
      const every = (await listedJson(apiKey, query)).tools;
      const readOnly = every.filter((tool) => tool.annotations.readOnlyHint).map((tool) => tool.name);
      expect(readOnly.length).toBeGreaterThan(0);
      expect(readOnly.length).toBeLessThan(every.length);
      const seenByReader = (await listedJson(token, query)).tools;
      expect(seenByReader.map((tool) => tool.name).sort()).toEqual(readOnly.sort());
    }
    // resolve_transfer is a POST, which a read key may not send: not read-only, so the hint never promises what the key is refused.
    const resolve = (await listedJson(apiKey)).tools.find((tool) => tool.name === 'resolve_transfer')!;
    expect(resolve.annotations.readOnlyHint).toBe(false);
  });
});

describe('the receptionist context as a resource, the live call as a prompt', () => {
  it('reads receptionist://context as the key’s organization’s context, the same as the REST answer', async () => {
    const a = await api.organization();
    const b = await api.organization();
    await a.client.patch('/v1/organization', { name: 'Northside Plumbing' });
    await b.client.patch('/v1/organization', { name: 'Southside Electrical' });
    await a.client.post('/v1/faqs', { question: 'Are you licensed?', answer: 'Yes.' });
    const mcp = await connect(a.apiKey);
    expect(mcp.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {} });
    const { resources } = await mcp.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: 'receptionist://context', mimeType: 'application/json' })]);
    const { contents } = await mcp.readResource({ uri: 'receptionist://context' });
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({ uri: 'receptionist://context', mimeType: 'application/json' });
    const context = JSON.parse((contents[0] as { text: string }).text);
    expect(context).toEqual((await a.client.get('/v1/receptionist/context')).body);
    expect(context.organization.name).toBe('Northside Plumbing');
    expect(context.faqs.map((faq: { question: string }) => faq.question)).toEqual(['Are you licensed?']);
    const other = JSON.parse(((await (await connect(b.apiKey)).readResource({ uri: 'receptionist://context' })).contents[0] as { text: string }).text);
    expect(other.organization.name).toBe('Southside Electrical');
    expect(other.faqs).toEqual([]);
    await expect(mcp.readResource({ uri: 'receptionist://other' })).rejects.toMatchObject({ code: -32002 });
  });

  it('gets the live_call prompt: the call’s steps naming every curated tool', async () => {
    const { apiKey } = await api.organization();
    const mcp = await connect(apiKey);
    const { prompts } = await mcp.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['live_call']);
    const prompt = await mcp.getPrompt({ name: 'live_call', arguments: { phone: '+61412345001' } });
    expect(prompt.messages).toHaveLength(1);
    const text = (prompt.messages[0]!.content as { type: string; text: string }).text;
    for (const name of curatedNames) expect(text, name).toContain(name);
    expect(text).toContain('lookup_caller with the caller id (+61412345001)');
    expect(text.indexOf('lookup_caller')).toBeLessThan(text.indexOf('log_call'));
    await expect(mcp.getPrompt({ name: 'other' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });
});
