import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it, vi } from 'vitest';
import { createApiKey } from '#shared/auth/api-keys';
import { useTestApi, type Client } from '../../test/support/api';
import { created } from '../../test/support/fixtures';

/**
 * POST /mcp used as an AI agent on a live call uses it: the curated receptionist tools and a sample of the per-route
 * tools, called with realistic and slightly wrong arguments. Each result is checked against what tools/list says of the
 * tool (its output schema) and against the REST answer to the same request.
 */

const api = useTestApi();

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, any> };
type ListedTool = { name: string; description: string; inputSchema: Record<string, any>; outputSchema?: Record<string, any> };

/** One JSON-RPC message posted to /mcp (optionally with ?tools=…), as a voice platform's tool call or curl sends it. */
const rpc = (client: Client, message: Record<string, unknown>, query = '') => client.post(`/mcp${query}`, { jsonrpc: '2.0', id: 1, ...message });

async function listTools(client: Client, query = ''): Promise<Map<string, ListedTool>> {
  const res = await rpc(client, { method: 'tools/list' }, query);
  expect(res.status).toBe(200);
  return new Map((res.body.result.tools as ListedTool[]).map((tool) => [tool.name, tool]));
}

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const res = await rpc(client, { method: 'tools/call', params: { name, arguments: args } });
  expect(res.status).toBe(200);
  expect(res.body.error, JSON.stringify(res.body)).toBeUndefined();
  return res.body.result as ToolResult;
}

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/** A successful result: text and structured content the same JSON, which the tool's listed output schema accepts. */
function answerOf(tools: Map<string, ListedTool>, name: string, result: ToolResult): any {
  expect(result.isError ?? false, `${name}: ${result.content[0]?.text}`).toBe(false);
  expect(result.structuredContent, name).toEqual(JSON.parse(result.content[0]!.text));
  const schema = tools.get(name)!.outputSchema;
  if (schema) {
    if (!validators.has(name)) validators.set(name, ajv.compile(schema));
    const validate = validators.get(name)!;
    expect(validate(result.structuredContent), `${name}'s structuredContent against its outputSchema: ${ajv.errorsText(validate.errors)}`).toBe(true);
  }
  return result.structuredContent;
}

/** The API's error envelope a failed tool carries as its text. */
function envelopeOf(result: ToolResult) {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return JSON.parse(result.content[0]!.text).error as { status: number; code?: string; message: string; details?: { path: string; message: string }[] };
}

const day = [{ open: '08:00', close: '17:00' }];
const WEEKDAYS = { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day };
/** A Monday in Sydney (AEDT, +11:00). */
const MONDAY = { from: '2027-01-04T00:00:00+11:00', to: '2027-01-05T00:00:00+11:00' };

