import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createApiKey } from '#shared/auth/api-keys';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { useTestApi, type Client } from '../../test/support/api';
import { validatorAt } from '../../test/support/contract';
import { cut, ISO_MS } from '../../test/support/fixtures';
import { LIMITS } from './catalog';
import { RECIPES } from './recipes';
import { enabledAutomationsFor, readAutomationDefinition } from './store';

const api = useTestApi();

const followUp = {
  name: 'Quote chaser',
  trigger: { event: 'lead.status_changed', filter: { to: 'QUOTED' } },
  steps: [
    { type: 'wait', duration: 'P2D' },
    { type: 'send_sms', template: 'Hi {{lead.firstName|there}}, any questions about our quote?' },
  ],
  stopWhen: ['lead.replied'],
};

const create = async (client: Client, body: unknown) => {
  const res = await client.post('/v1/automations', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.automation;
};

/** A 400 whose first detail names `path`, and whose message carries `words`. */
async function refused(client: Client, body: unknown, path: string, words: string | RegExp) {
  const res = await client.post('/v1/automations', body);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.details?.[0]?.path).toBe(path);
  expect(res.body.error.details[0].message).toMatch(words);
  return res;
}

const triggerEntries = async (organizationId: string) =>
  (await dynamo.send(new QueryCommand({ TableName: config.tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)', ExpressionAttributeValues: { ':pk': `ORG#${organizationId}`, ':sk': 'AUTOTRIGGER#' } }))).Items ?? [];

describe('POST /v1/automations', () => {
  it('answers 201 with the automation, its defaults filled in, at version 1', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/automations', followUp);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      automation: {
        id: expect.stringMatching(/^automation_[0-9A-Z]{26}$/),
        name: 'Quote chaser',
        isEnabled: true,
        trigger: { event: 'lead.status_changed', filter: { to: 'QUOTED' } },
        steps: followUp.steps,
        stopWhen: ['lead.replied'],
        quietHours: { allowedFrom: '08:00', allowedUntil: '20:00', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'], closedDates: true },
        fromTemplate: null,
        version: 1,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      },
    });
    expect((await client.get(`/v1/automations/${res.body.automation.id}`)).body).toEqual({ automation: res.body.automation });
  });

  it('puts the trigger entry of an enabled automation and its first version, and none for a disabled one', async () => {
    const { client, organizationId } = await api.organization();
    const enabled = await create(client, followUp);
    await create(client, { ...followUp, isEnabled: false });
    expect(await enabledAutomationsFor(organizationId, 'lead.status_changed')).toEqual([{ automationId: enabled.id, version: 1, filter: { to: 'QUOTED' } }]);
    expect(await enabledAutomationsFor(organizationId, 'lead.created')).toEqual([]);
    expect(await readAutomationDefinition(organizationId, enabled.id, 1)).toEqual({
      automationId: enabled.id,
      version: 1,
      name: 'Quote chaser',
      trigger: followUp.trigger,
      steps: followUp.steps,
      stopWhen: ['lead.replied'],
      quietHours: enabled.quietHours,
    });
  });

  it('makes each recipe as it stands, recording the recipe it came from', async () => {
    const { client } = await api.organization();
    for (const recipe of RECIPES) {
      const automation = await create(client, { fromTemplate: recipe.id });
      expect(automation).toMatchObject({ name: recipe.automation.name, trigger: { event: recipe.automation.trigger.event }, steps: recipe.automation.steps, fromTemplate: recipe.id });
    }
  });

  it('merges the body over the recipe field by field, each field replaced whole, then checks the result', async () => {
    const { client } = await api.organization();
    const automation = await create(client, { fromTemplate: 'quote_follow_up', name: 'Chase quotes', stopWhen: ['lead.replied'] });
    const recipe = RECIPES.find((one) => one.id === 'quote_follow_up')!.automation;
    expect(automation).toMatchObject({ name: 'Chase quotes', trigger: { event: 'lead.status_changed', filter: { to: 'QUOTED' } }, steps: recipe.steps, stopWhen: ['lead.replied'], fromTemplate: 'quote_follow_up' });
    // The recipe's reminder templates name appointment times, which a lead trigger does not supply.
    await refused(client, { fromTemplate: 'appointment_reminders', trigger: { event: 'lead.created' } }, 'steps.0.template', /appointment\.startsAt.*not supplied by the lead\.created trigger/);
  });

  it('answers 400 naming fromTemplate for a recipe that does not exist', async () => {
    const { client } = await api.organization();
    await refused(client, { fromTemplate: 'win_the_lottery' }, 'fromTemplate', /fromTemplate must be one of missed_call_text_back/);
  });

  it('answers 400 naming each field a create without a recipe must have', async () => {
    const { client } = await api.organization();
    await refused(client, { trigger: followUp.trigger, steps: followUp.steps }, 'name', 'name is required');
    await refused(client, { name: 'x', steps: followUp.steps }, 'trigger', 'trigger is required');
    await refused(client, { name: 'x', trigger: followUp.trigger }, 'steps', 'steps is required');
  });
});

