import { createECDH, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dynamo } from '#shared/dynamo';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { useTestApi } from './support/api';
import { admin } from './support/admin-cli';
import { chromiumAvailable, headlessChromium } from './support/chromium';
import { AxeBuilder } from '@axe-core/playwright';
import { createMember } from '../functions/organization/member-rules';
import { consent } from './support/oauth';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sentLocally } from '../functions/sms/local-provider';
import { LOOPBACK_REDIRECT, pkce, registeredClient } from './support/oauth';
import { mcpConnector } from './support/mcp-client';
import { codeTextedTo, signInWith } from './support/member-session';
import { holdWrite } from './support/interleave';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../infra/cdk/options';

/**
 * The console as a person uses it: Debian's Chromium against the local server (its edge serves the console and turns
 * the session cookie into the bearer token, as CloudFront does), signing in with a code read from the local SMS
 * provider and with a passkey of the DevTools protocol's virtual authenticator.
 */
// The gateway keeps each credential's answer as deployed (300 s): what the console says ends, ends on the next request.
const api = useTestApi({ authorizerCacheTtlMs: AUTHORIZER_CACHE_TTL_SECONDS.default * 1000 });
const connect = mcpConnector(api);
let browser: { context: BrowserContext; close: () => Promise<void> } | undefined;

beforeAll(async () => {
  if (chromiumAvailable) browser = await headlessChromium();
});
afterAll(async () => browser?.close());

/** An organization made as an operator makes one, with its owner. */
async function ownedOrganization(name: string, phone: string) {
  const { code, stdout, stderr } = await admin('org', 'create', '--name', name, '--owner-name', 'Ada Lovelace', '--owner-email', `ada@${name.toLowerCase().replace(/\W+/g, '')}.example.com`, '--owner-phone', phone);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as { organizationId: string; apiKey: string };
}

/** Signs in on the console's sign-in screen with a texted code, the phone typed as given (E.164 unless told). */
async function signInWithCode(page: Page, phone: string, typed = phone) {
  // The browser's one profile keeps the last test's session: each signs in from none.
  await page.context().clearCookies();
  await page.goto(`${api.url}/console`);
  await page.getByLabel('Phone').fill(typed);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  await page.getByLabel('Code').waitFor();
  await page.getByLabel('Code').fill(await codeTextedTo(api, phone));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
}

