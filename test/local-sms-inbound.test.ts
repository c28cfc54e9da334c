import { afterEach, describe, expect, it, vi } from 'vitest';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '../shared/http/gateway-responses';
import { useTestApi } from './support/api';
import { itemsOf } from './support/fixtures';

const api = useTestApi();

afterEach(() => vi.restoreAllMocks());

/** A reply from a lead as `npm start`'s simulator takes it (POST /local/sms/inbound). */
const reply = (body: string) => fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('the local inbound SMS simulator', () => {
  it('answers a 5 MB body with 413 REQUEST_TOO_LARGE in the gateway’s envelope, records nothing and logs no error; a reply of normal size is still recorded', async () => {
    const { client, organizationId } = await api.organization();
    const number = '+61299977001';
    expect((await client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
    expect((await client.post('/v1/leads', { name: 'Olivia Nguyen', email: 'olivia@example.com.au', phone: '+61412345001' })).status).toBe(201);
    const before = await itemsOf(organizationId);
    const written: string[] = [];
    for (const method of ['log', 'info', 'warn', 'error'] as const) vi.spyOn(console, method).mockImplementation((...args) => void written.push(args.map(String).join(' ')));

    const huge = await reply(JSON.stringify({ from: '+61412345001', to: number, body: 'x'.repeat(5 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual(gatewayResponseBody(GATEWAY_RESPONSES.REQUEST_TOO_LARGE));
    expect(await itemsOf(organizationId)).toEqual(before);
    expect(written.filter((line) => /"level":\s*"ERROR"/.test(line))).toEqual([]);

    // The same reply at its real size goes through: the 413 was the size, not the sender.
    expect((await reply(JSON.stringify({ from: '+61412345001', to: number, body: 'Yes, 10 works' }))).status).toBe(202);
    expect(await itemsOf(organizationId)).not.toEqual(before);
  });
});
