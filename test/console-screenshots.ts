/**
 * `npm run console:screenshots`: the README's pictures of the owners' console, docs/console-*.png. As `npm start` does,
 * in this process: DynamoDB Local (in memory, on a free port), the table, the demo organization seeded, and the local
 * server with its stream consumer caught up; then an ADMIN with a phone is added to the demo organization and signs in
 * in Debian's Chromium with the code the local SMS provider "sent" (read here, in the same process). Today, Inbox,
 * Pipeline, Reports and Settings at 1280×800, and Today at 375×800, the viewport alone (no full page).
 * CHROMIUM_PATH as the tests take it.
 */
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { createTable, LOCAL_AWS_ENV, LOCAL_JVM_OPTIONS, LOCAL_SERVICE_ENV, startDynamoDbLocal } from '../infra/local/dynamodb-local';
import { CHROMIUM, chromiumAvailable } from './support/chromium';
import { freePort } from './support/ports';

const DOCS = join(import.meta.dirname, '..', 'docs');
const PHONE = '+61491570101';
const progress = (line: string) => process.stderr.write(`console:screenshots: ${line}\n`);
if (!chromiumAvailable) {
  progress(`needs Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  process.exit(1);
}
// The handlers log a JSON line per request to stdout; what this script says goes to stderr.
process.stdout.write = () => true;

progress('starting DynamoDB Local');
const dynamodb = await startDynamoDbLocal({ port: await freePort(), jvmOptions: LOCAL_JVM_OPTIONS });
const tableName = 'console-screenshots';
Object.assign(process.env, LOCAL_AWS_ENV, LOCAL_SERVICE_ENV, { AWS_ENDPOINT_URL_DYNAMODB: dynamodb.endpoint, TABLE_NAME: tableName, POWERTOOLS_METRICS_DISABLED: 'true' });
let close = async () => dynamodb.stop();
try {
  await createTable(dynamodb.endpoint, tableName);
  // Loaded once the environment points at this DynamoDB Local; the server's module before the seed, as npm start loads it.
  const { startLocalServer } = await import('../infra/local/server');
  const { createOrganizationWithKey } = await import('../infra/demo/organization');
  const { createMember } = await import('../functions/organization/member-rules');
  const { sentLocally } = await import('../functions/sms/local-provider');

  progress('seeding the demo organization, as npm start does');
  const demo = await createOrganizationWithKey('Harbour City Plumbing & Electrical', { demo: true });
  await createMember(demo.organizationId, { role: 'ADMIN', firstName: 'Grace', lastName: 'Hopper', email: 'grace@harbourcity.example.com', phone: PHONE });
  const local = await startLocalServer(0, { streamFrom: 'TRIM_HORIZON' });
  close = async () => {
    await local.close();
    await dynamodb.stop();
  };
  await local.stream.caughtUp();

  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    // Still charts (the console honours reduced motion), and the demo business's own clock and locale.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, reducedMotion: 'reduce', timezoneId: 'Australia/Sydney', locale: 'en-AU' });
    const page = await context.newPage();

    progress(`signing in as ${PHONE} with a texted code`);
    await page.goto(`${local.url}/console`);
    await page.getByLabel('Phone').fill(PHONE);
    await page.getByRole('button', { name: 'Text me a code' }).click();
    await page.getByLabel('Code').waitFor();
    // The code is made and texted off the request: once the queue is idle it has been.
    await local.idle();
    const code = /^(\d{6}) is your sign-in code/.exec(sentLocally.filter((sms) => sms.to === PHONE).at(-1)?.body ?? '')?.[1];
    if (!code) throw new Error(`No sign-in code was texted to ${PHONE}`);
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();

    const shoot = async (path: string, heading: string, file: string) => {
      await page.goto(`${local.url}/console${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(DOCS, file) });
      progress(`docs/${file}`);
    };
    for (const [path, heading, file] of [
      ['', 'Today', 'console-today.png'],
      ['/inbox', 'Inbox', 'console-inbox.png'],
      ['/inbox?view=texts', 'Inbox', 'console-texts.png'],
      ['/pipeline', 'Pipeline', 'console-pipeline.png'],
      // The week of tomorrow, where the demo's coming visits are (20 to 44 hours ahead).
      ['/schedule?view=week&day=' + new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), 'Schedule', 'console-schedule.png'],
      ['/reports', 'Reports', 'console-reports.png'],
      ['/settings', 'Settings', 'console-settings.png'],
    ] as const) {
      await shoot(path, heading, file);
    }
    await page.setViewportSize({ width: 375, height: 800 });
    await shoot('', 'Today', 'console-today-phone.png');
  } finally {
    await browser.close();
  }
} finally {
  await close();
}