/** An organization set up as a plumber's: Sydney hours, a member, a service, a lead who calls, a transfer rule. */
async function plumber() {
  const org = await api.organization();
  const { client } = org;
  await client.patch('/v1/organization', { timezone: 'Australia/Sydney', businessHours: WEEKDAYS });
  const member = (await client.post('/v1/organization/members', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' })).body.member;
  const service = await created(client, '/v1/services', 'service', { name: 'Blocked drain clearing', description: 'Clearing blocked drains', followUpQuestions: [], duration: 60, durationUnit: 'MINUTES', tradeCategoryId: 1, pricingType: 'NONE' });
  const lead = await created(client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', phone: '+61412345001' });
  const transfer = await created(client, '/v1/transfers', 'transfer', { label: 'Office', method: 'WARM', destinationType: 'PHONE_NUMBER', destination: '+61298765432', conditions: 'Any call.', settings: { ignore_business_hours: true } });
  return { ...org, member, service, lead, transfer };
}

describe('the curated receptionist tools on a live call', () => {
  it('answers every curated tool with structured content its output schema accepts, the same as the REST answer', async () => {
    const { client, service, lead, transfer, member } = await plumber();
    const tools = await listTools(client, '?tools=curated');

    const caller = answerOf(tools, 'lookup_caller', await callTool(client, 'lookup_caller', { phone: '+61412345001' }));
    expect(caller).toEqual((await client.get('/v1/callers/%2B61412345001')).body);
    const stranger = answerOf(tools, 'lookup_caller', await callTool(client, 'lookup_caller', { phone: '0499 000 111' }));
    expect(stranger.caller.lead).toBeNull();

    const context = answerOf(tools, 'get_receptionist_context', await callTool(client, 'get_receptionist_context', {}));
    expect(context).toEqual((await client.get('/v1/receptionist/context')).body);

    const { slots } = answerOf(tools, 'find_availability', await callTool(client, 'find_availability', { serviceId: service.id, ...MONDAY }));
    const { hold } = answerOf(tools, 'hold_slot', await callTool(client, 'hold_slot', { serviceId: service.id, startsAt: slots[1].startsAt, leadId: lead.id }));
    const { appointment } = answerOf(tools, 'book_appointment', await callTool(client, 'book_appointment', { leadId: lead.id, holdId: hold.id, notes: 'Kitchen sink.' }));
    expect(appointment.startsAt).toBe(slots[1].startsAt);

    const call = { name: 'Olivia', topic: 'a burst pipe', summary: 'Water everywhere.' };
    const resolved = answerOf(tools, 'resolve_transfer', await callTool(client, 'resolve_transfer', { transferId: transfer.id, ...call }));
    expect(resolved).toEqual((await client.post(`/v1/transfers/${transfer.id}/resolve`, call)).body);

    const found = answerOf(tools, 'search_leads', await callTool(client, 'search_leads', { q: 'Olivia' }));
    expect(found).toEqual((await client.get('/v1/leads?q=Olivia')).body);

    const sms = await callTool(client, 'send_sms', { userId: member.user.id, leadId: lead.id, message: 'See you Monday at 8:15.' });
    const sent = answerOf(tools, 'send_sms', sms).sms as { id: string };
    // The carrier's receipt moves the thread's inquiry (its updatedAt); it lands before the two lookups compared below.
    await vi.waitFor(async () => expect((await client.get(`/v1/sms/${sent.id}`)).body.sms.status).toBe('DELIVERED'), { timeout: 10_000 });

    const logged = answerOf(
      tools,
      'log_call',
      await callTool(client, 'log_call', {
        phone: '+61412345001',
        summary: 'Booked a drain clearing.',
        keyPoints: ['Blocked kitchen drain'],
        transcripts: [{ created_at: '2026-11-24T01:00:00+11:00', text: 'Hi, my drain is blocked.', user: 'user' }],
        direction: 'LEAD_TO_AI',
        duration: 95,
        startedAt: '2026-11-24T01:00:00+11:00',
        endedAt: '2026-11-24T01:01:35+11:00',
        endedBy: 'user',
      }),
    );
    expect(logged.inquiry).toMatchObject({ source: 'CALL', leadId: lead.id });

    // The caller, looked up again, has the booking and the call.
    const after = answerOf(tools, 'lookup_caller', await callTool(client, 'lookup_caller', { phone: '0412 345 001' }));
    expect(after).toEqual((await client.get('/v1/callers/%2B61412345001')).body);
    expect(after.caller.upcomingAppointments.map((each: { id: string }) => each.id)).toContain(appointment.id);
  });

  it('books a first-time caller with curated tools alone: save_caller makes the lead the booking names, once however often it is called', async () => {
    const { client, service } = await plumber();
    const tools = await listTools(client, '?tools=curated');
    expect(tools.get('save_caller')!.inputSchema.required.sort()).toEqual(['name', 'phone']);
    expect(tools.get('save_caller')!.inputSchema.properties.match).toBeUndefined();
    const unknown = answerOf(tools, 'lookup_caller', await callTool(client, 'lookup_caller', { phone: '+61400111222' }));
    expect(unknown.caller.lead).toBeNull();

    const saved = answerOf(tools, 'save_caller', await callTool(client, 'save_caller', { phone: '+61400111222', name: 'Ravi Patel', suburb: 'Marrickville' }));
    expect(saved).toMatchObject({ created: true, lead: { firstName: 'Ravi', lastName: 'Patel', phone: '+61400111222', suburb: 'Marrickville' } });
    // Said again later in the call, it finds the same lead rather than making a second.
    const again = answerOf(tools, 'save_caller', await callTool(client, 'save_caller', { phone: '+61400111222', name: 'Ravi Patel' }));
    expect(again).toMatchObject({ created: false, lead: { id: saved.lead.id } });

    const { slots } = answerOf(tools, 'find_availability', await callTool(client, 'find_availability', { serviceId: service.id, ...MONDAY }));
    const { hold } = answerOf(tools, 'hold_slot', await callTool(client, 'hold_slot', { serviceId: service.id, startsAt: slots[0].startsAt, leadId: saved.lead.id }));
    const { appointment } = answerOf(tools, 'book_appointment', await callTool(client, 'book_appointment', { leadId: saved.lead.id, holdId: hold.id }));
    expect(appointment.leadId).toBe(saved.lead.id);
    expect(answerOf(tools, 'lookup_caller', await callTool(client, 'lookup_caller', { phone: '0400 111 222' })).caller.lead.id).toBe(saved.lead.id);
    // Olivia, the plumber's existing lead, and Ravi.
    expect((await client.get('/v1/leads')).body.totalCount).toBe(2);
  });

  it('holds the slot find_availability answered when the agent gives its start with the organization’s offset', async () => {
    const { client, service, lead } = await plumber();
    const tools = await listTools(client, '?tools=curated');
    const { slots } = answerOf(tools, 'find_availability', await callTool(client, 'find_availability', { serviceId: String(service.id), from: MONDAY.from, to: MONDAY.to }));
    // 08:00 in Sydney on that Monday is 21:00 UTC the day before.
    expect(slots[0].startsAt).toBe('2027-01-03T21:00:00.000Z');
    const { hold } = answerOf(tools, 'hold_slot', await callTool(client, 'hold_slot', { serviceId: service.id, startsAt: '2027-01-04T08:00:00+11:00', leadId: lead.id }));
    const { appointment } = answerOf(tools, 'book_appointment', await callTool(client, 'book_appointment', { leadId: lead.id, holdId: hold.id }));
    expect(appointment.startsAt).toBe('2027-01-03T21:00:00.000Z');
  });

  it('replays a retried book_appointment with the same idempotencyKey instead of booking twice', async () => {
    const { client, service, lead } = await plumber();
    const tools = await listTools(client, '?tools=curated');
    const { slots } = answerOf(tools, 'find_availability', await callTool(client, 'find_availability', { serviceId: service.id, ...MONDAY }));
    const { hold } = answerOf(tools, 'hold_slot', await callTool(client, 'hold_slot', { serviceId: service.id, startsAt: slots[0].startsAt, leadId: lead.id, idempotencyKey: 'call-7-hold' }));
    const again = answerOf(tools, 'hold_slot', await callTool(client, 'hold_slot', { serviceId: service.id, startsAt: slots[0].startsAt, leadId: lead.id, idempotencyKey: 'call-7-hold' }));
    expect(again.hold.id).toBe(hold.id);
    const book = () => callTool(client, 'book_appointment', { leadId: lead.id, holdId: hold.id, idempotencyKey: 'call-7-book' });
    const first = answerOf(tools, 'book_appointment', await book());
    const retried = answerOf(tools, 'book_appointment', await book());
    expect(retried.appointment.id).toBe(first.appointment.id);
    expect((await client.get(`/v1/appointments?leadId=${lead.id}`)).body.appointments.map((each: { id: string }) => each.id)).toEqual([first.appointment.id]);
    // The same key on another tool's request is the API's 409, as an isError result, not the other answer replayed.
    const reused = envelopeOf(await callTool(client, 'hold_slot', { serviceId: service.id, startsAt: slots[8].startsAt, leadId: lead.id, idempotencyKey: 'call-7-book' }));
    expect(reused).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('answers slightly wrong arguments as isError results naming the argument', async () => {
    const { client, service, lead, transfer } = await plumber();
    // A number given as text in a JSON body.
    expect(envelopeOf(await callTool(client, 'hold_slot', { serviceId: String(service.id), startsAt: '2027-01-04T08:00:00+11:00' }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'serviceId' })] });
    // A missing required argument.
    expect(envelopeOf(await callTool(client, 'resolve_transfer', { transferId: transfer.id, name: 'Olivia', topic: 'a leak' }))).toMatchObject({ status: 400, details: [expect.objectContaining({ path: 'summary' })] });
    // An extra argument.
    expect(envelopeOf(await callTool(client, 'find_availability', { serviceId: service.id, date: '2027-01-04' }))).toMatchObject({ status: 400, message: 'date is not an argument of find_availability' });
    // log_call's flat arguments given nested as the REST body.
    expect(envelopeOf(await callTool(client, 'log_call', { lead: { phone: '+61412345001' }, data: { summary: 'A leak.' } }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: expect.arrayContaining([{ path: 'lead', message: 'lead is not an argument of log_call' }]) });
    // createLead's flat fields given nested as a body.
    expect(envelopeOf(await callTool(client, 'create_lead', { body: { name: 'Sam Lee', email: 'sam@example.com' } }))).toMatchObject({ status: 400, message: 'body is not an argument of create_lead' });
    // A date with no offset where the route wants an instant.
    const naive = await callTool(client, 'find_availability', { serviceId: service.id, from: '2027-01-04T08:00:00' });
    expect(envelopeOf(naive)).toMatchObject({ status: 400, details: [expect.objectContaining({ path: 'from' })] });
    // An enum value that is not one.
    expect(envelopeOf(await callTool(client, 'update_lead', { leadId: lead.id, status: 'won' }))).toMatchObject({ status: 400, details: [expect.objectContaining({ path: 'status' })] });
  });

  // README (MCP): a failure is an isError result whose text is the API's error envelope; api-conventions: the envelope
  // names the failing field. book_appointment's input schema requires holdId and takes no startsAt or endsAt.
  it('book_appointment without its required holdId names holdId, not fields the tool does not take', async () => {
    const { client, lead } = await plumber();
    const tools = await listTools(client, '?tools=curated');
    expect(tools.get('book_appointment')!.inputSchema.required).toContain('holdId');
    expect(tools.get('book_appointment')!.inputSchema.properties.startsAt).toBeUndefined();
    const refusal = envelopeOf(await callTool(client, 'book_appointment', { leadId: lead.id }));
    expect(refusal).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: 'holdId is required' });
  });

  // README, MCP: before the request a tool refuses (400, VALIDATION_ERROR naming the argument) what the URL would turn
  // into something else. search_leads' q is text; an array is sent as the text ["Olivia"] and finds no one.
  it('search_leads with q given as a list refuses it naming q, rather than answering that no lead matches', async () => {
    const { client } = await plumber();
    const tools = await listTools(client, '?tools=curated');
    expect(tools.get('search_leads')!.inputSchema.properties.q.type).toBe('string');
    const result = await callTool(client, 'search_leads', { q: ['Olivia'] });
    expect(result.structuredContent?.leads).toBeUndefined();
    expect(envelopeOf(result)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'q' })] });
  });
});

