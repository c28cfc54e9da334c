import { randomUUID } from 'node:crypto';
import type { SNSEvent } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { dynamo } from '#shared/dynamo';
import { logger } from '#shared/observability';
import { useTestApi, type Client } from '../../test/support/api';
import { created } from '../../test/support/fixtures';
import { onlyRunOf, sentFor, sydneyAutomations } from '../../test/support/automations';
import { handler as inboundHandler } from './inbound';

/**
 * A text to the organization's number from a phone no lead has: a new customer, made a lead with its first inquiry as
 * a form or a call makes one, through `npm start`'s simulator (the deployed inbound function's code), with the stream's
 * events and the automations they start on the clock the test moves.
 */
const api = useTestApi({ events: true, clock: 'manual' });
const { sydneyOrganization, settled, untilLocal } = sydneyAutomations(api);

const post = (from: string, to: string, body: string, inboundMessageId: string) =>
  fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from, to, body, inboundMessageId }) });

/** A text as the provider delivers it; the same `inboundMessageId` is the same message delivered again. */
async function text(from: string, to: string, body: string, inboundMessageId = randomUUID()) {
  const res = await post(from, to, body, inboundMessageId);
  expect(res.status).toBe(202);
  expect(await res.json()).toEqual({ received: true });
}

const leadsWithPhone = async (client: Client, phone: string) => (await client.get(`/v1/leads?phone=${encodeURIComponent(phone)}`)).body;
const inquiriesOf = async (client: Client, leadId: string) => (await client.get(`/v1/inquiries?leadId=${leadId}&limit=100`)).body;
const messagesOf = async (client: Client, inquiryId: string) => (await client.get(`/v1/inquiries/${inquiryId}`)).body.data.messages as Array<Record<string, unknown>>;
/** The organization's events, oldest first. */
const eventsOf = async (client: Client) => ((await client.get('/v1/events?limit=100')).body.events as Array<{ type: string; data: Record<string, unknown> }>).reverse();

