import { describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '#shared/http/gateway-responses';
import { sourceKeyOf, sourceLimitKeys } from '#shared/limits/per-source';
import { useTestApi, type Client } from '../../test/support/api';
import { endpoint, pathOf, vapiEndpoint } from '../../test/support/call-platforms';
import { requestFrom } from '../../test/support/from-address';
import { INBOUND_SOURCE_SHARE } from './source-limits';

const api = useTestApi({ events: true, clock: 'manual' });

const DAY = 86_400_000;
const JSON_TYPE = { 'content-type': 'application/json' };
let posted = 0;
/** A web form's JSON post from `address`: a new visitor each time. */
const postFrom = (address: string, url: string) => requestFrom(address, 'POST', url, JSON.stringify({ email: `visitor${++posted}@example.com`, name: 'Visitor', message: 'A quote, please' }), JSON_TYPE);
const statuses = (answers: { status: number }[]) => answers.map((answer) => answer.status);
const count = (list: number[], status: number) => list.filter((each) => each === status).length;
const inquiryCount = async (client: Client) => (await client.get('/v1/inquiries')).body.totalCount as number;
/** The organization's `inbound_endpoint.source_limited` events, once the stream has read every change. */
async function sourceLimitedEvents(client: Client) {
  await api.eventsCaughtUp();
  return (await client.get('/v1/events?type=inbound_endpoint.source_limited')).body.events as { data: Record<string, unknown> }[];
}

/**
 * The source's posts of the day so far, as a flood left them: the counter of its share, set to `posts`. Sending that many
 * posts first would only take longer.
 */
async function alreadyPosted(organizationId: string, address: string, posts: number) {
  const dayStart = Math.floor(api.clock.now() / DAY) * DAY;
  const key = sourceLimitKeys.sourceWindow(INBOUND_SOURCE_SHARE.name, sourceKeyOf(`${organizationId}/${address}`), dayStart);
  await dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...key, count: posts } }));
}

/** A new UTC day, a second in, where no source has posted yet. */
const nextDay = () => api.advanceTime((Math.floor(api.clock.now() / DAY) + 1) * DAY + 1000 - api.clock.now());

describe('an organization’s inbound URLs, per source', () => {
  it('answer a source its share of the organization’s day, refuse it at the gateway after that, and answer every other source', async () => {
    await nextDay();
    const { client, organizationId } = await api.organization();
    const { url } = await endpoint(client, { source: 'WEBFORM' });
    // Ten at once for the last five of its share (each admitted post writes a lead and an inquiry: a larger burst met the
    // store's timeouts on a loaded two-core machine).
    await alreadyPosted(organizationId, '127.0.0.30', INBOUND_SOURCE_SHARE.limit - 5);
    const flood = statuses(await Promise.all(Array.from({ length: 10 }, () => postFrom('127.0.0.30', url))));
    expect({ admitted: count(flood, 201), refused: count(flood, 401) }).toEqual({ admitted: 5, refused: 5 });
    const refused = await postFrom('127.0.0.30', url);
    // Refused by the inbound authorizer, before the gateway meters the post: it spends nothing of the quota, and records nothing.
    expect(refused).toMatchObject({ status: 401, body: gatewayResponseBody(GATEWAY_RESPONSES.UNAUTHORIZED) });
    expect(await inquiryCount(client)).toBe(5);
    // Another source, one whose address starts with the flood's, and the flood's at another organization, are answered.
    expect((await postFrom('127.0.0.31', url)).status).toBe(201);
    expect((await postFrom('127.0.0.3', url)).status).toBe(201);
    const other = await api.organization();
    expect((await postFrom('127.0.0.30', (await endpoint(other.client, { source: 'WEBFORM' })).url)).status).toBe(201);
    // The organization is told once, for the six posts refused: which endpoint, which source, until when.
    const until = new Date((Math.floor(api.clock.now() / DAY) + 1) * DAY).toISOString();
    const [created] = (await client.get('/v1/inbound-endpoints')).body.inboundEndpoints;
    expect((await sourceLimitedEvents(client)).map((event) => event.data)).toEqual([{ inboundEndpointId: created.id, source: '127.0.0.30', limit: INBOUND_SOURCE_SHARE.limit, until, createdAt: expect.any(String) }]);
    expect(await sourceLimitedEvents(other.client)).toEqual([]);
  });

  it(`counts ${INBOUND_SOURCE_SHARE.limit} posts exactly, over every endpoint of the organization, until the UTC day ends`, async () => {
    await nextDay();
    const { client, organizationId } = await api.organization();
    const [form, chat] = [await endpoint(client, { source: 'WEBFORM' }), await endpoint(client, { source: 'CHATBOT' })];
    await alreadyPosted(organizationId, '127.0.0.32', INBOUND_SOURCE_SHARE.limit - 1);
    expect((await postFrom('127.0.0.32', form.url)).status).toBe(201);
    expect((await postFrom('127.0.0.32', chat.url)).status).toBe(401);
    await api.advanceTime(DAY - 1002);
    expect((await postFrom('127.0.0.32', form.url)).status).toBe(401);
    await api.advanceTime(2);
    expect((await postFrom('127.0.0.32', form.url)).status).toBe(201);
    expect(await sourceLimitedEvents(client)).toHaveLength(1);
  });

  it('leaves a voice platform’s endpoint uncounted: every tenant’s calls come from its few addresses', async () => {
    await nextDay();
    const { client, organizationId } = await api.organization();
    const vapi = await vapiEndpoint(client);
    await alreadyPosted(organizationId, '127.0.0.33', INBOUND_SOURCE_SHARE.limit + 1);
    const status = JSON.stringify({ message: { type: 'status-update', status: 'in-progress' } });
    const answered = await requestFrom('127.0.0.33', 'POST', api.url + pathOf(vapi), status, { ...JSON_TYPE, authorization: `Bearer ${vapi.secret}` });
    expect(answered.status).toBe(204);
  });
});