describe('what a create refuses: 400 naming the field, nothing written', () => {
  const sms = (template: string) => ({ type: 'send_sms', template });
  const booked = { event: 'appointment.booked' };
  const cases: [string, Record<string, unknown>, string, string | RegExp][] = [
    ['a field no automation has', { ...followUp, owner: 'me' }, 'owner', 'owner is not a known field'],
    ['a trigger not in the catalog', { ...followUp, trigger: { event: 'lead.teleported' } }, 'trigger.event', /event must be one of call\.missed, /],
    ['a filter field the trigger lacks', { ...followUp, trigger: { event: 'lead.created', filter: { tag: 'VIP' } } }, 'trigger.filter.tag', 'trigger.filter.tag is not a known field'],
    ['a filter value outside its list', { ...followUp, trigger: { event: 'inquiry.created', filter: { source: 'FAX' } } }, 'trigger.filter.source', /source must be one of CALL, EMAIL/],
    ['one value of a filter list outside it', { ...followUp, trigger: { event: 'lead.status_changed', filter: { to: ['QUOTED', 'PAID'] } } }, 'trigger.filter.to', /to must be one of NEW, /],
    ['a filter value listed twice', { ...followUp, trigger: { event: 'inquiry.created', filter: { tag: ['VIP', 'VIP'] } } }, 'trigger.filter.tag', 'tag must not list a value twice'],
    ['a filter that is a list', { ...followUp, trigger: { event: 'lead.created', filter: [] } }, 'trigger.filter', /filter must be an object of lead\.created's fields \(status\)/],
    ['a step type not in the catalog', { ...followUp, steps: [{ type: 'send_email', template: 'Hi' }] }, 'steps.0.type', /type must be one of wait, send_sms, /],
    ['a step field its type lacks', { ...followUp, steps: [{ type: 'wait', duration: 'P1D', template: 'Hi' }] }, 'steps.0.template', 'steps.0.template is not a known field'],
    ['a wait under a minute', { ...followUp, steps: [sms('Hi {{lead.firstName|there}}'), { type: 'wait', duration: 'PT59S' }] }, 'steps.1.duration', 'duration must be at least 1 minute'],
    ['a wait over 365 days', { ...followUp, steps: [{ type: 'wait', duration: 'P366D' }] }, 'steps.0.duration', 'duration must be at most 365 days'],
    ['a wait in months', { ...followUp, steps: [{ type: 'wait', duration: 'P1M' }] }, 'steps.0.duration', /duration must be an ISO 8601 duration/],
    ['a wait in words', { ...followUp, steps: [{ type: 'wait', duration: '2 days' }] }, 'steps.0.duration', /duration must be an ISO 8601 duration/],
    ['a wait of no part', { ...followUp, steps: [{ type: 'wait', duration: 'P' }] }, 'steps.0.duration', /duration must be an ISO 8601 duration/],
    ['a wait of a T and no time', { ...followUp, steps: [{ type: 'wait', duration: 'P1DT' }] }, 'steps.0.duration', /duration must be an ISO 8601 duration/],
    ['a webhook url that is not a URL', { ...followUp, steps: [{ type: 'webhook', url: 'hooks.example.com/automations' }] }, 'steps.0.url', 'url must be an absolute http or https URL'],
    ['a webhook url without its //', { ...followUp, steps: [{ type: 'webhook', url: 'https:hooks.example.com/automations' }] }, 'steps.0.url', 'url must be an absolute http or https URL'],
    ['a webhook url of another scheme', { ...followUp, steps: [{ type: 'webhook', url: 'ftp://hooks.example.com/automations' }] }, 'steps.0.url', 'url must be an absolute http or https URL'],
    ['a wait before a time the trigger has not', { ...followUp, steps: [{ type: 'wait', before: 'appointment.startsAt', duration: 'P1D' }, sms('Hi')] }, 'steps.0.before', 'the lead.status_changed trigger has no appointment.startsAt to count back from'],
    ['more than 20 steps', { ...followUp, steps: Array.from({ length: 21 }, () => ({ type: 'wait', duration: 'P1D' })) }, 'steps', 'steps may have at most 20 steps'],
    ['no steps', { ...followUp, steps: [] }, 'steps', 'steps must have at least one step'],
    ['a status no lead has', { ...followUp, steps: [{ type: 'set_lead_status', status: 'PAID' }] }, 'steps.0.status', /status must be one of NEW, /],
    ['a variable that does not exist', { ...followUp, steps: [sms('Hi {{lead.nickname|there}}')] }, 'steps.0.template', /\{\{lead\.nickname\}\} is not a variable/],
    ['a variable the trigger does not supply', { ...followUp, steps: [sms('See you {{appointment.startsAt}}')] }, 'steps.0.template', /\{\{appointment\.startsAt\}\} is not supplied by the lead\.status_changed trigger/],
    ['a variable that may be empty, without a fallback', { ...followUp, steps: [sms('Hi {{lead.firstName}}')] }, 'steps.0.template', 'give a fallback, e.g. {{lead.firstName|there}}'],
    ['an empty fallback', { ...followUp, trigger: booked, steps: [sms('With {{ member.firstName | }}')] }, 'steps.0.template', /\{\{member\.firstName\}\} may be empty/],
    ['a placeholder naming nothing', { ...followUp, steps: [sms('Hi {{ }}')] }, 'steps.0.template', /names no variable/],
    ['braces without their pair', { ...followUp, steps: [sms('Hi {{lead.firstName|there}')] }, 'steps.0.template', 'has a {{ or }} without its pair'],
    ['a quiet hour that is not HH:MM', { ...followUp, quietHours: { allowedFrom: '8am', allowedUntil: '20:00' } }, 'quietHours.allowedFrom', 'allowedFrom must be a time HH:MM'],
    ['quiet hours ending before they start', { ...followUp, quietHours: { allowedFrom: '20:00', allowedUntil: '08:00' } }, 'quietHours.allowedUntil', 'allowedUntil must be after allowedFrom'],
    ['a day that is no weekday', { ...followUp, quietHours: { allowedFrom: '08:00', allowedUntil: '20:00', days: ['MONDAY', 'FUNDAY'] } }, 'quietHours.days.1', /days must hold weekdays: monday, /],
    ['a weekday twice, spelt the same', { ...followUp, quietHours: { allowedFrom: '08:00', allowedUntil: '20:00', days: ['MONDAY', 'MONDAY'] } }, 'quietHours.days', 'days must not repeat a weekday'],
    ['a stop condition not in the catalog', { ...followUp, stopWhen: ['lead.won'] }, 'stopWhen.0', /stopWhen must hold lead\.replied, /],
  ];

  it.each(cases)('%s', async (_, body, path, words) => {
    const { client } = await api.organization();
    await refused(client, body, path, words);
    expect((await client.get('/v1/automations')).body.totalCount).toBe(0);
  });

  it('takes quiet-hours days as the documents write them (MONDAY), capitalised or as businessHours writes them, and keeps and answers them in lower case', async () => {
    const { client } = await api.organization();
    const made = await create(client, { ...followUp, quietHours: { allowedFrom: '08:00', allowedUntil: '20:00', days: ['MONDAY', 'Tuesday', 'wednesday', 'monday'] } });
    // One day in two spellings is that day, once.
    expect(made.quietHours.days).toEqual(['monday', 'tuesday', 'wednesday']);
    expect((await client.get(`/v1/automations/${made.id}`)).body.automation.quietHours.days).toEqual(['monday', 'tuesday', 'wednesday']);
    const changed = await client.patch(`/v1/automations/${made.id}`, { quietHours: { allowedFrom: '08:00', allowedUntil: '20:00', days: ['SATURDAY'] } });
    expect([changed.status, changed.body.automation.quietHours.days]).toEqual([200, ['saturday']]);
  });

  it('takes the edges: a 1-minute and a 365-day wait, 20 steps, a fallback, a member’s own first name, quiet hours to 24:00', async () => {
    const { client } = await api.organization();
    const steps = [{ type: 'wait', duration: 'PT1M' }, { type: 'wait', duration: 'P365D' }, ...Array.from({ length: 17 }, () => sms('Hi {{ lead.firstName | there }}')), sms('With {{member.firstName|us}} at {{appointment.startsAt}}')];
    const made = await create(client, { ...followUp, trigger: booked, steps, quietHours: { allowedFrom: '00:00', allowedUntil: '24:00' } });
    expect(made.steps).toHaveLength(LIMITS.steps);
  });
});

describe('the document’s schema of a create', () => {
  const documented = validatorAt('/paths/~1v1~1automations/post/requestBody/content/application~1json/schema');
  const withStep = (step: Record<string, unknown>) => ({ ...followUp, steps: [step] });

  it.each([
    ['a wait of no part', withStep({ type: 'wait', duration: 'P' }), 'steps.0.duration'],
    ['a wait of a T and no time', withStep({ type: 'wait', duration: 'PT' }), 'steps.0.duration'],
    ['a wait of days and a T', withStep({ type: 'wait', duration: 'P1DT' }), 'steps.0.duration'],
    ['a webhook url that is not a URL', withStep({ type: 'webhook', url: 'hooks.example.com/automations' }), 'steps.0.url'],
    ['a webhook url without its //', withStep({ type: 'webhook', url: 'https:hooks.example.com/automations' }), 'steps.0.url'],
    ['a webhook url of another scheme', withStep({ type: 'webhook', url: 'ftp://hooks.example.com/automations' }), 'steps.0.url'],
    ['no recipe and no name', { trigger: followUp.trigger, steps: followUp.steps }, 'name'],
    ['no recipe and no trigger', { name: 'x', steps: followUp.steps }, 'trigger'],
    ['no recipe and no steps', { name: 'x', trigger: followUp.trigger }, 'steps'],
  ])('refuses what the API refuses (400 naming the field): %s', async (_, body, path) => {
    expect(documented(body)).toBe(false);
    const { client } = await api.organization();
    const res = await client.post('/v1/automations', body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((detail: { path: string }) => detail.path)).toEqual([path]);
  });

  it('takes what the API takes: a recipe alone, every field without one, waits of each unit and a webhook written out', async () => {
    const waits = ['PT1M', 'PT2H', 'P2D', 'P1W', 'P1DT12H', 'PT1H30M'].map((duration) => ({ type: 'wait', duration }));
    const bodies = [{ fromTemplate: 'quote_follow_up' }, followUp, { ...followUp, steps: [...waits, { type: 'webhook', url: 'HTTPS://hooks.example.com/automations?from=crm' }] }];
    const { client } = await api.organization();
    for (const body of bodies) {
      expect(documented(body), JSON.stringify(documented.errors)).toBe(true);
      await create(client, body);
    }
  });
});

describe('GET /v1/automation-templates', () => {
  it('lists the five recipes, each with the automation it makes', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/automation-templates');
    expect(res.status).toBe(200);
    expect(res.body.templates.map((template: { id: string }) => template.id)).toEqual(['missed_call_text_back', 'webform_instant_reply', 'appointment_reminders', 'quote_follow_up', 'review_request']);
    expect(res.body.templates[1]).toMatchObject({ name: 'Web-form instant reply', automation: { trigger: { event: 'inquiry.created', filter: { source: 'WEBFORM' } }, stopWhen: ['lead.replied', 'member.contacted'] } });
  });
});

