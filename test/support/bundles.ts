import { join } from 'node:path';
import { buildBundles, functionEntryPoints, type ModuleBundle } from '../../infra/cdk/bundling';

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
 * Functions that seal or open tenants' secrets load the AWS Encryption SDK and the KMS client at their first secret
 * (shared/envelope-encryption.ts), from chunks of their own (infra/cdk/bundling.ts, `buildBundles`): 256 KB their
 * import never parses (the KMS client 50, the SDK's message format, keyrings and materials cache about 115, bn.js 44,
 * its streams 37), with its signatures and branch key store left out (infra/cdk/encryption-sdk-unused.ts).
 */
export const ENCRYPTION_SDK_MODULES = ['inbound-endpoints/handlers', 'webhooks/deliver', 'webhooks/handlers'];

/** Functions allowed more, each for a reason of its own. */
const BUNDLE_BUDGETS: Record<string, number> = {
  ...Object.fromEntries(
    ['leads/handlers', 'companies/handlers', 'inquiries/handlers', 'inbound-endpoints/handlers', 'transfers/handlers', 'receptionist/handlers', 'organization/handlers'].map((module) => [module, WITH_NUMBERING_PLANS]),
  ),
  'automations/runner-handler': THREE_CLIENTS,
};

/** A function module's bundle budget: the bytes its import parses (its entry and the chunks that loads at once). */
export const bundleBudget = (module: string): number => BUNDLE_BUDGETS[module] ?? MAX_BUNDLE_BYTES;

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