describe('a text from a phone no lead has', () => {
  it('makes a new lead with that phone and no name, an unread SMS inquiry that is its first, the text in its thread, and lead.created, inquiry.created and sms.received', async () => {
    const { client, number } = await sydneyOrganization();
    const body = 'Hi, can you quote for a blocked drain in Newtown this week?';
    await text('+61412555101', number, body);
    await settled();

    const { leads, totalCount } = await leadsWithPhone(client, '+61412555101');
    expect(totalCount).toBe(1);
    const [lead] = leads;
    expect(lead).toMatchObject({ phone: '+61412555101', firstName: null, lastName: null, email: null, status: 'NEW', unreadSMS: 1, smsOptedOut: false });
    const { inquiries } = await inquiriesOf(client, lead.id);
    expect(inquiries).toEqual([
      expect.objectContaining({ source: 'SMS', tag: 'GENERAL', isFirstInquiry: true, isRead: false, leadId: lead.id, summary: `Inbound SMS: ${body}`, sourceId: expect.stringMatching(/^thread_/) }),
    ]);
    expect(lead).toMatchObject({ lastInquiryId: inquiries[0].id, lastInquiryDate: inquiries[0].createdAt });
    const inquiry = (await client.get(`/v1/inquiries/${inquiries[0].id}`)).body;
    expect(inquiry.data.leadPhone).toBe('+61412555101');
    expect(inquiry.data.messages).toEqual([expect.objectContaining({ direction: 'INBOUND', status: 'RECEIVED', body, userId: null })]);
    expect((await client.get(`/v1/leads/${lead.id}/activities`)).body.activities).toMatchObject([{ event: 'LEAD_CREATED', data: 'Lead created from an SMS' }]);

    // The events a form's or a call's new lead raises, and the text's own: no more, in the order they happened.
    const events = await eventsOf(client);
    expect(events.map(({ type }) => type)).toEqual(['lead.created', 'inquiry.created', 'sms.received']);
    expect(events[0]!.data).toMatchObject({ id: lead.id, phone: '+61412555101', firstName: null });
    expect(events[1]!.data).toMatchObject({ id: inquiries[0].id, source: 'SMS', isFirstInquiry: true, leadId: lead.id });
    expect(events[2]!.data).toMatchObject({ id: inquiry.data.messages[0].id, direction: 'INBOUND', body, leadId: lead.id, inquiryId: inquiries[0].id });
  });

  it('is answered by an inquiry.created and a lead.created automation: each texts the new lead its instant reply, which the text that started it does not stop', async () => {
    const { client, organizationId, number } = await sydneyOrganization();
    const onInquiry = await created(client, '/v1/automations', 'automation', {
      name: 'Text instant reply',
      trigger: { event: 'inquiry.created', filter: { source: 'SMS' } },
      // As the recipes have it: a reply ends the run. The first text is what started it, not a reply to it.
      stopWhen: ['lead.replied'],
      steps: [{ type: 'send_sms', template: 'Thanks {{lead.firstName|there}}, we got your message and will call you back today.' }],
    });
    const onLead = await created(client, '/v1/automations', 'automation', {
      name: 'Welcome',
      trigger: { event: 'lead.created' },
      steps: [{ type: 'send_sms', template: 'Welcome to {{organization.name}}.' }],
    });
    await untilLocal('10:00');
    await text('+61412555102', number, 'Do you do hot water systems?');
    await settled();

    const [lead] = (await leadsWithPhone(client, '+61412555102')).leads;
    expect(sentFor(organizationId).map(({ to, body }) => ({ to, body })).sort((a, b) => a.body.localeCompare(b.body))).toEqual([
      { to: '+61412555102', body: 'Thanks there, we got your message and will call you back today.' },
      { to: '+61412555102', body: expect.stringMatching(/^Welcome to /) },
    ]);
    expect(await onlyRunOf(client, onInquiry.id)).toMatchObject({ leadId: lead.id, status: 'COMPLETED' });
    expect(await onlyRunOf(client, onLead.id)).toMatchObject({ leadId: lead.id, status: 'COMPLETED' });
  });

  it('only opts the phone out when it is STOP or another opt-out keyword: no lead, no inquiry, no event; a text after it makes a lead that starts opted out', async () => {
    const { client, number } = await sydneyOrganization();
    await text('+61412555103', number, 'STOP');
    await text('+61412555104', number, 'Stop please call me');
    await text('+61412555105', number, 'unsubscribe');
    await settled();
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
    expect(await eventsOf(client)).toEqual([]);
    for (const phone of ['+61412555103', '+61412555104', '+61412555105']) {
      expect([phone, (await client.get(`/v1/callers/${encodeURIComponent(phone)}`)).body.caller]).toEqual([phone, expect.objectContaining({ lead: null, smsOptedOut: true })]);
    }

    await text('+61412555103', number, 'Actually, yes: can someone come Friday?');
    const [lead] = (await leadsWithPhone(client, '+61412555103')).leads;
    expect(lead).toMatchObject({ phone: '+61412555103', smsOptedOut: true, unreadSMS: 1 });
    expect((await inquiriesOf(client, lead.id)).inquiries).toMatchObject([{ source: 'SMS', isFirstInquiry: true }]);
  });

  it('makes no lead of START or another opt-in keyword: the phone alone is opted in, no inquiry, no event', async () => {
    const { client, number } = await sydneyOrganization();
    await text('+61412555111', number, 'STOP');
    await text('+61412555111', number, 'START');
    await text('+61412555112', number, 'Unstop');
    await text('+61412555113', number, 'subscribe me again');
    await settled();
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
    expect(await eventsOf(client)).toEqual([]);
    for (const phone of ['+61412555111', '+61412555112', '+61412555113']) {
      expect([phone, (await client.get(`/v1/callers/${encodeURIComponent(phone)}`)).body.caller]).toEqual([phone, expect.objectContaining({ lead: null, smsOptedOut: false })]);
    }
    // A word that only begins like one is a text: it makes the lead.
    await text('+61412555114', number, 'Starting a renovation, can you quote?');
    expect((await leadsWithPhone(client, '+61412555114')).totalCount).toBe(1);
  });

  it('makes no lead of a sender the provider names in no E.164 form (a national number, a short code, a name)', async () => {
    const { client, number } = await sydneyOrganization();
    // As End User Messaging publishes a reply, below the simulator (which puts any phone it takes in E.164 first).
    const provider = (from: string) =>
      inboundHandler({ Records: [{ Sns: { MessageId: randomUUID(), Timestamp: new Date(api.clock.now()).toISOString(), Message: JSON.stringify({ originationNumber: from, destinationNumber: number, messageBody: 'Hi, can you quote for a new hot water system?', inboundMessageId: randomUUID() }) } }] } as SNSEvent);
    for (const from of ['0412555115', '61412555115', '+61 412 555 115', '78910', 'ACMEPLUMB', '']) await provider(from);
    await settled();
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
    // The same message from a sender in E.164 makes its lead.
    await provider('+61412555115');
    expect((await leadsWithPhone(client, '+61412555115')).totalCount).toBe(1);
  });

  it('records a text the provider delivers again, at once and later, once: one lead, one inquiry, one message, one event of each type', async () => {
    const { client, number } = await sydneyOrganization();
    const inboundMessageId = randomUUID();
    await Promise.all([1, 2, 3].map(() => text('+61412555106', number, 'Is this the plumber?', inboundMessageId)));
    await text('+61412555106', number, 'Is this the plumber?', inboundMessageId);
    await settled();

    const { leads, totalCount } = await leadsWithPhone(client, '+61412555106');
    expect(totalCount).toBe(1);
    const { inquiries } = await inquiriesOf(client, leads[0].id);
    expect(inquiries).toHaveLength(1);
    expect((await messagesOf(client, inquiries[0].id)).map(({ body }) => body)).toEqual(['Is this the plumber?']);
    expect(leads[0].unreadSMS).toBe(1);
    expect((await eventsOf(client)).map(({ type }) => type)).toEqual(['lead.created', 'inquiry.created', 'sms.received']);
  });

  it('writes the lead, its inquiry and the text together or not at all: a write that fails leaves nothing, and the provider’s redelivery records them all', async () => {
    const { client, number } = await sydneyOrganization();
    let failures = 0;
    // The first write that holds the text fails, as a throttled table would: had the lead been written apart from its
    // inquiry, it would be left without one.
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const write = ['PutItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand'].includes(context.commandName ?? '');
        if (failures === 0 && write && JSON.stringify(args.input).includes('Can you fix a leaking roof?')) {
          failures++;
          throw Object.assign(new Error('Throughput exceeds the current capacity of your table'), { name: 'ProvisionedThroughputExceededException' });
        }
        return next(args);
      },
      { step: 'initialize', name: 'failTheFirstText' },
    );
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const inboundMessageId = randomUUID();
    try {
      expect((await post('+61412555108', number, 'Can you fix a leaking roof?', inboundMessageId)).status).toBe(500);
    } finally {
      dynamo.middlewareStack.remove('failTheFirstText');
      vi.mocked(logger.error).mockRestore();
    }
    await settled();
    expect(failures).toBe(1);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
    expect(await eventsOf(client)).toEqual([]);

    // SNS delivers again after a failure; the redelivery is not taken for a repeat of a recorded text.
    await text('+61412555108', number, 'Can you fix a leaking roof?', inboundMessageId);
    await settled();
    const { leads } = await leadsWithPhone(client, '+61412555108');
    expect(leads).toMatchObject([{ phone: '+61412555108', unreadSMS: 1 }]);
    const { inquiries } = await inquiriesOf(client, leads[0].id);
    expect(inquiries).toMatchObject([{ source: 'SMS', isFirstInquiry: true }]);
    expect((await messagesOf(client, inquiries[0].id)).map(({ body }) => body)).toEqual(['Can you fix a leaking roof?']);
    expect((await eventsOf(client)).map(({ type }) => type)).toEqual(['lead.created', 'inquiry.created', 'sms.received']);
  });

  it('makes one lead of two different first texts from one phone at once: its one inquiry holds both', async () => {
    const { client, number } = await sydneyOrganization();
    await Promise.all([text('+61412555107', number, 'Hi, I need an electrician'), text('+61412555107', number, 'for a power point in the kitchen')]);
    await settled();

    const { leads, totalCount } = await leadsWithPhone(client, '+61412555107');
    expect(totalCount).toBe(1);
    const { inquiries } = await inquiriesOf(client, leads[0].id);
    expect(inquiries).toMatchObject([{ source: 'SMS', isFirstInquiry: true }]);
    expect((await messagesOf(client, inquiries[0].id)).map(({ body }) => body).sort()).toEqual(['Hi, I need an electrician', 'for a power point in the kitchen']);
    expect(leads[0].unreadSMS).toBe(1);
    expect((await eventsOf(client)).filter(({ type }) => type === 'lead.created')).toHaveLength(1);
  });
});