describe('PATCH /v1/automations/{automationId}', () => {
  it('replaces the steps whole, moves the version, and keeps every earlier version as it was', async () => {
    const { client, organizationId } = await api.organization();
    const made = await create(client, followUp);
    const steps = [{ type: 'send_sms', template: 'Still keen, {{lead.firstName|there}}?' }];
    const res = await client.patch(`/v1/automations/${made.id}`, { steps });
    expect(res.status).toBe(200);
    expect(res.body.automation).toMatchObject({ ...followUp, steps, version: 2, createdAt: made.createdAt });
    expect(res.body.automation.updatedAt > made.updatedAt).toBe(true);
    expect((await readAutomationDefinition(organizationId, made.id, 1))?.steps).toEqual(followUp.steps);
    expect((await readAutomationDefinition(organizationId, made.id, 2))?.steps).toEqual(steps);
    expect((await readAutomationDefinition(organizationId, made.id))?.version).toBe(2);
  });

  it('moves the trigger entry with the trigger, takes it away while disabled and puts it back when enabled', async () => {
    const { client, organizationId } = await api.organization();
    const made = await create(client, followUp);
    await client.patch(`/v1/automations/${made.id}`, { trigger: { event: 'lead.created' } });
    expect(await triggerEntries(organizationId)).toEqual([expect.objectContaining({ sk: `AUTOTRIGGER#lead.created#${made.id}`, version: 2, filter: {} })]);
    await client.patch(`/v1/automations/${made.id}`, { isEnabled: false });
    expect(await triggerEntries(organizationId)).toEqual([]);
    const enabled = await client.patch(`/v1/automations/${made.id}`, { isEnabled: true });
    expect(enabled.body.automation.version).toBe(4);
    expect(await enabledAutomationsFor(organizationId, 'lead.created')).toEqual([{ automationId: made.id, version: 4, filter: {} }]);
  });

  it('checks the steps against a changed trigger, and changes nothing when refused', async () => {
    const { client } = await api.organization();
    const made = await create(client, { ...followUp, steps: [{ type: 'wait', before: 'appointment.startsAt', duration: 'P1D' }, { type: 'send_sms', template: 'See you at {{appointment.startsAt}}' }], trigger: { event: 'appointment.booked' } });
    const res = await client.patch(`/v1/automations/${made.id}`, { trigger: { event: 'lead.created' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['steps.0.before', 'steps.1.template']);
    expect((await client.get(`/v1/automations/${made.id}`)).body.automation).toEqual(made);
  });

  it('answers 404 for an automation that does not exist, and 400 for an empty body', async () => {
    const { client } = await api.organization();
    expect((await client.patch('/v1/automations/automation_01JA0000000000000000000000', { isEnabled: false })).status).toBe(404);
    const made = await create(client, followUp);
    expect((await client.patch(`/v1/automations/${made.id}`, {})).status).toBe(400);
  });
});

describe('DELETE /v1/automations/{automationId}', () => {
  it('removes the automation and its trigger entry, frees its place under the limit, and answers 404 after', async () => {
    const { client, organizationId } = await api.organization();
    const made = await create(client, followUp);
    const res = await client.delete(`/v1/automations/${made.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: made.id });
    expect(await triggerEntries(organizationId)).toEqual([]);
    expect((await client.get(`/v1/automations/${made.id}`)).status).toBe(404);
    expect((await client.delete(`/v1/automations/${made.id}`)).status).toBe(404);
    expect((await client.get('/v1/automations')).body.totalCount).toBe(0);
  });
});

describe('GET /v1/automations', () => {
  it('pages newest first by page and by cursor, with the exact count', async () => {
    const { client } = await api.organization();
    const ids: string[] = [];
    for (const name of ['One', 'Two', 'Three']) ids.push((await create(client, { ...followUp, name })).id);
    const first = await client.get('/v1/automations?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ totalCount: 3, currentPage: 1, totalPages: 2 });
    expect(first.body.automations.map((a: { name: string }) => a.name)).toEqual(['Three', 'Two']);
    const next = await client.get(`/v1/automations?limit=2&cursor=${first.body.nextCursor}`);
    expect(next.body.automations.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
    expect((await client.get('/v1/automations?limit=2&page=2')).body.automations.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
  });

  it('reads the automations changed since updatedSince, oldest change first', async () => {
    const { client } = await api.organization();
    const older = await create(client, { ...followUp, name: 'Older' });
    await create(client, { ...followUp, name: 'Newer' });
    const since = await cut();
    await client.patch(`/v1/automations/${older.id}`, { name: 'Older, renamed' });
    const res = await client.get(`/v1/automations?updatedSince=${since}`);
    expect(res.status).toBe(200);
    expect(res.body.automations.map((a: { name: string }) => a.name)).toEqual(['Older, renamed']);
  });
});

describe('the limit of automations per organization', () => {
  it(`answers a create past the ${LIMITS.automationsPerOrganization}th 409 LIMIT_REACHED, and takes one again after a delete`, async () => {
    const { client, organizationId } = await api.organization();
    // The counter stands where 50 creates would leave it; the 50th is made through the API.
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: { pk: `ORG#${organizationId}`, sk: 'COUNT#AUTOMATIONS' }, UpdateExpression: 'SET #count = :n', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':n': LIMITS.automationsPerOrganization - 1 } }));
    const last = await create(client, followUp);
    const res = await client.post('/v1/automations', followUp);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'LIMIT_REACHED', message: `An organization has at most ${LIMITS.automationsPerOrganization} automations; delete one first` });
    expect((await client.get('/v1/automations')).body.automations).toHaveLength(1);
    await client.delete(`/v1/automations/${last.id}`);
    await create(client, followUp);
  });
});

describe('who may read and write automations', () => {
  it('lets a read key list and read, and refuses it every write (403)', async () => {
    const { client, organizationId } = await api.organization();
    const made = await create(client, followUp);
    const { token } = await createApiKey(organizationId, null, 'reader', 'read');
    const reader = api.as(token);
    expect((await reader.get('/v1/automations')).status).toBe(200);
    expect((await reader.get(`/v1/automations/${made.id}`)).status).toBe(200);
    expect((await reader.get('/v1/automation-templates')).status).toBe(200);
    expect((await reader.post('/v1/automations', followUp)).status).toBe(403);
    expect((await reader.patch(`/v1/automations/${made.id}`, { isEnabled: false })).status).toBe(403);
    expect((await reader.delete(`/v1/automations/${made.id}`)).status).toBe(403);
    expect((await client.get(`/v1/automations/${made.id}`)).body.automation).toEqual(made);
  });

  it("answers 404 to another organization's key on every route naming the automation", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const made = await create(a.client, followUp);
    expect((await b.client.get(`/v1/automations/${made.id}`)).status).toBe(404);
    expect((await b.client.patch(`/v1/automations/${made.id}`, { isEnabled: false })).status).toBe(404);
    expect((await b.client.delete(`/v1/automations/${made.id}`)).status).toBe(404);
    expect((await a.client.get(`/v1/automations/${made.id}`)).body.automation).toEqual(made);
  });
});