// A person's journey through several screens takes longer than one request: each test may take 90 s on a loaded machine.
describe.skipIf(!chromiumAvailable)('the console in Chromium', () => {
  it('signs the owner of an organization made by the admin CLI in, enrols a passkey and signs in with it, connects Claude with no key, shows both the inquiry the receptionist just logged, and removes the passkey, which signs in no more', async () => {
    const phone = '+61491570110';
    const { apiKey } = await ownedOrganization('Harbour City Plumbing', phone);
    const page = await browser!.context.newPage();
    const cdp = await browser!.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', { options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true } });

    // A browser set to Australian English, the owner typing their mobile as Australians do: read in Australia's plan.
    await page.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['en-AU', 'en'] }));
    // A number a digit short is refused once, in the API's words naming the phone, not once as a message and again as its detail.
    await page.goto(`${api.url}/console`);
    await page.getByLabel('Phone').fill('0491 570 11');
    await page.getByRole('button', { name: 'Text me a code' }).click();
    const refusal = page.getByRole('alert').getByText(/^phone must be a valid number/);
    await refusal.first().waitFor();
    expect(await refusal.count()).toBe(1);
    await signInWithCode(page, phone, '0491 570 110');
    const cookie = (await browser!.context.cookies(api.url)).find((each) => each.name === '__Host-session');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });

    await page.getByRole('link', { name: 'Settings' }).click();
    const settingsPart = (name: string) => page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name }).click();
    await settingsPart('Passkeys');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Passkey added').waitFor();
    await settingsPart('Signing out');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();

    // Claude asks to connect while no one is signed in: the consent page sends the owner to the console's sign-in, a
    // passkey signs them in, and they come back to the same request, where they allow it with no key.
    const clientId = await registeredClient(api);
    const { verifier, challenge } = pkce();
    let redirected: URL | undefined;
    await page.route(`${LOOPBACK_REDIRECT}**`, async (route) => {
      redirected = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'Connected' });
    });
    const authorize = `${api.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', resource: `${api.url}/mcp` })}`;
    await page.goto(authorize);
    await page.getByLabel('An API key of your organization').waitFor();
    // The consent page holds to the console's bar, best practices too: every finding of axe, whatever its impact.
    expect((await new AxeBuilder({ page }).analyze()).violations.map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.getByRole('link', { name: 'Sign in to the console' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByText('You are signed in as Ada Lovelace of Harbour City Plumbing').waitFor();
    expect(page.url()).toBe(authorize);
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

    // The phone is lost: the owner removes its passkey, which signs in no more.
    await page.goto(`${api.url}/console/settings#passkeys`);
    await page.locator('#passkeys').getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No passkeys yet').waitFor();
    await settingsPart('Signing out');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').locator('.problem').waitFor();
    expect(await page.getByRole('heading', { level: 1, name: 'Sign in' }).count()).toBe(1);
    await page.close();
  });

  /** An organization (the demo's records unless told) with an ADMIN who has a phone, signed in on a new page of the browser. */
  /**
   * A member of a new organization signed in, by the sign-in screen's code, or with `bySession` through the API from an
   * address of its own, its session put in the browser: the screen's codes come from one address, ten an hour.
   */
  async function signedInToDemo(phone: string, viewport?: { width: number; height: number }, demo = true, { bySession = false } = {}) {
    const organization = await api.organization({ demo });
    await createMember(organization.organizationId, { role: 'ADMIN', firstName: 'Grace', lastName: 'Hopper', email: `grace${phone.slice(-3)}@example.com`, phone });
    const page = await browser!.context.newPage();
    if (viewport) await page.setViewportSize(viewport);
    if (bySession) {
      const { token } = await signInWith(api, phone);
      await page.context().addCookies([{ name: '__Host-session', value: token, domain: new URL(api.url).hostname, path: '/', secure: true, httpOnly: true, sameSite: 'Strict' }]);
    } else await signInWithCode(page, phone);
    return { ...organization, page };
  }

  /** The serious and critical accessibility violations axe-core finds on the page as it is now. */
  async function seriousViolations(page: Page): Promise<string[]> {
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
    return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }

  // On a phone's width, where each screen's layout is the tightest (the other tests use a desk's). Ten screens, each through
  // axe: a minute on a quiet machine, and more than the suite's two minutes beside other files on a slower one.
  it('shows every screen on a phone with no serious accessibility violation and nothing wider than the screen, and enrols a status’s leads showing the progress', async () => {
    const { page, client } = await signedInToDemo('+61491570120', { width: 375, height: 800 });
    const lead = (await client.get('/v1/leads?limit=1')).body.leads[0];
    const inquiry = (await client.get('/v1/inquiries?limit=1')).body.inquiries[0];
    const automation = (
      await client.post('/v1/automations', {
        name: 'Quote follow-up',
        trigger: { event: 'lead.status_changed', filter: { to: 'QUOTED' } },
        steps: [{ type: 'wait', duration: 'P2D' }, { type: 'send_sms', template: 'Hi {{lead.firstName|there}}, just checking you got our quote.' }],
        stopWhen: ['lead.replied'],
      })
    ).body.automation;
    // A slot held for the lead: Today lists it, with its member's name, until it expires.
    const service = (await client.get('/v1/services?limit=1')).body.services[0];
    const slot = (await client.get(`/v1/availability?serviceId=${service.id}`)).body.slots[0];
    const hold = (await client.post('/v1/availability/holds', { serviceId: service.id, startsAt: slot.startsAt, leadId: lead.id })).body.hold;
    const member = (await client.get('/v1/organization/members?limit=100')).body.members.find((one: { id: number }) => one.id === hold.memberId);
    // A call the receptionist missed: Today counts it, and its link lists it alone.
    const missedSummary = 'Called about a leaking hot water system; nobody answered.';
    expect((await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412555191' }, data: { summary: missedSummary, missed: true } })).status).toBe(201);
    const unreadMissed = (await client.get('/v1/inquiries?callOutcome=MISSED&isRead=false&limit=1')).body.totalCount;
    const unreadTransferred = (await client.get('/v1/inquiries?callOutcome=TRANSFERRED&isRead=false&limit=1')).body.totalCount;
    const missedLink = '/inbox?source=CALL&outcome=MISSED&show=unread';
    // The quotes gone quiet: QUOTED a week ago or more, and QUOTED since. A lead quoted eight days ago is one (the time
    // records are stamped at, Date.now, which the in-process server reads, set back for its two requests).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() - 8 * 86_400_000);
      const quoted = (await client.post('/v1/leads', { name: 'Ruby Quinn', email: 'ruby.quinn@example.com' })).body.lead;
      expect((await client.patch(`/v1/leads/${quoted.id}`, { status: 'QUOTED' })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const quiet = (await client.get(`/v1/leads?status=QUOTED&statusChangedBefore=${encodeURIComponent(weekAgo)}&limit=100`)).body;
    const quietLink = '/pipeline?status=QUOTED&quietDays=7';
    const screens: [string, string][] = [
      ['', 'Today'],
      ['/inbox', 'Inbox'],
      [missedLink, 'Inbox'],
      [quietLink, 'Pipeline'],
      [`/inbox/${inquiry.id}`, ''],
      ['/pipeline', 'Pipeline'],
      [`/leads/${lead.id}`, ''],
      ['/automations', 'Automations'],
      // Today's link to the runs a reply stopped: GET /v1/automation-runs, of every automation.
      ['/automations?stopped=lead.replied', 'Automations'],
      [`/automations/${automation.id}`, ''],
      ['/reports', 'Reports'],
      ['/settings', 'Settings'],
      ['/settings#members', 'Settings'],
      ['/search?q=a', 'Search'],
      ['/schedule?view=week', 'Schedule'],
    ];
    const width = 375;
    for (const [path, heading] of screens) {
      await page.goto(`${api.url}/console${path}`);
      await page.getByRole('heading', { level: 1, ...(heading ? { name: heading } : {}) }).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page), `${path || '/'}`).toEqual([]);
      // The page never scrolls sideways; if it does, what reaches past the edge is named (tag and class).
      // Run in the page: the server's program has no DOM types, so the page's globals are named by what is read of them.
      type Element = { getBoundingClientRect(): { right: number }; tagName: string; className: string };
      type InThePage = { document: { documentElement: { scrollWidth: number }; querySelectorAll(selector: string): Iterable<Element> } };
      const sideways = await page.evaluate((edge) => {
        const { document } = globalThis as unknown as InThePage;
        return document.documentElement.scrollWidth <= edge ? [] : [...document.querySelectorAll('body *')].filter((element) => element.getBoundingClientRect().right > edge + 0.5).map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
      }, width);
      expect(sideways, `${path || '/'}`).toEqual([]);
      // Every target a finger meets is 44 px tall at least, and 24 px wide (WCAG 2.5.5 and 2.5.8), but a link inside a
      // sentence (its parent says more than the link) and a check box whose label is a target of that size; named if not.
      type Target = { tagName: string; getBoundingClientRect(): { right: number; width: number; height: number }; textContent: string | null; type?: string; parentElement: { textContent: string | null }; labels?: Iterable<Target> };
      type Targets = { document: { querySelectorAll(selector: string): Iterable<Target> } };
      const small = await page.evaluate(() => {
        const { document } = globalThis as unknown as Targets;
        const size = (target: Target) => target.getBoundingClientRect();
        const inSentence = (target: Target) => target.tagName === 'A' && (target.parentElement.textContent ?? '').trim() !== (target.textContent ?? '').trim();
        const labelled = (target: Target) => (target.type === 'checkbox' || target.type === 'radio') && [...(target.labels ?? [])].some((label) => size(label).height >= 43.5);
        return [...document.querySelectorAll('a, button, select, input, textarea, summary')]
          .filter((target) => size(target).width > 0 && size(target).right > 0)
          .filter((target) => (size(target).height < 43.5 || size(target).width < 24) && !inSentence(target) && !labelled(target))
          .map((target) => `${target.tagName.toLowerCase()} ${Math.round(size(target).width)}×${Math.round(size(target).height)} ${(target.textContent ?? '').trim().slice(0, 30)}`);
      });
      expect(small, `${path || '/'}`).toEqual([]);
      // Every read of the screen answered: no "Could not …" in place of what it shows.
      expect(await page.locator('.error-text, .problem').allTextContents(), `${path || '/'}`).toEqual([]);
      if (path === '') {
        const held = page.getByRole('region', { name: 'Held slots' }).getByRole('listitem');
        await expect.poll(() => held.allTextContents()).toEqual([expect.stringContaining(`with ${member.firstName} ${member.lastName}: held until`)]);
        expect(await held.getByRole('link', { name: 'the lead' }).getAttribute('href')).toBe(`/console/leads/${lead.id}`);
        expect(await page.getByRole('link', { name: /slots held for callers/ }).textContent()).toBe('1 slots held for callers, about to expire');
        expect(unreadMissed).toBeGreaterThanOrEqual(1);
        const missedTile = page.getByRole('link', { name: /unread calls the receptionist missed/ });
        expect(await missedTile.textContent()).toBe(`${unreadMissed} unread calls the receptionist missed`);
        expect(await missedTile.getAttribute('href')).toBe(`/console${missedLink}`);
        expect(await page.getByRole('link', { name: /unread calls the receptionist transferred/ }).textContent()).toBe(`${unreadTransferred} unread calls the receptionist transferred`);
      }
      if (path === '') {
        expect(quiet.totalCount).toBeGreaterThanOrEqual(1);
        const quietTile = page.getByRole('link', { name: /quotes gone quiet/ });
        expect(await quietTile.textContent()).toBe(`${quiet.totalCount} quotes gone quiet for 7 days or more`);
        expect(await quietTile.getAttribute('href')).toBe(`/console${quietLink}`);
        // New inquiries are those customers started: the demo's thread a member's text opened is not one.
        const newTile = page.getByRole('link', { name: /new inquiries since your last visit/ });
        const newLink = new URL((await newTile.getAttribute('href'))!, api.url);
        const since = newLink.searchParams.get('since')!;
        expect(newLink.searchParams.get('from')).toBe('customers');
        const fromCustomers = (await client.get(`/v1/inquiries?createdSince=${encodeURIComponent(since)}&startedBy=LEAD&limit=1`)).body.totalCount as number;
        const everyNew = (await client.get(`/v1/inquiries?createdSince=${encodeURIComponent(since)}&limit=1`)).body.totalCount as number;
        // Exactly one the business started since: the demo's thread, opened by a member's text as it was seeded.
        const byBusiness = (await client.get(`/v1/inquiries?createdSince=${encodeURIComponent(since)}&startedBy=BUSINESS&limit=1`)).body.totalCount as number;
        expect([byBusiness, everyNew]).toEqual([1, fromCustomers + 1]);
        // The missed call made above, at least, a customer started.
        expect(fromCustomers).toBeGreaterThanOrEqual(1);
        expect(await newTile.textContent()).toMatch(new RegExp(`^${fromCustomers} new inquiries since your last visit`));
        await page.goto(newLink.href);
        await page.getByText('Started by customers.').waitFor();
        await expect.poll(() => page.locator('ul.inquiries > li').count()).toBe(fromCustomers);
      }
      if (path === quietLink) {
        // The column is the list's own range: exactly the quiet quotes, by name.
        const cards = page.locator('.card-title');
        expect((await cards.allTextContents()).sort()).toEqual(quiet.leads.map((lead: { firstName: string | null; lastName: string | null }) => [lead.firstName, lead.lastName].filter(Boolean).join(' ')).sort());
      }
      if (path === missedLink) {
        // The list's own filters (callOutcome, isRead), so its every item is an unread missed call.
        const rows = page.locator('ul.inquiries > li');
        expect(await rows.count()).toBe(unreadMissed);
        expect(await rows.first().textContent()).toContain(missedSummary);
        expect(await page.getByLabel('Call outcome').inputValue()).toBe('MISSED');
        expect(await page.getByLabel('Show').inputValue()).toBe('unread');
      }
    }

    // Long work: enrolling every NEW lead in the automation, a job the API runs, its progress read back as it goes.
    const newLeads = (await client.get('/v1/leads?status=NEW&limit=1')).body.totalCount as number;
    expect(newLeads).toBeGreaterThan(1);
    await page.goto(`${api.url}/console/automations/${automation.id}`);
    // The first read of the enrolment is answered as the worker had it after its first lead, and the next is held
    // back until the page has shown that.
    let reads = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // The page reads again only after it has shown what it read: the second read is the sign to look, whatever the
    // machine's speed (no window of time to miss).
    let askedAgain = () => {};
    const secondRead = new Promise<void>((resolve) => (askedAgain = resolve));
    await page.route(`**/v1/automations/${automation.id}/enrolments/*`, async (route) => {
      if (++reads > 1) {
        askedAgain();
        await held;
        return route.continue();
      }
      const response = await route.fetch();
      const { enrolment } = await response.json();
      await route.fulfill({ response, json: { enrolment: { ...enrolment, status: 'RUNNING', progress: { done: 1, total: newLeads }, enrolled: 1, finishedAt: null } } });
    });
    await page.getByLabel('Leads in status').selectOption('NEW');
    await page.getByRole('button', { name: 'Enrol leads' }).click();
    const progress = page.getByRole('progressbar', { name: 'Leads enrolled' });
    await secondRead;
    expect(await progress.getAttribute('value')).toBe('1');
    // And says so to a screen reader, in the progress's live region.
    expect(await page.locator('.progress [aria-live="polite"]').textContent()).toBe(`1 of ${newLeads}`);
    release();
    await page.getByText(`Enrolled ${newLeads} of ${newLeads} leads.`).first().waitFor();
    expect([await progress.getAttribute('value'), await progress.getAttribute('max')]).toEqual([String(newLeads), String(newLeads)]);
    expect((await client.get(`/v1/automations/${automation.id}/runs?limit=1`)).body.totalCount).toBe(newLeads);
    // The runs are listed under their leads' names, from the list itself (expand=lead): no lead is read on its own.
    const leadReads: string[] = [];
    page.on('request', (request) => {
      if (/\/v1\/leads\/lead_/.test(request.url())) leadReads.push(request.url());
    });
    await page.reload();
    const shown = page.locator('ul.runs > li.run h3');
    type Lead = { firstName: string | null; lastName: string | null; businessName: string | null; phone: string | null; email: string | null };
    const listed = (await client.get(`/v1/automations/${automation.id}/runs?expand=lead&limit=25`)).body.runs as { lead: Lead }[];
    const names = listed.map(({ lead }) => [lead.firstName, lead.lastName].filter(Boolean).join(' ') || lead.businessName || lead.phone || lead.email);
    expect(names).toHaveLength(Math.min(newLeads, 25));
    await expect.poll(() => shown.allTextContents()).toEqual(names);
    expect(leadReads).toEqual([]);
    await page.close();
  }, 300_000);

  it('moves a card by dragging it and by its list (asking why when lost), replies to a lead by text, makes and revokes a key, adds and deletes a webhook, disconnects an assistant, and makes a recipe off until switched on; a member is offered no form of an owner’s', async () => {
    const { page, client, apiKey } = await signedInToDemo('+61491570130');
    // A lead of its own, so the board's first column holds it.
    const lead = (await client.post('/v1/leads', { name: 'Mia Thompson', phone: '+61412555131' })).body.lead;
    await page.goto(`${api.url}/console/pipeline`);
    const card = page.locator('li.card', { hasText: 'Mia Thompson' });
    // Dropped by the column's heading: its middle may be a card's list, a form control that takes a drop as text.
    await card.dragTo(page.locator('section', { has: page.getByRole('heading', { level: 2, name: /^Contacted/ }) }), { targetPosition: { x: 20, y: 20 } });
    await expect.poll(async () => (await client.get(`/v1/leads/${lead.id}`)).body.lead.status).toBe('CONTACTED');
    // By keyboard: arrowing through the list moves nothing; Move moves it once, to where the list stopped.
    const moving = page.locator('li.card', { hasText: 'Mia Thompson' });
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes(`/v1/leads/${lead.id}`)) patches.push(request.postData() ?? '');
    });
    await moving.getByLabel('Move to…').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await moving.getByLabel('Move to…').inputValue()).toBe('QUOTED');
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.status).toBe('CONTACTED');
    await moving.getByLabel('Move to…').selectOption('QUALIFIED');
    expect(patches).toEqual([]);
    await moving.getByRole('button', { name: 'Move' }).click();
    await expect.poll(async () => (await client.get(`/v1/leads/${lead.id}`)).body.lead.status).toBe('QUALIFIED');
    expect(patches.map((body) => JSON.parse(body))).toEqual([{ status: 'QUALIFIED' }]);
    // Lost asks why: cancelled, the card stays; answered, the reason goes with the move.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await moving.getByLabel('Move to…').selectOption('LOST');
    await moving.getByRole('button', { name: 'Move' }).click();
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead.status).toBe('QUALIFIED');
    page.once('dialog', (dialog) => {
      expect(dialog.message()).toBe('Why was Mia Thompson lost? (optional)');
      void dialog.accept('Went with a cheaper quote');
    });
    await moving.getByRole('button', { name: 'Move' }).click();
    await expect.poll(async () => (await client.get(`/v1/leads/${lead.id}`)).body.lead).toMatchObject({ status: 'LOST', lostReason: 'Went with a cheaper quote' });
    expect(patches.map((body) => JSON.parse(body))).toEqual([{ status: 'QUALIFIED' }, { status: 'LOST', lostReason: 'Went with a cheaper quote' }]);

    await page.goto(`${api.url}/console/leads/${lead.id}`);
    // A tap on the phone calls the lead.
    expect(await page.getByRole('link', { name: '+61412555131' }).getAttribute('href')).toBe('tel:+61412555131');
    await page.getByLabel('Reply').fill('Hi Mia, we can come by at 2 pm today.');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(async () => JSON.stringify((await client.get(`/v1/sms?leadId=${lead.id}`)).body)).toContain('we can come by at 2 pm today');
    // Each text says who sent it: the member signed in is "You"; another member by name, as the members list has them.
    const senders = page.locator('ol.thread li.from-us .who');
    await expect.poll(() => senders.allTextContents()).toEqual(['You']);
    const other = ((await client.get('/v1/organization/members?limit=100')).body.members as { firstName: string; lastName: string; phone: string | null; user: { id: string } | null }[]).find((member) => member.user && member.phone !== '+61491570130')!;
    expect((await client.post('/v1/sms', { userId: other.user!.id, leadId: lead.id, message: 'Tom here: running 10 minutes late.' })).status).toBe(201);
    await page.reload();
    await expect.poll(() => senders.allTextContents()).toEqual(['You', `${other.firstName} ${other.lastName}`]);

    // Settings shows one part at a time, chosen from its contents.
    await page.goto(`${api.url}/console/settings`);
    await page.getByRole('heading', { level: 2, name: 'Hours and closed dates' }).waitFor();
    expect(await page.locator('section.settings-section h2').allTextContents()).toEqual(['Hours and closed dates']);
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 2, name: 'API keys' }).waitFor();
    expect(await page.locator('section.settings-section h2').allTextContents()).toEqual(['API keys']);
    expect(new URL(page.url()).hash).toBe('#api-keys');
    await page.getByLabel('Key name', { exact: true }).fill('Website form');
    await page.getByRole('button', { name: 'Create key' }).click();
    const token = await page.getByRole('textbox', { name: 'Your new key' }).inputValue();
    expect(token).toMatch(/^sp_live_/);
    expect((await api.as(token).get('/v1/leads')).status).toBe(200);
    await page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Website form' }) }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Website form revoked').waitFor();
    // "Revoking one stops it at once": its very next request is refused, the gateway's cache notwithstanding.
    expect((await api.as(token).get('/v1/leads')).status).toBe(401);

    // A webhook for new leads alone, its signing secret shown once; then deleted.
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Receiver URL').fill('https://hooks.example.com/new-leads');
    await page.getByRole('checkbox', { name: 'Every event, and those added later' }).uncheck();
    await page.getByRole('checkbox', { name: 'lead.created' }).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    expect(await page.getByRole('textbox', { name: 'Its signing secret' }).inputValue()).toMatch(/^whsec_/);
    const [subscribed] = (await client.get('/v1/webhooks')).body.webhooks;
    expect(subscribed).toMatchObject({ url: 'https://hooks.example.com/new-leads', events: ['lead.created'], isEnabled: true });
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'https://hooks.example.com/new-leads' }) }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Webhook deleted').waitFor();
    expect((await client.get(`/v1/webhooks/${subscribed.id}`)).status).toBe(404);

    // An assistant the organization connected with its key, then disconnected here.
    const clientId = await registeredClient(api);
    const { verifier, challenge } = pkce();
    const connected = await consent(`${api.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' })}`, apiKey);
    expect(connected.status).toBe(303);
    const code = new URL(connected.headers.get('location')!).searchParams.get('code')!;
    const exchanged = await fetch(`${api.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId }) });
    expect(exchanged.status).toBe(200);
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Assistant connections' }).click();
    await page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Test assistant' }) }).getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(async () => (await client.get('/v1/oauth/grants')).body.grants).toEqual([]);

    // A recipe is made off, to be read before it texts anyone; its switch turns it on.
    await page.goto(`${api.url}/console/automations`);
    await page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Missed-call text-back' }) }).getByRole('button', { name: 'Use this recipe' }).click();
    await page.getByText('Missed-call text-back added, off: read what it will send, then switch it on.').waitFor();
    const fromRecipe = async () => ((await client.get('/v1/automations')).body.automations as { name: string; isEnabled: boolean }[]).find((automation) => automation.name === 'Missed-call text-back');
    expect(await fromRecipe()).toMatchObject({ isEnabled: false });
    await page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Missed-call text-back' }) }).getByRole('switch', { name: 'On' }).click();
    await expect.poll(async () => (await fromRecipe())?.isEnabled).toBe(true);
    await page.goto(`${api.url}/console/settings#members`);

    // The owner adds a member, who signs in with their own phone and may work leads but not manage keys.
    await page.getByLabel('First name').fill('Liam');
    await page.getByLabel('Last name').fill('Kelly');
    await page.getByLabel('Email').fill('liam@example.com');
    await page.getByLabel('Mobile phone').fill('+61491570132');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('heading', { name: 'Liam Kelly' }).waitFor();
    await signInWithCode(page, '+61491570132');
    // Each part read as the member sees it: no form offered that the API would refuse a MEMBER after it was filled in.
    await page.goto(`${api.url}/console/settings#api-keys`);
    await page.getByText('Your role may not do this.').first().waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    await page.goto(`${api.url}/console/settings#webhooks`);
    await page.getByText('Your role may not do this.').first().waitFor();
    expect(await page.getByRole('button', { name: 'Add webhook' }).count()).toBe(0);
    // The hours read, not changed.
    await page.goto(`${api.url}/console/settings#hours`);
    await page.getByText('An admin changes the hours.').waitFor();
    for (const name of ['Save hours', 'Add closed date']) expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    expect(await page.getByLabel('Monday').isEditable()).toBe(false);
    // The members listed, none added or edited.
    await page.goto(`${api.url}/console/settings#members`);
    await page.getByRole('heading', { name: 'Liam Kelly' }).waitFor();
    for (const name of ['Add member', 'Edit']) expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    await page.goto(`${api.url}/console/automations`);
    await page.getByRole('heading', { name: 'Recipes' }).waitFor();
    await page.getByRole('heading', { level: 3 }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Use this recipe' }).count()).toBe(0);
    await page.close();
  });

  it('saves a note once when the owner adds it again after the store lost the answer to the first, and a new note as new; shows times in the organization’s zone, and an inquiry’s lead’s runs still to act', async () => {
    const { page, client } = await signedInToDemo('+61491570160', undefined, false);
    const lead = (await client.post('/v1/leads', { name: 'Noah Walker', phone: '+61412555161' })).body.lead;
    const keys: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/v1/leads/${lead.id}/activities`)) keys.push(request.headers()['idempotency-key'] ?? 'none');
    });
    // The first write of the note reaches the table and commits; its answer is lost, as a timeout leaves it.
    let lost = false;
    const name = 'loseTheNotesAnswer';
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (lost || /^(Get|Query|BatchGet)/.test(String(context.commandName)) || !JSON.stringify(args.input).includes('Checked the hot water unit')) return next(args);
        lost = true;
        await next(args);
        throw Object.assign(new Error('Socket timed out without establishing a connection within 3000 ms'), { name: 'TimeoutError' });
      },
      { step: 'initialize', name },
    );
    try {
      await page.goto(`${api.url}/console/leads/${lead.id}`);
      await page.locator('#lead-note').fill('Checked the hot water unit');
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.getByRole('alert').locator('.problem').waitFor();
      expect(lost).toBe(true);
      // Said as an owner reads it: what happened, when to try again, and that pressing again does it once.
      expect(await page.getByRole('alert').locator('.problem').textContent()).toContain('The service did not answer in time, so this may or may not have been done. Try again in 1 second: it will not be done twice.');
      // The owner presses it again: the same write, with the same key, answered as the first was done.
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.getByText('Note added.').waitFor();
    } finally {
      dynamo.middlewareStack.remove(name);
    }
    const notes = async () => ((await client.get(`/v1/leads/${lead.id}/activities?limit=50`)).body.activities as { event: string; data: string }[]).filter((activity) => activity.event === 'NOTE_ADDED').map((activity) => activity.data);
    expect(await notes()).toEqual(['Checked the hot water unit']);
    // The same words again, once the first was answered: a second note, under a key of its own.
    await page.locator('#lead-note').fill('Checked the hot water unit');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect.poll(notes).toEqual(['Checked the hot water unit', 'Checked the hot water unit']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect([keys[1] === keys[0], keys[2] === keys[0]]).toEqual([true, false]);

    // Times show on the business's clock, its zone named, wherever the browser is: two browser zones, two of the organization's.
    const [created] = ((await client.get(`/v1/leads/${lead.id}/activities?limit=50`)).body.activities as { event: string; createdAt: string }[]).filter((activity) => activity.event === 'LEAD_CREATED');
    const cdp = await page.context().newCDPSession(page);
    for (const [browserZone, organizationZone] of [['America/New_York', 'Australia/Sydney'], ['Asia/Kolkata', 'Europe/London']] as const) {
      expect((await client.patch('/v1/organization', { timezone: organizationZone })).status).toBe(200);
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: browserZone });
      await page.goto(`${api.url}/console/leads/${lead.id}`);
      const shown = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: organizationZone, timeZoneName: 'short' }).format(new Date(created!.createdAt));
      await page.locator('.timeline').getByText(shown, { exact: true }).last().waitFor();
    }

    // Where the owner answers an inquiry, a canned text still to come is said, and can be cancelled there.
    const followUp = (await client.post('/v1/automations', { name: 'Quote follow-up', trigger: { event: 'lead.status_changed', filter: { to: 'QUOTED' } }, steps: [{ type: 'wait', duration: 'P2D' }, { type: 'send_sms', template: 'Any questions on our quote?' }] })).body.automation;
    const { inquiry } = (await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412555162', name: 'Ivy Chen' }, data: { summary: 'Wants a quote for a new hot water unit.' } })).body;
    const enrolled = await client.post(`/v1/automations/${followUp.id}/runs`, { leadId: inquiry.leadId });
    await expect.poll(async () => (await client.get(`/v1/automation-runs/${enrolled.body.run.id}`)).body.run.status).toBe('WAITING');
    await page.goto(`${api.url}/console/inbox/${inquiry.id}`);
    const waiting = page.getByRole('region', { name: 'Automations waiting to act for this lead' });
    await waiting.getByRole('link', { name: 'Quote follow-up' }).waitFor();
    await waiting.getByRole('button', { name: 'Cancel run' }).click();
    await expect.poll(async () => (await client.get(`/v1/automation-runs/${enrolled.body.run.id}`)).body.run.status).toBe('STOPPED');
    await page.close();
  });

  it('searches from the navigation, on a phone and a desk: leads by a name’s start, a phone as typed and an email, companies by a name’s start, each as the API finds them and counts them', async () => {
    const { page, client } = await signedInToDemo('+61491570170', { width: 390, height: 844 });
    type Found = { id: string; firstName: string | null; lastName: string | null; businessName: string | null; phone: string | null; email: string | null };
    const leadWithAll = ((await client.get('/v1/leads?limit=100')).body.leads as Found[]).find((lead) => lead.firstName && lead.phone?.startsWith('+614') && lead.email)!;
    const company = (await client.get('/v1/companies?limit=1')).body.companies[0] as { name: string };
    // A mobile number as an Australian owner types it: national, in groups.
    const national = `0${leadWithAll.phone!.slice(3)}`.replace(/^(\d{4})(\d{3})(\d{3})$/, '$1 $2 $3');
    const searches = [leadWithAll.firstName!.slice(0, 3).toLowerCase(), national, leadWithAll.email!.toUpperCase(), company.name.split(' ')[0]!.slice(0, 4)];
    const shownLeads = page.locator('section[aria-labelledby="found-leads"] li a');
    const shownCompanies = page.locator('section[aria-labelledby="found-companies"] li strong');
    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
      await page.setViewportSize(viewport);
      await page.goto(`${api.url}/console/`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // From every screen: the main navigation's link (behind the menu on a phone).
      if (viewport.width < 768) await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
      await page.getByRole('heading', { level: 1, name: 'Search' }).waitFor();
      expect(await page.getByRole('button', { name: 'Search', exact: true }).isDisabled()).toBe(true);
      for (const q of searches) {
        await page.getByLabel('Name, phone or email').fill(q);
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        const leads = (await client.get(`/v1/leads?q=${encodeURIComponent(q)}&limit=25`)).body as { leads: Found[]; totalCount: number };
        const companies = q.includes('@') ? { companies: [], totalCount: 0 } : ((await client.get(`/v1/companies?q=${encodeURIComponent(q)}&limit=25`)).body as { companies: { name: string }[]; totalCount: number });
        await page.getByRole('heading', { level: 2, name: `Leads (${leads.totalCount})` }).waitFor();
        expect(await page.getByRole('heading', { level: 2, name: /^Companies/ }).textContent(), q).toBe(`Companies (${companies.totalCount})`);
        expect(await shownLeads.allTextContents(), q).toEqual(leads.leads.map((lead) => [lead.firstName, lead.lastName].filter(Boolean).join(' ') || lead.businessName || lead.phone || lead.email));
        expect(await shownCompanies.allTextContents(), q).toEqual(companies.companies.map(({ name }) => name));
        // The lead searched for is among those found, whichever way it was asked for; the company by its name.
        expect(leads.leads.map(({ id }) => id).includes(leadWithAll.id) || q === searches[3], q).toBe(true);
        if (q === searches[3]) expect(companies.companies.map(({ name }) => name)).toContain(company.name);
        expect(new URL(page.url()).searchParams.get('q')).toBe(q);
      }
      // A lead found opens at its screen.
      await page.getByLabel('Name, phone or email').fill(leadWithAll.email!);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await shownLeads.first().click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/console/leads/${leadWithAll.id}`);
    }
    // Nothing found says so.
    await page.goto(`${api.url}/console/search?q=zzzzqqq`);
    await page.getByText('No lead matches “zzzzqqq”.').waitFor();
    expect(await page.getByText('No company’s name starts with “zzzzqqq”.').count()).toBe(1);
    await page.close();
  });

  it('books a lead from the API’s free times, shows it on the schedule by day and week on the business’s clock, moves it and cancels it, on a phone and a desk', async () => {
    const { page, client } = await signedInToDemo('+61491570210', { width: 390, height: 844 }, true, { bySession: true });
    const zone = (await client.get('/v1/organization')).body.organization.timezone as string;
    const lead = (await client.post('/v1/leads', { name: 'Noah Fraser', phone: '+61412555210' })).body.lead;
    const service = (await client.get('/v1/services?limit=100')).body.services.find((one: { isActive: boolean }) => one.isActive);
    const slot = (await client.get(`/v1/availability?serviceId=${service.id}`)).body.slots[0] as { startsAt: string; endsAt: string; startsAtLabel: string; memberIds: number[] };
    const member = (await client.get('/v1/organization/members?limit=100')).body.members.find((one: { id: number }) => one.id === slot.memberIds[0]);
    const withWhom = `${member.firstName} ${member.lastName}`;

    // Booked from the lead: the earliest free time, held for its member and then booked from the hold.
    await page.goto(`${api.url}/console/leads/${lead.id}`);
    await page.getByLabel('Service').selectOption(String(service.id));
    await page.getByRole('button', { name: 'Find free times' }).click();
    await page.getByRole('list', { name: 'Free times' }).getByRole('button', { name: `${slot.startsAtLabel}, with ${withWhom}` }).click();
    await page.getByText(`Booked: ${service.name}, ${slot.startsAtLabel}, with ${withWhom}.`).waitFor();
    const booked = (await client.get(`/v1/appointments?leadId=${lead.id}`)).body.appointments as { id: string; startsAt: string; endsAt: string; status: string; attendees: { userId: string }[] }[];
    expect(booked.map(({ startsAt, endsAt, status, attendees }) => ({ startsAt, endsAt, status, attendees }))).toEqual([{ startsAt: slot.startsAt, endsAt: slot.endsAt, status: 'BOOKED', attendees: [{ userId: member.user.id }] }]);
    expect((await client.get('/v1/availability/holds?limit=100')).body.holds.filter((hold: { leadId: string | null }) => hold.leadId === lead.id)).toEqual([]);

    // On the schedule, on its day in the business's timezone, under its member, at its time on the business's clock.
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(slot.startsAt));
    const clock = (iso: string) => new Intl.DateTimeFormat(undefined, { timeZone: zone, hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
      await page.setViewportSize(viewport);
      await page.goto(`${api.url}/console/schedule?day=${day}`);
      const dayPart = page.locator(`section[aria-labelledby="day-${day}"]`);
      await dayPart.getByRole('heading', { level: 3, name: withWhom }).waitFor();
      await dayPart.getByRole('listitem').filter({ hasText: `${clock(slot.startsAt)}–${clock(slot.endsAt)}` }).getByRole('link', { name: service.name }).waitFor();
      // The week around it: seven days, Monday first, the appointment on its own.
      await page.getByRole('link', { name: 'Week view' }).click();
      await expect.poll(() => page.locator('main section h2').count()).toBe(7);
      expect(await page.locator('main section h2').first().textContent()).toMatch(/^Monday/);
      await page.locator(`section[aria-labelledby="day-${day}"]`).getByRole('link', { name: service.name }).waitFor();
    }

    // Moved an hour later on the business's clock: its length kept.
    await page.goto(`${api.url}/console/schedule?day=${day}`);
    const line = page.locator('li.appointment').filter({ has: page.getByRole('link', { name: service.name }) });
    await line.getByRole('button', { name: 'Move' }).click();
    const wall = await line.getByLabel('New start').inputValue();
    const later = new Date(Date.parse(`${wall}Z`) + 3_600_000).toISOString().slice(0, 16);
    await line.getByLabel('New start').fill(later);
    await line.getByRole('button', { name: 'Save the new time' }).click();
    await page.getByText(`${service.name} moved.`).waitFor();
    const moved = (await client.get(`/v1/appointments/${booked[0]!.id}`)).body.appointment;
    expect([Date.parse(moved.startsAt) - Date.parse(slot.startsAt), Date.parse(moved.endsAt) - Date.parse(moved.startsAt)]).toEqual([3_600_000, Date.parse(slot.endsAt) - Date.parse(slot.startsAt)]);
    // Cancelled, after the owner says so: the time freed, the line says so.
    page.once('dialog', (dialog) => void dialog.accept());
    await line.getByRole('button', { name: 'Cancel appointment' }).click();
    await page.getByText(`${service.name} cancelled.`).waitFor();
    expect((await client.get(`/v1/appointments/${booked[0]!.id}`)).body.appointment.status).toBe('CANCELLED');
    await line.getByText('· Cancelled').waitFor();
    await page.close();
  });

  it('says why the reports count more leads created than the funnel’s New: those recorded as Lost from the start', async () => {
    const { page, client } = await signedInToDemo('+61491570180', undefined, false);
    for (const [at, [name, status]] of ([['Ava New', 'NEW'], ['Leo Quoted', 'QUOTED'], ['Zoe Lost', 'LOST'], ['Max Lost', 'LOST']] as const).entries()) {
      expect((await client.post('/v1/leads', { name, phone: `+6141255518${at}`, status, ...(status === 'LOST' ? { lostReason: 'Went with another plumber' } : {}) })).status).toBe(201);
    }
    // This server runs no stream consumer: a recount counts them.
    const rebuild = (await client.post('/v1/reports/rebuilds', {})).body.rebuild as { id: string };
    await expect.poll(async () => (await client.get(`/v1/reports/rebuilds/${rebuild.id}`)).body.rebuild.status, { timeout: 60_000 }).toBe('SUCCEEDED');
    const { summary } = (await client.get('/v1/reports/summary')).body as { summary: { from: string; to: string; leads: { created: number } } };
    const { funnel } = (await client.get(`/v1/reports/funnel?from=${summary.from}&to=${summary.to}`)).body as { funnel: { stages: { reached: number }[] } };
    expect([summary.leads.created, funnel.stages[0]!.reached]).toEqual([4, 2]);
    await page.goto(`${api.url}/console/reports`);
    const funnelFigure = page.getByRole('figure', { name: 'Funnel' });
    await funnelFigure.getByText(/recorded as Lost from the start/).waitFor();
    expect(await funnelFigure.locator('figcaption p').textContent()).toBe('2 of the 4 leads created were recorded as Lost from the start, so they are in no status before Lost.');
    await page.close();
  });

  it('edits a recipe’s text, which could not be switched on before its part to fill in was written, previews it for a lead with nothing sent, and deletes it', async () => {
    const { page, client } = await signedInToDemo('+61491570190');
    await page.goto(`${api.url}/console/automations`);
    await page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Review request' }) }).getByRole('button', { name: 'Use this recipe' }).click();
    await page.getByText(/^Review request added, off/).waitFor();
    const review = async () => ((await client.get('/v1/automations')).body.automations as { id: string; name: string; isEnabled: boolean; version: number; steps: { type: string; template?: string }[] }[]).find((automation) => automation.name === 'Review request');
    const made = (await review())!;
    await page.goto(`${api.url}/console/automations/${made.id}`);
    // Switched on with its part to fill in still there: refused, naming the part.
    await page.getByRole('switch', { name: 'On' }).click();
    await page.getByRole('alert').getByText('[[your review page link]] is yours to fill in: replace it before the automation is switched on').first().waitFor();
    expect((await review())!.isEnabled).toBe(false);
    // The owner writes the link, saves (a new version), and then it switches on.
    const text = page.getByLabel('Text', { exact: true });
    const written = (await text.inputValue()).replace('[[your review page link]]', 'https://g.page/r/harbour-city-plumbing/review');
    await text.fill(written);
    await page.getByRole('button', { name: 'Save texts' }).click();
    await page.getByText('Texts saved. Runs already started keep the texts they started with.').waitFor();
    const saved = (await review())!;
    expect([saved.version, saved.steps.find((step) => step.type === 'send_sms')!.template]).toEqual([made.version + 1, written]);
    await page.getByRole('switch', { name: 'On' }).click();
    await expect.poll(async () => (await review())!.isEnabled).toBe(true);
    // When it runs and stops: its wait (two hours, as the recipe has it) made a day, its texts kept to weekdays from
    // 09:00 until 17:30, and a run stopped by a member's own text too. A refused value is named and nothing saved.
    const rules = page.locator('section[aria-labelledby="rules-heading"]');
    expect([await rules.getByLabel('How long').inputValue(), await rules.getByLabel('Unit').inputValue()]).toEqual(['2', 'hours']);
    await rules.getByLabel('How long').fill('1');
    await rules.getByLabel('Unit').selectOption('days');
    await rules.getByLabel('From (HH:MM)').fill('09:00');
    await rules.getByLabel('Until (HH:MM, 24:00 the day’s end)').fill('08:00');
    for (const day of ['Sat', 'Sun']) await rules.getByRole('checkbox', { name: day, exact: true }).uncheck();
    await rules.getByRole('checkbox', { name: 'A team member texted the lead' }).check();
    const before = (await review())!.version;
    await rules.getByRole('button', { name: 'Save when it runs' }).click();
    await page.getByRole('alert').getByText('allowedUntil must be after allowedFrom', { exact: false }).first().waitFor();
    expect((await review())!.version).toBe(before);
    await rules.getByLabel('Until (HH:MM, 24:00 the day’s end)').fill('17:30');
    await rules.getByRole('button', { name: 'Save when it runs' }).click();
    await page.getByText('Saved. Runs already started keep the waits, hours and stops they started with.').waitFor();
    const ruled = (await client.get(`/v1/automations/${made.id}`)).body.automation;
    expect([ruled.version, ruled.steps[0], ruled.quietHours, ruled.stopWhen]).toEqual([
      before + 1,
      { type: 'wait', duration: 'P1D' },
      { allowedFrom: '09:00', allowedUntil: '17:30', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], closedDates: true },
      expect.arrayContaining(['member.contacted']),
    ]);
    // Its preview for an appointment's lead (its trigger is an appointment's): the text as that lead would read it, and nothing sent.
    const appointment = ((await client.get('/v1/appointments?limit=25')).body.appointments as { id: string; leadId: string | null }[]).find((each) => each.leadId)!;
    const lead = (await client.get(`/v1/leads/${appointment.leadId}`)).body.lead as { id: string; firstName: string | null };
    const sentBefore = (await client.get(`/v1/sms?leadId=${lead.id}&limit=1`)).body.totalCount;
    await page.getByLabel('Appointment', { exact: true }).selectOption(appointment.id);
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const previewed = await client.post(`/v1/automations/${made.id}/preview`, { leadId: lead.id, appointmentId: appointment.id });
    expect(previewed.status, JSON.stringify(previewed.body)).toBe(200);
    const expected = previewed.body.preview.steps.find((step: { sms?: { body: string } }) => step.sms).sms as { to: string; body: string; characters: number };
    expect(expected.body).toContain(`${lead.firstName ?? 'there'}! Would you leave us a review? https://g.page/r/harbour-city-plumbing/review`);
    await page.locator('ol.preview').getByText(`text to ${expected.to}: “${expected.body}” (${expected.characters} characters)`).waitFor();
    expect((await client.get(`/v1/sms?leadId=${lead.id}&limit=1`)).body.totalCount).toBe(sentBefore);
    // Deleted, after the owner says so: gone from the API and the list.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete automation' }).click();
    await page.getByRole('heading', { level: 1, name: 'Automations' }).waitFor();
    expect((await client.get(`/v1/automations/${made.id}`)).status).toBe(404);
    // The list the page shows is the API's, without it (an empty list says so).
    const left = ((await client.get('/v1/automations')).body.automations as { name: string }[]).map(({ name }) => name);
    const yours = page.locator('section[aria-labelledby="yours-heading"]');
    if (left.length === 0) await yours.getByText('No automations yet').waitFor();
    await expect.poll(() => yours.locator('h3 a').allTextContents()).toEqual(left);
    expect(left).not.toContain('Review request');
    await page.close();
  });

  it('removes a member from Settings, saying what ends with them, and keeps the key the owner chose', async () => {
    // The owner's session made through the API from an address of its own and put in the browser: the sign-in
    // screen's codes are the other tests' (ten an address an hour).
    const { organizationId } = await api.organization();
    await createMember(organizationId, { role: 'ADMIN', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '+61491570150' });
    const owner = await signInWith(api, '+61491570150');
    const page = await browser!.context.newPage();
    await page.context().clearCookies();
    await page.context().addCookies([{ name: '__Host-session', value: owner.token, domain: new URL(api.url).hostname, path: '/', secure: true, httpOnly: true, sameSite: 'Strict' }]);
    await createMember(organizationId, { role: 'ADMIN', firstName: 'Liam', lastName: 'Kelly', email: 'liam@example.com', phone: '+61491570151' });
    const liam = await signInWith(api, '+61491570151');
    const [zapier, sheets] = await Promise.all(['Zapier', 'Sheets'].map(async (name) => (await liam.post('/v1/api-keys', { name, scope: 'write' })).body.key as { id: string; token: string }));
    for (const client of [liam, api.as(zapier!.token), api.as(sheets!.token)]) expect((await client.get('/v1/leads')).status).toBe(200);

    await page.goto(`${api.url}/console/settings#members`);
    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Liam Kelly' }) });
    await item.getByRole('button', { name: 'Remove…' }).click();
    await item.getByText('ends their sessions, passkeys and connected assistants on their very next request').waitFor();
    await item.getByLabel('Keep “Zapier” (write)').check();
    await item.getByRole('button', { name: 'Remove Liam' }).click();
    await page.getByText('Liam removed: signed out everywhere, 1 key revoked, 1 kept for you.').waitFor();
    expect(await page.getByRole('heading', { name: 'Liam Kelly' }).count()).toBe(0);
    expect((await liam.get('/v1/leads')).status).toBe(401);
    expect((await api.as(sheets!.token).get('/v1/leads')).status).toBe(401);
    expect((await api.as(zapier!.token).get('/v1/leads')).status).toBe(200);
    await page.close();
  });

  it('installs as an app, turns on notifications on a device through its PushManager with what the owner chose, shows a pushed notice, keeps no API answer, turns the device off, and counts the unread on the icon', async () => {
    const { page, client } = await signedInToDemo('+61491570240', { width: 390, height: 844 }, false, { bySession: true });
    const origin = new URL(api.url).origin;
    // Headless Chromium here reaches no push service (no network): its registration with one answers as FCM's would,
    // with keys the test holds; the page's own code asks PushManager for it as in any browser.
    const device = createECDH('prime256v1');
    device.generateKeys();
    const pushed = { endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString('hex')}`, p256dh: device.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
    await page.context().grantPermissions(['notifications'], { origin });
    // The page's PushManager, in the page's own terms (the suite's TypeScript knows no DOM).
    await page.addInitScript(`(() => {
      const answer = ${JSON.stringify(pushed)};
      let registered = null;
      PushManager.prototype.subscribe = async function (options) {
        window.subscribedWith = options && options.applicationServerKey;
        registered = { endpoint: answer.endpoint, expirationTime: null, toJSON: () => ({ endpoint: answer.endpoint, expirationTime: null, keys: { p256dh: answer.p256dh, auth: answer.auth } }), unsubscribe: async () => { registered = null; return true; } };
        return registered;
      };
      PushManager.prototype.getSubscription = async () => registered;
      // The app icon's badge, as the Badging API is asked to show it.
      window.badges = [];
      navigator.setAppBadge = async (count) => void window.badges.push(count);
      navigator.clearAppBadge = async () => void window.badges.push(0);
    })()`);
    const mine = async (): Promise<{ endpoint: string; notify: string[] }[]> => page.evaluate("fetch('/v1/me/push-subscriptions').then((answer) => answer.json()).then((body) => body.subscriptions)");

    // Installable: the page names its manifest, which names the app's icons at 192 and 512 pixels.
    await page.goto(`${api.url}/console/settings#notifications`);
    const manifestUrl = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await fetch(`${api.url}${manifestUrl}`)).json()) as { icons: { src: string; sizes: string }[] };
    expect(manifest).toMatchObject({ start_url: '/console/', display: 'standalone', scope: '/console/' });
    expect(manifest.icons.map(({ sizes }) => sizes)).toEqual(['192x192', '512x512']);
    for (const { src, sizes } of manifest.icons) {
      // A PNG's width and height, from its header.
      const png = Buffer.from(await (await fetch(`${api.url}${src}`)).arrayBuffer());
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(sizes);
    }

    await page.getByLabel('A webhook turned off for failing').uncheck();
    await page.getByRole('button', { name: 'Turn on notifications' }).click();
    await page.getByText('Notifications are on for this device.').waitFor();
    expect(await mine()).toEqual([expect.objectContaining({ endpoint: pushed.endpoint, notify: ['MISSED_CALL', 'CUSTOMER_REPLY'] })]);
    // Subscribed with the organization's own key, as the member's session is answered it.
    const organizationKey = await page.evaluate(`(async () => {
      const { session } = await (await fetch('/v1/me')).json();
      const options = await fetch('/v1/me/push-subscription-options', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken }, body: '{}' });
      return (await options.json()).applicationServerKey;
    })()`);
    expect(await page.evaluate('window.subscribedWith')).toBe(organizationKey);
    await page.getByText('This device,').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // A push the service worker receives is shown, and a tap would open the screen it names.
    const cdp = await page.context().newCDPSession(page);
    // The console's registration (the browser's one profile has had it since an earlier test's page), not a deleted one.
    const registration = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const live = registrations.find((each) => !each.isDeleted && new URL(each.scopeURL).pathname === '/console/');
        if (live) resolve(live.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: await registration, data: JSON.stringify({ title: 'New text · Olivia Nguyen', body: 'Friday suits, thanks', url: '/console/inbox', tag: 'CUSTOMER_REPLY' }) });
    // Shown once the worker, started for it on a busy machine, has handled the push: a hang guard, not a speed limit.
    await expect.poll(() => page.evaluate('navigator.serviceWorker.ready.then((ready) => ready.getNotifications()).then((shown) => shown.map(({ title, body, tag, data }) => ({ title, body, tag, data })))'), { timeout: 30_000 }).toEqual([{ title: 'New text · Olivia Nguyen', body: 'Friday suits, thanks', tag: 'CUSTOMER_REPLY', data: { url: '/console/inbox' } }]);
    // The worker kept the shell, and no answer of the API.
    const kept: string[] = await page.evaluate('caches.keys().then((names) => Promise.all(names.map((name) => caches.open(name).then((cache) => cache.keys())))).then((lists) => lists.flat().map((request) => new URL(request.url).pathname))');
    expect(kept).toContain('/console/');
    expect(kept.filter((path) => !path.startsWith('/console/'))).toEqual([]);

    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByText('That device is notified no more.').waitFor();
    expect(await mine()).toEqual([]);

    // The icon counts the unread inquiries: none, then a missed call's.
    await expect.poll(() => page.evaluate('window.badges.at(-1)'), { timeout: 30_000 }).toBe(0);
    expect((await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412555401' }, data: { summary: 'Asked for a quote.', missed: true } })).status).toBe(201);
    await page.goto(`${api.url}/console/inbox`);
    await expect.poll(() => page.evaluate('window.badges.at(-1)'), { timeout: 30_000 }).toBe(1);
    await page.close();
  });

  it('shows whose each lead is on the board, the lead and a conversation, lists only the signed-in member’s with “Only my leads”, and assigns and unassigns a lead', async () => {
    const { organizationId, client } = await api.organization();
    const grace = await createMember(organizationId, { role: 'MEMBER', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '+61491570155' });
    const liam = await createMember(organizationId, { role: 'MEMBER', firstName: 'Liam', lastName: 'Kelly', email: 'liam@example.com' });
    const session = await signInWith(api, '+61491570155');
    const page = await browser!.context.newPage();
    await page.context().clearCookies();
    await page.context().addCookies([{ name: '__Host-session', value: session.token, domain: new URL(api.url).hostname, path: '/', secure: true, httpOnly: true, sameSite: 'Strict' }]);
    const lead = async (name: string, assignedMemberId: number | null) => (await client.post('/v1/leads', { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com`, assignedMemberId })).body.lead as { id: string; email: string };
    const [mine, theirs, nobodys] = [await lead('Ava Chen', grace.id), await lead('Ben Ross', liam.id), await lead('Cleo Park', null)];
    const inquiry = (await client.post('/v1/inquiries', { source: 'WEBFORM', lead: { email: theirs.email }, data: { formName: 'Contact us', submittedAt: '2026-11-20T09:00:00Z', pageUrl: null, fields: [] } })).body.inquiry as { id: string };

    await page.goto(`${api.url}/console/pipeline`);
    const card = (name: string) => page.locator('li.card', { hasText: name });
    // The members are read beside the board: names follow the cards.
    await card('Ava Chen').getByText('Assigned to Grace Hopper').waitFor();
    expect(await card('Ben Ross').textContent()).toContain('Assigned to Liam Kelly');
    expect(await card('Cleo Park').textContent()).toContain('Unassigned');
    await page.getByLabel('Only my leads').check();
    await expect.poll(() => page.locator('li.card').count()).toBe(1);
    expect(await card('Ava Chen').count()).toBe(1);
    expect(await page.getByRole('heading', { level: 2, name: /^New/ }).textContent()).toContain('(1)');
    expect(new URL(page.url()).searchParams.get('mine')).toBe('1');
    await page.getByLabel('Only my leads').uncheck();
    await expect.poll(() => page.locator('li.card').count()).toBe(3);

    // The conversation says whose lead it is.
    await page.goto(`${api.url}/console/inbox/${inquiry.id}`);
    await page.getByText('Assigned to Liam Kelly').waitFor();

    await page.goto(`${api.url}/console/leads/${nobodys.id}`);
    await page.getByLabel('Assigned to').selectOption({ label: 'Grace Hopper' });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await client.get(`/v1/leads/${nobodys.id}`)).body.lead.assignedMemberId).toBe(grace.id);
    // The screen shows the lead as saved before it is changed again.
    await page.locator('dl.facts').getByText('Grace Hopper').waitFor();
    await page.getByLabel('Assigned to').selectOption({ label: 'Nobody' });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await client.get(`/v1/leads/${nobodys.id}`)).body.lead.assignedMemberId).toBeNull();
    expect((await client.get(`/v1/leads?assignedMemberId=${grace.id}`)).body.leads.map((each: { id: string }) => each.id)).toEqual([mine.id]);
    await page.close();
  });

  it('lists the texts one row per customer on a phone and a desk, the latest first with who wrote it, unread and whose; opens a thread, which reads it, replies, and Call dials the customer', async () => {
    const { page, client, organizationId } = await signedInToDemo('+61491570220', { width: 390, height: 844 }, false, { bySession: true });
    const liam = await createMember(organizationId, { role: 'MEMBER', firstName: 'Liam', lastName: 'Kelly', email: 'liam@example.com' });
    const number = '+61299990220';
    expect((await client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
    const olivia = (await client.post('/v1/leads', { name: 'Olivia Nguyen', phone: '+61412345001' })).body.lead;
    const noah = (await client.post('/v1/leads', { name: 'Noah Brown', phone: '+61412345002', assignedMemberId: liam.id })).body.lead;
    for (const lead of [olivia, noah]) expect((await client.post('/v1/sms', { userId: liam.user.id, leadId: lead.id, message: `Hi ${lead.firstName}, we can come Friday.` })).status).toBe(201);
    const replied = await fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: olivia.phone, to: number, body: 'Friday suits, thanks' }) });
    expect(replied.status).toBe(202);
    await expect.poll(async () => (await client.get('/v1/conversations?unread=true')).body.totalCount).toBe(1);

    const row = (name: string) => page.locator('li.conversation', { hasText: name });
    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
      await page.setViewportSize(viewport);
      await page.goto(`${api.url}/console/inbox?view=texts`);
      await row('Olivia Nguyen').waitFor();
      // The latest text first: Olivia's reply, then Liam's text to Noah, each with who wrote it.
      expect(await page.locator('li.conversation .who').allTextContents()).toEqual(['Olivia Nguyen', 'Noah Brown']);
      expect(await row('Olivia Nguyen').locator('.summary').textContent()).toBe('Olivia Nguyen: Friday suits, thanks');
      expect(await row('Olivia Nguyen').getByText('Unread', { exact: true }).count()).toBe(1);
      expect(await row('Noah Brown').locator('.summary').textContent()).toBe('Liam Kelly: Hi Noah, we can come Friday.');
      expect(await row('Noah Brown').getByText('Unread', { exact: true }).count()).toBe(0);
      // Noah is Liam's lead; Olivia nobody's.
      expect(await row('Noah Brown').locator('.badge').allTextContents()).toEqual(['Liam Kelly']);
      expect(await row('Olivia Nguyen').locator('.badge').allTextContents()).toEqual(['Unread']);
      const call = row('Olivia Nguyen').getByRole('link', { name: 'Call Olivia Nguyen' });
      expect(await call.getAttribute('href')).toBe(`tel:${olivia.phone}`);
      const target = (await call.boundingBox())!;
      expect([target.width >= 44, target.height >= 44]).toEqual([true, true]);
      expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Show').selectOption('unread');
      await expect.poll(() => page.locator('li.conversation .who').allTextContents()).toEqual(['Olivia Nguyen']);
      expect(new URL(page.url()).searchParams.get('show')).toBe('unread');
      await page.getByLabel('Show').selectOption('');
      await expect.poll(() => page.locator('li.conversation').count()).toBe(2);
    }

    // The row opens the thread, which reads it; a reply is the signed-in member's.
    await row('Olivia Nguyen').locator('a.open').click();
    await page.getByLabel('Reply').fill('See you Friday at 9.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('ol.thread').getByText('See you Friday at 9.').waitFor();
    await page.goto(`${api.url}/console/inbox?view=texts`);
    await row('Olivia Nguyen').waitFor();
    expect(await row('Olivia Nguyen').locator('.summary').textContent()).toBe('You: See you Friday at 9.');
    expect(await row('Olivia Nguyen').getByText('Unread', { exact: true }).count()).toBe(0);
    expect((await client.get('/v1/conversations?unread=true')).body.totalCount).toBe(0);
    // Only the signed-in member's leads: none of them is Grace's.
    await page.getByLabel('Only my leads').check();
    await page.getByText('No texts here.').waitFor();
    await page.close();
  });

  it('exports a status’s leads as CSV a page at a time, showing the progress, and saves what the list holds', async () => {
    const { page, client } = await signedInToDemo('+61491570145', undefined, false);
    // One more than a page of the list: the export reads two pages.
    const names = Array.from({ length: 101 }, (_, i) => `Quoted Lead ${String(i).padStart(3, '0')}`);
    names[7] = '=HYPERLINK("http://example.com","Click")';
    for (let at = 0; at < names.length; at += 20) {
      await Promise.all(
        names.slice(at, at + 20).map(async (name, i) => {
          const business = at + i === 8 ? { businessName: 'Smith, Jones & Co' } : {};
          expect((await client.post('/v1/leads', { name, email: `quoted${at + i}@example.com`, status: 'QUOTED', ...business })).status).toBe(201);
        }),
      );
    }
    await page.goto(`${api.url}/console/pipeline?status=QUOTED`);
    // The second page's request is held until the page has shown the first one read. The page asks for it only after
    // showing the first page, so its arrival is the sign to look, whatever the machine's speed.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let askedForMore = () => {};
    const secondPage = new Promise<void>((resolve) => (askedForMore = resolve));
    await page.route('**/v1/leads?*cursor=*', async (route) => {
      askedForMore();
      await held;
      await route.continue();
    });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Quoted leads (CSV)' }).click();
    const progress = page.getByRole('progressbar', { name: 'Leads exported' });
    await secondPage;
    expect(await progress.getAttribute('value')).toBe('100');
    expect(await page.locator('.export [aria-live="polite"]').textContent()).toBe('100 of 101');
    release();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/^leads-quoted-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync((await saved.path())!, 'utf8').split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(102);
    const listed = [];
    for (let cursor: string | null | undefined, first = true; first || cursor; first = false) {
      const body = (await client.get(`/v1/leads?status=QUOTED&limit=100${cursor ? `&cursor=${cursor}` : ''}`)).body;
      listed.push(...body.leads.map((lead: { id: string }) => lead.id));
      cursor = body.nextCursor;
    }
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(listed);
    // A formula from a web form opens as text; a comma stays in its field.
    expect(lines.find((line) => line.includes('HYPERLINK'))).toContain(`"'=HYPERLINK(""http://example.com"",""Click"")"`);
    expect(lines.find((line) => line.includes('Smith'))).toContain(',"Smith, Jones & Co",');
    await page.getByText('Exported 101 Quoted leads.').waitFor();
    // With "Only my leads", the export is the signed-in member's leads alone, as the board shows them.
    const me = (await client.get('/v1/organization/members?limit=100')).body.members.find((member: { phone: string | null }) => member.phone === '+61491570145');
    const mine = listed.slice(3, 5);
    for (const leadId of mine) expect((await client.patch(`/v1/leads/${leadId}`, { assignedMemberId: me.id })).status).toBe(200);
    await page.goto(`${api.url}/console/pipeline?status=QUOTED&mine=1`);
    const myDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Quoted leads (CSV)' }).click();
    const myLines = readFileSync((await (await myDownload).path())!, 'utf8').split('\r\n').filter(Boolean);
    expect(myLines.slice(1).map((line) => line.split(',')[0]).sort()).toEqual([...mine].sort());
    await page.getByText('Exported 2 Quoted leads.').waitFor();

    // Long work of the API: a recount of the reports. This server runs no stream consumer, so nothing was counted: the
    // recount writes a day and a history per lead. Its second write is held until the page shows the first one made.
    await page.goto(`${api.url}/console/reports`);
    await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
    const factsWrite = holdWrite(/"sk":"FACTS"/);
    try {
      await page.getByRole('button', { name: 'Recount the reports' }).click();
      await factsWrite.reached;
      const corrections = page.getByRole('progressbar', { name: 'Corrections written' });
      await expect.poll(() => corrections.getAttribute('value'), { timeout: 40_000 }).toBe('1');
      expect(await page.locator('.recount [aria-live="polite"]').textContent()).toBe('1 of 102');
    } finally {
      factsWrite.release();
    }
    await page.getByText('Recounted: 1 days and 101 leads’ histories corrected.').first().waitFor();
    const leadsCreated = page.getByRole('link', { name: /Leads created/ });
    await expect.poll(() => leadsCreated.textContent()).toBe('101 Leads created');
    await page.close();
  });

  it('shows a member of another organization none of the first’s records', async () => {
    const first = await api.organization({ demo: true });
    const lead = (await first.client.post('/v1/leads', { name: 'Oliver Brown', phone: '+61412555141' })).body.lead;
    // The viewer's own organization needs no records: none of the first's may show.
    const { page } = await signedInToDemo('+61491570140', undefined, false);
    await page.goto(`${api.url}/console/pipeline`);
    await page.getByRole('heading', { level: 1, name: 'Pipeline' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('Oliver Brown').count()).toBe(0);
    await page.goto(`${api.url}/console/leads/${lead.id}`);
    await page.getByText(/not found/i).first().waitFor();
    expect(await page.getByText('Oliver Brown').count()).toBe(0);
    await page.close();
  });
});
