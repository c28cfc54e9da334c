import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildBundles, functionEntryPoints, type ModuleBundle } from '../../infra/cdk/bundling';

/**
 * The budget of one function's bundle: what a cold start downloads, unpacks and parses. Every function fits it; the
 * largest are the stream consumer (every resource's event and audit mappings), the automations' routes and OAuth's
 * (416 KB until its token endpoint flushed the authorizer cache and read the member a grant acts for, and its consent
 * page made its CSRF token with the signing key: 2.5 KB; 420 KB until the consent page counted its source and its CSRF
 * token covered the client the page checked, so that neither POST fetches a client document: 0.2 KB; 421 KB until the
 * automations' routes took bulk enrolment as a job, its two routes' definitions in every one of them: 2.4 KB).
 */
export const MAX_BUNDLE_BYTES = 424 * 1024;

/**
 * Functions that read phones as people type them load every country's numbering plan (libphonenumber-js's `min`
 * metadata and its parser, about 118 KB) with import() at the first number they read (shared/phone.ts), from a chunk
 * of their own: their import parses none of it, and a route that reads no phone never loads it.
 */
export const NUMBERING_PLAN_MODULES = ['companies/handlers', 'inbound-endpoints/handlers', 'inquiries/handlers', 'leads/handlers', 'organization/handlers', 'receptionist/handlers', 'sign-in/handlers', 'transfers/handlers'];

/**
 * The automation runner loads the EventBridge Scheduler client at its first schedule made or deleted, and the End
 * User Messaging client at its first text, each from a chunk of its own: a step that neither waits nor texts parses
 * neither (about 26 KB); its SQS client, at its first step queued (shared/aws/sqs.ts).
 */
export const RUNNER_LAZY_CLIENTS = ['@aws-sdk/client-scheduler', '@aws-sdk/client-pinpoint-sms-voice-v2'];

/**
 * Functions that seal or open tenants' secrets load the AWS Encryption SDK and the KMS client at their first secret
 * (shared/envelope-encryption.ts), from chunks of their own (infra/cdk/bundling.ts, `buildBundles`): 256 KB their
 * import never parses (the KMS client 50, the SDK's message format, keyrings and materials cache about 115, bn.js 44,
 * its streams 37), with its signatures and branch key store left out (infra/cdk/encryption-sdk-unused.ts).
 */
export const ENCRYPTION_SDK_MODULES = ['automations/handlers', 'automations/runner-handler', 'inbound-endpoints/handlers', 'notifications/handlers', 'stream/record', 'webhooks/deliver', 'webhooks/handlers'];

/** A function module's bundle budget: the bytes its import parses (its entry and the chunks that loads at once). */
export const bundleBudget = (_module: string): number => MAX_BUNDLE_BYTES;

/**
 * Bundles entry points as the stack does (infra/cdk/bundling.ts, `buildBundles`: the same esbuild options, one bundle
 * per entry, chunks for what it loads with `import()`), into `<outDir>/<entry>.mjs` or `<outDir>/split/<entry>/`, and
 * says what each bundle's asset holds. Entries are handler modules below functions/ unless `entryPoints` maps names to
 * other sources (the benchmark's bare-client baseline); `external` leaves packages out (the benchmark's runtime-SDK
 * variant); `alias` resolves packages to other modules (its floor without Powertools).
 */
export function bundleFunctions(
  outDir: string,
  entryPoints: Record<string, string> = functionEntryPoints(),
  { external = [], alias = {} }: { external?: string[]; alias?: Record<string, string> } = {},
): Record<string, ModuleBundle> {
  return buildBundles(outDir, entryPoints, { external, alias });
}

/** The file of a bundle that its function's handler names (its entry), as built. */
export const entryFileOf = (bundle: ModuleBundle): string => join(bundle.dir, bundle.files[0]!);

/** The files a bundled file imports statically (not with `import()`), by its own text, as paths relative to it. */
export const staticallyImported = (text: string): string[] => [...text.matchAll(/\bimport\s*"(\.{1,2}\/[^"]+)"|\bfrom\s*"(\.{1,2}\/[^"]+)"/g)].map((match) => match[1] ?? match[2]!);

/** The files of `dir` that importing `file` reads, itself included: what it imports statically, and what those import. */
export function readWith(dir: string, file: string, reached = new Set<string>()): Set<string> {
  if (reached.has(file)) return reached;
  reached.add(file);
  for (const imported of staticallyImported(readFileSync(join(dir, file), 'utf8'))) readWith(dir, relative(dir, join(dir, imported)), reached);
  return reached;
}
