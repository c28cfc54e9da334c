import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../functions/events/types';
import { resources } from '../../functions/resources';
import { useTestApi } from '../../test/support/api';
import { startReceiver, type Receiver } from '../../test/support/receiver';
import { createMember } from '../../functions/organization/member-rules';
import { generatedContent, GENERATED_FILE } from './generate';

/**
 * The Zapier app as Zapier runs it: zapier-platform-core's own app tester runs its authentication test, triggers,
 * creates and searches in process against the local API, and zapier-platform-schema validates its definition.
 */

const require = createRequire(import.meta.url);
const app = require('./index.js');
const zapier = require('zapier-platform-core');
const { validateAppDefinition } = require('zapier-platform-schema');
const { compileApp } = require('zapier-platform-core/src/tools/schema');
const { recurseCleanFuncs } = require('zapier-platform-core/src/tools/cleaner');
const generated = JSON.parse(readFileSync(GENERATED_FILE, 'utf8'));

const api = useTestApi({ events: true });
/** An organization with a member to send SMS as, and a lead with this phone. */
async function organizationWithSender(phone: string) {
  const { apiKey, client, organizationId } = await api.organization();
  const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com.au' });
  const lead = (await client.post('/v1/leads', { name: 'Olivia Nguyen', phone })).body.lead;
  return { apiKey, client, userId: member.user.id as string, leadId: lead.id as string };
}
/** What Zapier shows of an error an operation threw: zapier-platform-core's AppError carries its message, code and status as JSON. */
const shown = (error: Error) => JSON.parse(error.message);
const appTester = zapier.createAppTester(app);

/** What Zapier stores of a connected account: the API's base URL, as a user might type it, and the key. */
const authOf = (apiKey: string) => ({ baseUrl: `${api.url}/v1/`, apiKey });
/** Runs an operation of the app as Zapier does, with this account and input. */
const run = (operation: unknown, apiKey: string, bundle: Record<string, unknown> = {}): Promise<any> => appTester(operation, { authData: authOf(apiKey), ...bundle });

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe('the app’s definition', () => {
  it('is what the route table and the event types generate now (npm run generate writes it)', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(generatedContent());
  });

  it('offers what the resources declare, every event type by a trigger, and nothing of a resource that declares nothing', () => {
    const declared = (kind: 'triggers' | 'creates' | 'searches') => resources.flatMap((resource) => resource.zapier?.[kind] ?? []).map(({ key }) => key);
    for (const kind of ['triggers', 'creates', 'searches'] as const) expect(generated[kind].map(({ key }: { key: string }) => key)).toEqual(declared(kind));
    expect(resources.filter((resource) => resource.zapier).map(({ name }) => name)).toEqual(['leads', 'inquiries', 'sms', 'appointments', 'events']);
    const triggered = new Set(generated.triggers.flatMap((trigger: { eventType?: string; eventTypes?: string[] }) => trigger.eventTypes ?? [trigger.eventType]));
    expect(EVENT_TYPES.filter((type) => !triggered.has(type))).toEqual([]);
    // The named triggers integrators ask for, each on its event type.
    expect(Object.fromEntries(generated.triggers.map((trigger: { key: string; eventType?: string }) => [trigger.key, trigger.eventType ?? 'chosen']))).toEqual({
      new_lead: 'lead.created',
      new_inquiry: 'inquiry.created',
      lead_status_changed: 'lead.updated',
      appointment_booked: 'appointment.created',
      appointment_cancelled: 'appointment.updated',
      missed_call: 'inquiry.created',
      sms_received: 'sms.received',
      new_event: 'chosen',
    });
  });

  it('is valid by zapier-platform-schema: zero errors', () => {
    const { errors } = validateAppDefinition(recurseCleanFuncs(compileApp(app)));
    expect(errors.map((error: { property: string; message: string }) => `${error.property} ${error.message}`)).toEqual([]);
    expect(Object.keys(app.creates)).toEqual(['create_lead', 'upsert_lead', 'update_lead', 'add_note', 'log_call', 'send_sms', 'book_appointment']);
    expect(app.platformVersion).toBe(zapier.version);
    // What Zapier's publishing checks add to the schema: a sample for each operation, with an id where Zapier deduplicates.
    const operations = [...Object.values(app.triggers), ...Object.values(app.searches), ...Object.values(app.creates)] as { key: string; operation: { sample?: { id?: unknown } } }[];
    expect(operations.filter(({ operation }) => operation.sample?.id === undefined).map(({ key }) => key)).toEqual([]);
  });

  it('has the test script `zapier-platform test` runs (this file, by the repository’s vitest), and the docs name the CLI’s binary', () => {
    const { scripts } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
    expect(scripts?.test).toBe('cd ../.. && vitest run integrations/zapier --maxWorkers=1');
    // zapier-platform-cli 19 ships one binary, zapier-platform: `npx -p zapier-platform-cli zapier …` finds none.
    for (const [file, count] of [['README.md', 1], ['docs/integrations-zapier.md', 3]] as const) {
      const commands = [...readFileSync(file, 'utf8').matchAll(/npx -p zapier-platform-cli (\S+)/g)].map((match) => match[1]);
      expect(commands, file).toHaveLength(count);
      expect(commands.filter((binary) => binary !== 'zapier-platform'), file).toEqual([]);
    }
  });
});

