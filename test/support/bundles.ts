import { build, type Metafile } from 'esbuild';
import { bundleOptions, functionEntryPoints } from '../../infra/cdk/bundling';

/** The budget of one function's bundle: what a cold start downloads, unpacks and parses. */
export const MAX_BUNDLE_BYTES = 420 * 1024;

/**
 * Functions that read phones as people type them carry every country's numbering plan (libphonenumber-js's `min`
 * metadata and its parser, about 120 KB): a number no plan has is refused, and a national form read in the
 * organization's country. The other functions leave it out (shared/countries.ts checks a country without it).
 */
const WITH_NUMBERING_PLANS = 512 * 1024;

/**
 * The automation runner carries three AWS clients (DynamoDB, SQS for its steps, EventBridge Scheduler for its waits)
 * and the SMS, member and quiet-hours code its steps run: about 150 KB of clients alone.
 */
const THREE_CLIENTS = 448 * 1024;

/**
 * Functions that seal or open tenants' secrets carry the AWS Encryption SDK and the KMS client on top of their own
 * budget: 256 KB measured (the KMS client 50, the SDK's message format, keyrings and materials cache about 115, bn.js
 * 44, its streams 37), with its signatures and branch key store left out (infra/cdk/encryption-sdk-unused.ts). It is
 * loaded at the first secret, so the module's other functions (a list, a read) never evaluate it.
 */
const WITH_ENCRYPTION_SDK = 260 * 1024;
export const ENCRYPTION_SDK_MODULES = ['inbound-endpoints/handlers', 'webhooks/deliver', 'webhooks/handlers'];

/** Functions allowed more, each for a reason of its own. */
const BUNDLE_BUDGETS: Record<string, number> = {
  ...Object.fromEntries(
    ['leads/handlers', 'companies/handlers', 'inquiries/handlers', 'inbound-endpoints/handlers', 'transfers/handlers', 'receptionist/handlers', 'organization/handlers'].map((module) => [module, WITH_NUMBERING_PLANS]),
  ),
  'automations/runner-handler': THREE_CLIENTS,
};
for (const module of ENCRYPTION_SDK_MODULES) BUNDLE_BUDGETS[module] = (BUNDLE_BUDGETS[module] ?? MAX_BUNDLE_BYTES) + WITH_ENCRYPTION_SDK;

/** A function module's bundle budget. */
export const bundleBudget = (module: string): number => BUNDLE_BUDGETS[module] ?? MAX_BUNDLE_BYTES;

/**
 * Bundles entry points as the stack does (the same esbuild options, one output per entry), into
 * `<outDir>/<entry>.mjs` with its `.map` beside it. Entries are handler modules below functions/ unless
 * `entryPoints` maps names to other sources (the benchmark's bare-client baseline); `external` leaves
 * packages out (the benchmark's runtime-SDK variant); `alias` resolves packages to other modules (its floor without
 * Powertools).
 */
export async function bundleFunctions(
  outDir: string,
  entryPoints: Record<string, string> = functionEntryPoints(),
  { external = [], alias = {} }: { external?: string[]; alias?: Record<string, string> } = {},
): Promise<Metafile> {
  const { metafile } = await build(bundleOptions(entryPoints, outDir, { external, alias }));
  return metafile;
}