describe('the per-route tools', () => {
  it('answers a sample of per-route tools with structured content their output schemas accept, as REST answers', async () => {
    const { client, lead, service, transfer } = await plumber();
    const tools = await listTools(client, '?tools=all');
    const reads: [string, Record<string, unknown>, string][] = [
      ['get_organization', {}, '/v1/organization'],
      ['list_leads', { limit: '10' }, '/v1/leads?limit=10'],
      ['get_lead', { leadId: lead.id }, `/v1/leads/${lead.id}`],
      ['list_services', {}, '/v1/services'],
      ['get_service', { serviceId: String(service.id) }, `/v1/services/${service.id}`],
      ['list_transfers', {}, '/v1/transfers'],
      ['get_transfer', { transferId: transfer.id }, `/v1/transfers/${transfer.id}`],
      ['list_organization_members', {}, '/v1/organization/members'],
      ['list_appointments', {}, '/v1/appointments'],
      ['list_inquiries', {}, '/v1/inquiries'],
      ['get_receptionist_context', {}, '/v1/receptionist/context'],
    ];
    for (const [name, args, path] of reads) {
      expect(tools.has(name), name).toBe(true);
      expect.soft(answerOf(tools, name, await callTool(client, name, args)), name).toEqual((await client.get(path)).body);
    }
    const company = answerOf(tools, 'create_company', await callTool(client, 'create_company', { name: 'Harbour Strata' }));
    answerOf(tools, 'create_company_note', await callTool(client, 'create_company_note', { companyId: company.company.id, value: 'Call the strata manager first.' }));
    answerOf(tools, 'update_lead', await callTool(client, 'update_lead', { leadId: lead.id, status: 'CONTACTED', suburb: 'Newtown' }));
    const other = answerOf(tools, 'create_lead', await callTool(client, 'create_lead', { name: 'Sam Lee', email: 'sam@example.com', phone: '+61412345002' }));
    const deleted = await callTool(client, 'delete_lead', { leadId: other.lead.id });
    expect(deleted.isError ?? false, deleted.content[0]?.text).toBe(false);
    expect((await client.get(`/v1/leads/${other.lead.id}`)).status).toBe(404);
  });
});