describe('authentication', () => {
  it('tests the key by reading the organization, labelled by its name; a wrong key fails with the API’s message', async () => {
    const { apiKey, organizationId } = await api.organization();
    const organization = await run(app.authentication.test, apiKey);
    expect(organization).toMatchObject({ id: organizationId });
    expect(await run(app.authentication.connectionLabel, apiKey, { inputData: organization })).toBe(organization.name);
    const refused = await run(app.authentication.test, `${apiKey}x`).catch(shown);
    expect(refused).toEqual({ message: 'Invalid or expired token', code: 'HTTP_401', status: 401 });
  });
});

describe('creates', () => {
  it('creates a lead, then creates or updates it by phone (created: false), and updates it by id', async () => {
    const { apiKey, client } = await api.organization();
    const lead = await run(app.creates.create_lead.operation.perform, apiKey, { inputData: { name: 'Olivia Nguyen', phone: '0412 345 001', status: 'NEW', value: '4500' } });
    expect(lead).toMatchObject({ firstName: 'Olivia', lastName: 'Nguyen', phone: '+61412345001', status: 'NEW', value: 4500 });

    const upserted = await run(app.creates.upsert_lead.operation.perform, apiKey, { inputData: { match: 'phone', phone: '+61412345001', suburb: 'Parramatta' } });
    expect(upserted).toMatchObject({ id: lead.id, suburb: 'Parramatta', created: false });
    const made = await run(app.creates.upsert_lead.operation.perform, apiKey, { inputData: { match: 'email', email: 'liam@example.com.au', name: 'Liam Chen' } });
    expect(made).toMatchObject({ email: 'liam@example.com.au', firstName: 'Liam', created: true });

    const updated = await run(app.creates.update_lead.operation.perform, apiKey, { inputData: { leadId: lead.id, status: 'QUOTED', read: 'true' } });
    expect(updated).toMatchObject({ id: lead.id, status: 'QUOTED', read: true });
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toMatchObject({ status: 'QUOTED', suburb: 'Parramatta', read: true });
  });

  it('logs a call, finding or creating the lead by the phone, sends an SMS, books an appointment and adds a note', async () => {
    const { apiKey, client, userId, leadId } = await organizationWithSender('+61412345002');
    const call = await run(app.creates.log_call.operation.perform, apiKey, { inputData: { phone: '+61412345002', summary: 'Blocked drain in the kitchen', missed: 'false', duration: '95', keyPoints: ['kitchen sink', 'urgent'] } });
    expect(call).toMatchObject({ source: 'CALL', leadId, summary: 'Blocked drain in the kitchen', callOutcome: 'ANSWERED' });

    const sms = await run(app.creates.send_sms.operation.perform, apiKey, { inputData: { userId, leadId, message: 'We can come Tuesday at 9.' } });
    expect(sms).toMatchObject({ direction: 'OUTBOUND', body: 'We can come Tuesday at 9.', leadId, userId, message: expect.any(String) });

    const startsAt = '2030-03-04T22:00:00.000Z';
    const appointment = await run(app.creates.book_appointment.operation.perform, apiKey, {
      inputData: { leadId, title: 'Drain inspection', startsAt, endsAt: '2030-03-04T23:00:00.000Z', attendees: [{ userId }] },
    });
    expect(appointment).toMatchObject({ leadId, title: 'Drain inspection', startsAt, status: 'BOOKED', attendees: [expect.objectContaining({ userId })] });

    const note = await run(app.creates.add_note.operation.perform, apiKey, { inputData: { leadId, data: 'Gate code 4512' } });
    expect(note).toMatchObject({ event: 'NOTE_ADDED', data: 'Gate code 4512', leadId });
    const activities = (await client.get(`/v1/leads/${leadId}/activities`)).body.activities;
    expect(activities.map((activity: { data: unknown }) => activity.data)).toContain('Gate code 4512');
  });

  it('sends an Idempotency-Key mapped in, so a replayed step writes once', async () => {
    const { apiKey, client } = await api.organization();
    const inputData = { name: 'Noah Smith', email: 'noah@example.com.au', idempotencyKey: 'zap-run-7' };
    const first = await run(app.creates.create_lead.operation.perform, apiKey, { inputData });
    const again = await run(app.creates.create_lead.operation.perform, apiKey, { inputData });
    expect(again.id).toBe(first.id);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it('fails with the API’s message naming the field, and writes nothing', async () => {
    const { apiKey, client } = await api.organization();
    const refused = await run(app.creates.create_lead.operation.perform, apiKey, { inputData: { name: 'Ava Wilson', email: 'not an email' } }).catch(shown);
    expect(refused).toEqual({ message: 'email must be a valid email address', code: 'VALIDATION_ERROR', status: 400 });
    const unknown = await run(app.creates.add_note.operation.perform, apiKey, { inputData: { leadId: 'lead_01JCZ3V7Q8K2M4N6P8R0S2T4V6', data: 'Hello' } }).catch(shown);
    expect(unknown).toEqual({ message: 'Lead not found', code: 'NOT_FOUND', status: 404 });
    // A path's id left empty is refused before any request, which would otherwise be another route's (`/v1/leads/`).
    const unnamed = await run(app.creates.update_lead.operation.perform, apiKey, { inputData: { leadId: '', status: 'WON' } }).catch(shown);
    expect(unnamed).toEqual({ message: 'leadId is required', code: 'VALIDATION_ERROR', status: 400 });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });
});

describe('find lead, and find or create', () => {
  it('finds by email or phone, finds none before the create of find-or-create, and finds the lead it made after', async () => {
    const { apiKey } = await api.organization();
    const search = app.searches.find_lead.operation.perform;
    expect(await run(search, apiKey, { inputData: { email: 'mia@example.com.au' } })).toEqual([]);
    // Zapier's find-or-create runs the create, with the search's input, when the search finds nothing.
    const { create } = app.searchOrCreates.find_lead;
    const made = await run(app.creates[create].operation.perform, apiKey, { inputData: { email: 'mia@example.com.au', name: 'Mia Brown', phone: '0412 345 003' } });
    expect(await run(search, apiKey, { inputData: { email: 'MIA@example.com.au' } })).toEqual([made]);
    expect(await run(search, apiKey, { inputData: { phone: '0412 345 003' } })).toEqual([made]);
  });
});

describe('REST-hook triggers', () => {
  it('subscribes once however often Zapier asks, delivers only status changes to Lead Status Changed, and unsubscribes', async () => {
    const { apiKey, client } = await api.organization();
    const trigger = app.triggers.lead_status_changed.operation;
    const targetUrl = `${receiver.url}/status`;
    const subscribed = await run(trigger.performSubscribe, apiKey, { targetUrl });
    expect(subscribed).toMatchObject({ url: targetUrl, events: ['lead.updated'], isEnabled: true });
    expect((await run(trigger.performSubscribe, apiKey, { targetUrl })).id).toBe(subscribed.id);
    expect((await client.get('/v1/webhooks')).body.webhooks.map((webhook: { id: string }) => webhook.id)).toEqual([subscribed.id]);

    const lead = (await client.post('/v1/leads', { name: 'Ella Taylor', phone: '0412 345 004' })).body.lead;
    await client.patch(`/v1/leads/${lead.id}`, { suburb: 'Ryde' });
    await client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED' });
    const deliveries = (await receiver.waitFor(2)).filter((delivery) => delivery.headers['webhook-id']).map((delivery) => JSON.parse(delivery.body));
    const passed = await Promise.all(deliveries.map((event) => run(trigger.perform, apiKey, { cleanedRequest: event, subscribeData: subscribed })));
    // The status change carries the old status and when the lead took it: its creation.
    expect(passed.map((events: { previousAttributes: unknown }[]) => events.map((event) => event.previousAttributes))).toEqual([[], [{ status: 'NEW', statusChangedAt: lead.createdAt }]]);

    await run(trigger.performUnsubscribe, apiKey, { targetUrl, subscribeData: subscribed });
    expect((await client.get(`/v1/webhooks/${subscribed.id}`)).status).toBe(404);
    // One already gone (deleted in the dashboard) is unsubscribed too, not an error that keeps the Zap on.
    await expect(run(trigger.performUnsubscribe, apiKey, { targetUrl, subscribeData: subscribed })).resolves.toMatchObject({ id: subscribed.id });
  });

  it('keeps to Missed Call only the missed calls, and to Appointment Cancelled only the cancellations, of the same event types', async () => {
    const { apiKey, client } = await api.organization();
    const logCall = (phone: string, missed: boolean) => run(app.creates.log_call.operation.perform, apiKey, { inputData: { phone, summary: 'Called about a leaking tap', missed: String(missed) } });
    const missed = await logCall('0412 345 006', true);
    await logCall('0412 345 007', false);
    const book = (startsAt: string, endsAt: string) => run(app.creates.book_appointment.operation.perform, apiKey, { inputData: { leadId: missed.leadId, title: 'Tap repair', startsAt, endsAt } });
    const cancelled = await book('2030-03-05T22:00:00.000Z', '2030-03-05T23:00:00.000Z');
    const kept = await book('2030-03-06T22:00:00.000Z', '2030-03-06T23:00:00.000Z');
    await client.patch(`/v1/appointments/${cancelled.id}`, { status: 'CANCELLED' });
    await client.patch(`/v1/appointments/${kept.id}`, { notes: 'Bring a washer kit' });
    await api.eventsCaughtUp();
    const dataIds = (events: { data: { id: string } }[]) => events.map((event) => event.data.id);
    expect(dataIds(await run(app.triggers.missed_call.operation.performList, apiKey))).toEqual([missed.id]);
    expect(dataIds(await run(app.triggers.new_inquiry.operation.performList, apiKey))).toHaveLength(2);
    expect(dataIds(await run(app.triggers.appointment_cancelled.operation.performList, apiKey))).toEqual([cancelled.id]);
  });

  it('lists samples from the organization’s latest events of the type, or the document’s example when it has none', async () => {
    const { apiKey, client } = await api.organization();
    expect(await run(app.triggers.new_lead.operation.performList, apiKey)).toEqual([expect.objectContaining({ type: 'lead.created', data: expect.objectContaining({ id: expect.any(String) }) })]);
    const lead = (await client.post('/v1/leads', { name: 'Jack White', phone: '0412 345 005' })).body.lead;
    await api.eventsCaughtUp();
    const listed = await run(app.triggers.new_event.operation.performList, apiKey, { inputData: { type: 'lead.created' } });
    expect(listed.map((event: { type: string; data: { id: string } }) => [event.type, event.data.id])).toEqual([['lead.created', lead.id]]);
  });
});
