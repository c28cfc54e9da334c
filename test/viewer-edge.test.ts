import { describe, expect, it } from 'vitest';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '#shared/http/caller-address';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '#shared/http/gateway-responses';
import { useTestApi } from './support/api';
import { requestFrom } from './support/from-address';
import { LOOPBACK_REDIRECT } from './support/oauth';
import { OAUTH_SOURCE_LIMITS } from '../functions/oauth/source-limits';

// `npm start` with the deployed edge's hop: the server's address is the distribution's, which writes the viewer's
// address and adds the origin secret; the API's own address refuses what lacks the secret, as the firewall does.
const api = useTestApi({ clock: 'manual', viewerEdge: true });

const JSON_TYPE = { 'content-type': 'application/json' };
const registration = JSON.stringify({ client_name: 'Edge', redirect_uris: [LOOPBACK_REDIRECT] });
const { limit } = OAUTH_SOURCE_LIMITS.registerPerMinute;

/** A registration from `viewer`'s own address, through the edge, with any headers the client adds. */
const registerThroughEdge = (viewer: string, headers: Record<string, string> = {}) => requestFrom(viewer, 'POST', `${api.url}/oauth/register`, registration, { ...JSON_TYPE, ...headers });
/** Into a new minute, so each test starts with every source's minute unspent. */
const intoNextMinute = () => api.advanceTime((Math.floor(api.clock.now() / 60_000) + 1) * 60_000 + 1000 - api.clock.now());

async function spend(viewer: string, headers: Record<string, string> = {}) {
  const statuses: number[] = [];
  for (let i = 0; i <= limit; i++) statuses.push((await registerThroughEdge(viewer, headers)).status);
  return statuses;
}

describe('the edge as deployed: one distribution in front of the API', () => {
  it('counts two viewers through the one distribution apart, each by its own address', async () => {
    await intoNextMinute();
    expect(await spend('127.0.0.2')).toEqual([...Array<number>(limit).fill(201), 429]);
    // Another viewer, reaching the API through the same edge (the same hop, as CloudFront's one address): its own share.
    expect((await registerThroughEdge('127.0.0.3')).status).toBe(201);
    // A prefix of the spent address is another viewer too.
    expect((await registerThroughEdge('127.0.0.22')).status).toBe(201);
  });

  it('writes the viewer address itself: a viewer naming another address in the header is still counted by its own', async () => {
    await intoNextMinute();
    // Each request of a spent viewer names a fresh address: every one is counted as the viewer's.
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) statuses.push((await registerThroughEdge('127.0.0.4', { [VIEWER_ADDRESS_HEADER]: `10.0.0.${i + 1}`, 'x-forwarded-for': `10.1.0.${i + 1}` })).status);
    expect(statuses).toEqual([...Array<number>(limit).fill(201), 429]);
    // And one naming a spent viewer's address is not charged to it.
    expect((await registerThroughEdge('127.0.0.5', { [VIEWER_ADDRESS_HEADER]: '127.0.0.4' })).status).toBe(201);
  });

  it("refuses, at the API's own address, a request without the origin secret, forged viewer address or not, as the firewall does", async () => {
    await intoNextMinute();
    const refused = gatewayResponseBody(GATEWAY_RESPONSES.WAF_FILTERED);
    // The origin's own address is no address of the documented API (as the execute-api URL is not): its answers are
    // the firewall's, read as they come.
    const direct = (headers: Record<string, string>) => fetch(`${api.originUrl}/oauth/register`, { method: 'POST', body: registration, headers: { ...JSON_TYPE, ...headers } });
    for (const headers of [{}, { [VIEWER_ADDRESS_HEADER]: '127.0.0.7' }, { [ORIGIN_SECRET_HEADER]: '' }, { [ORIGIN_SECRET_HEADER]: 'guessed-secret' }] as Record<string, string>[]) {
      const answer = await direct(headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(await answer.json()).toEqual(refused);
    }
    // Nothing of those was counted against anyone: the viewer they named still has its whole minute.
    expect(await spend('127.0.0.7')).toEqual([...Array<number>(limit).fill(201), 429]);
  });
});
