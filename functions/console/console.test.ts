import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { useTestApi } from '../../test/support/api';
import { admin } from '../../test/support/admin-cli';
import { chromiumAvailable, headlessChromium } from '../../test/support/chromium';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sentLocally } from '../sms/local-provider';
import { LOOPBACK_REDIRECT, pkce, registeredClient } from '../../test/support/oauth';
import { mcpConnector } from '../../test/support/mcp-client';

/**
 * The console as a person uses it: Debian's Chromium against the local server (its edge serves the console and turns
 * the session cookie into the bearer token, as CloudFront does), signing in with a code read from the local SMS
 * provider and with a passkey of the DevTools protocol's virtual authenticator.
 */
const api = useTestApi({ events: true });
const connect = mcpConnector(api);
let browser: { context: BrowserContext; close: () => Promise<void> } | undefined;

beforeAll(async () => {
  if (chromiumAvailable) browser = await headlessChromium();
});
afterAll(async () => browser?.close());

/** The code last texted to a phone by the local SMS provider. */
function codeTextedTo(phone: string): string {
  const code = /^(\d{6}) is your sign-in code/.exec(sentLocally.filter((sms) => sms.to === phone).at(-1)?.body ?? '')?.[1];
  if (!code) throw new Error(`No sign-in code was texted to ${phone}`);
  return code;
}

/** An organization made as an operator makes one, with its owner. */
async function ownedOrganization(name: string, phone: string) {
  const { code, stdout, stderr } = await admin('org', 'create', '--name', name, '--owner-name', 'Ada Lovelace', '--owner-email', `ada@${name.toLowerCase().replace(/\W+/g, '')}.example.com`, '--owner-phone', phone);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as { organizationId: string; apiKey: string };
}

/** Signs in on the console's sign-in screen with a texted code. */
async function signInWithCode(page: Page, phone: string) {
  await page.goto(`${api.url}/console`);
  await page.getByLabel('Phone').fill(phone);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await page.getByLabel('Code').waitFor();
  await page.getByLabel('Code').fill(codeTextedTo(phone));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
}

describe.skipIf(!chromiumAvailable)('the console in Chromium', () => {
  it('signs the owner of an organization made by the admin CLI in, enrols a passkey and signs in with it, connects Claude with no key, and shows both the inquiry the receptionist just logged', async () => {
    const phone = '+61491570110';
    const { apiKey } = await ownedOrganization('Harbour City Plumbing', phone);
    const page = await browser!.context.newPage();
    const cdp = await browser!.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', { options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true } });

    await signInWithCode(page, phone);
    const cookie = (await browser!.context.cookies(api.url)).find((each) => each.name === '__Host-session');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey added').waitFor();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();

    // Claude asks to connect: the owner, signed in, allows it on the consent page with no key.
    const clientId = await registeredClient(api);
    const { verifier, challenge } = pkce();
    let redirected: URL | undefined;
    await page.route(`${LOOPBACK_REDIRECT}**`, async (route) => {
      redirected = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'Connected' });
    });
    await page.goto(`${api.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: `${api.url}/mcp` })}`);
    await page.getByText('You are signed in as Ada Lovelace of Harbour City Plumbing').waitFor();
    expect(await page.getByLabel('An API key of your organization').count()).toBe(0);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByText('Connected').waitFor();
    const tokens = await fetch(`${api.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: redirected!.searchParams.get('code')!, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId, resource: `${api.url}/mcp` }),
    });
    const { access_token: accessToken } = (await tokens.json()) as { access_token: string };

    // The receptionist logs a call with the organization's key; the owner sees it in the inbox, and Claude through its tools.
    const summary = 'Burst pipe under the kitchen sink, wants someone today.';
    const logged = await api.as(apiKey).post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412555190', name: 'Noah Williams' }, data: { summary } });
    expect(logged.status).toBe(201);
    await page.goto(`${api.url}/console`);
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.getByText(summary).waitFor();
    const claude = await connect(accessToken);
    const listed = (await claude.callTool({ name: 'list_inquiries', arguments: {} })) as CallToolResult;
    expect(JSON.stringify(listed.structuredContent)).toContain(summary);
    await page.close();
  });
});