describe('tools/list as each key sees it', () => {
  it('shows a read key only the curated GET tools with ?tools=curated', async () => {
    const { organizationId } = await api.organization();
    const { token } = await createApiKey(organizationId, null, 'reader', 'read');
    const reader = { post: (path: string, body: unknown) => fetch(`${api.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (res) => ({ status: res.status, body: (await res.json()) as any })) };
    const listed = (await reader.post('/mcp?tools=curated', { jsonrpc: '2.0', id: 1, method: 'tools/list' })).body.result.tools.map((tool: { name: string }) => tool.name);
    expect(listed.sort()).toEqual(['find_availability', 'get_receptionist_context', 'lookup_caller', 'search_leads']);
  });

  // README, MCP: the curated tools are for a voice agent, and ?tools=curated lists only those. send_sms requires userId
  // (the member who sends it), which neither its description nor its schema explains, and no curated tool lists members.
  it('send_sms says what its required userId is, so an agent with only the curated tools can supply it', async () => {
    const { client } = await api.organization();
    const sendSms = (await listTools(client, '?tools=curated')).get('send_sms')!;
    expect(sendSms.inputSchema.required).toContain('userId');
    const userId = sendSms.inputSchema.properties.userId;
    expect(userId.description).toBe('The member the SMS is sent as: a member’s `user.id`. The thread keeps who wrote each message.');
    expect(sendSms.description).toContain('userId is the member it is sent as: a member’s user.id (GET /v1/organization/members), as an appointment’s attendees name them.');
  });
});

describe('one organization’s tools never reach another’s records', () => {
  it('answers another organization’s hold, transfer, lead and caller as not found', async () => {
    const a = await plumber();
    const b = await plumber();
    const { slots } = (await a.client.get(`/v1/availability?serviceId=${a.service.id}&from=${encodeURIComponent(MONDAY.from)}&to=${encodeURIComponent(MONDAY.to)}`)).body;
    // Transfer ids count per organization: b has a #1 of its own, and no #2.
    const aOnly = await created(a.client, '/v1/transfers', 'transfer', { label: 'After hours', method: 'COLD', destinationType: 'PHONE_NUMBER', destination: '+61298765000', conditions: 'After hours.' });
    const hold = (await a.client.post('/v1/availability/holds', { serviceId: a.service.id, startsAt: slots[0].startsAt })).body.hold;
    const bTools = await listTools(b.client);
    expect(envelopeOf(await callTool(b.client, 'book_appointment', { leadId: b.lead.id, holdId: hold.id }))).toMatchObject({ status: 404 });
    expect(envelopeOf(await callTool(b.client, 'resolve_transfer', { transferId: aOnly.id, name: 'Olivia', topic: 'a leak', summary: 'Leak.' }))).toMatchObject({ status: 404 });
    expect(envelopeOf(await callTool(b.client, 'send_sms', { userId: a.member.user.id, leadId: a.lead.id, message: 'Hi' }))).toMatchObject({ status: 404 });
    expect(envelopeOf(await callTool(b.client, 'get_lead', { leadId: a.lead.id }))).toMatchObject({ status: 404 });
    // b's own lead has the same phone: lookup_caller answers b's, never a's.
    const caller = answerOf(bTools, 'lookup_caller', await callTool(b.client, 'lookup_caller', { phone: '+61412345001' }));
    expect(caller.caller.lead.id).toBe(b.lead.id);
    // a's hold is still a's to book.
    expect((await a.client.post('/v1/appointments', { leadId: a.lead.id, holdId: hold.id })).status).toBe(201);
  });
});
