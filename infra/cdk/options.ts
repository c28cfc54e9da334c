import type { Node } from 'constructs';

/** Seconds API Gateway reuses the API key authorizer's answer for the same Authorization header: 300 unless set, at most API Gateway's 3 600. `npm start` caches the same. */
export const AUTHORIZER_CACHE_TTL_SECONDS = { default: 300, max: 3600 } as const;

/**
 * What an operator may choose per deployment, as CDK context (`cdk deploy -c alarmEmail=oncall@example.com`
 * or cdk.json). Read once; a malformed value stops the synth with its name.
 */
export interface DeploymentOptions {
  /** The table's physical name: the API stack finds it by name, with no cross-stack import. */
  tableName: string;
  /**
   * Where alarm notifications go (an SNS email subscription each). Required: a synth that names no one fails, unless
   * told `none` (alarms that notify no one, for a synth that is not deployed, or an account watched another way).
   */
  alarmEmails: string[];
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** Share of invocations logged at DEBUG whatever the level. */
  debugSampleRate: number;
  /** Share of the API's requests X-Ray traces, with no reservoir: a quiet stack is not traced on every request. */
  traceSampleRate: number;
  /** The stage's ceiling for the whole API. */
  throttle: { rateLimit: number; burstLimit: number };
  /** How long API Gateway reuses an authorizer decision; also how long a revoked key may still work. */
  authorizerCacheTtlSeconds: number;
  /** A custom domain with a base-path mapping, so integrators' URLs survive a redeploy. */
  customDomain?: { domainName: string; certificateArn: string; hostedZoneId: string; hostedZoneName: string };
  /**
   * Where the console's distribution serves the console and the API on one origin (its https URL, a token of the API
   * stack): the API's answers name it, and passkeys and the consent page's session are for it, unless a custom domain
   * is set. Set by the API stack, never from the context.
   */
  consoleBaseUrl?: string;
  /** The phone number, pool or sender id SMS leave from (its id or ARN); End User Messaging picks one when absent. */
  smsOriginationIdentity?: string;
  /**
   * An AWS WAF web ACL (managed common rule set, this many requests per 5 minutes per IP, and of them this many posts to
   * the public inbound URLs, which carry no key and whose unknown ids each cost the inbound authorizer a read).
   */
  waf?: { ratePerIp: number; inboundRatePerIp: number; anonymousRatePerIp: number };
  /** Every function's instruction set: arm64 deployed; x86_64 for `sam local` on an x86 machine (or a deploy that wants it). */
  architecture: 'arm64' | 'x86_64';
  /**
   * Concurrency: reserved for the API key authorizer (every keyed request needs it, so no burst elsewhere may starve
   * it), reserved as a ceiling for the stream consumer, and the most concurrent invocations the delivery queue's
   * event source starts. `undefined` leaves one unset (an account whose concurrency is below 1000 may need that).
   * `routes` false (`-c routeConcurrency=none`) leaves unset the reservations the route table gives its functions.
   */
  concurrency: { authorizer?: number; streamConsumer?: number; deliveries?: number; routes: boolean };
  /**
   * The API stack with every function in its own template, for `sam local start-api`, which cannot follow a nested
   * stack's outputs to the functions behind the routes. Not deployable: the template passes CloudFormation's 500
   * resources.
   */
  samLocal: boolean;
  /**
   * The analytics stack (SalesPipelineAnalytics): a daily export of the table to S3, a Glue table over it and an Athena
   * workgroup (docs/reports.md). Off unless asked for: it costs per GB of table each day.
   */
  analytics: boolean;
  /** Copies of the table's backups outside its region or account, and the vaults' lock (docs/operations.md, "Disaster recovery"). */
  backups: BackupOptions;
  /**
   * A region the tenants' secrets can be opened in besides the table's: a second, multi-region secrets key seals new
   * secrets, with a replica in the stack SalesPipelineSecretsKeyReplica there (docs/operations.md, "Disaster recovery").
   */
  secretsKeyReplicaRegion?: string;
}

export interface BackupOptions {
  /** A region each recovery point is copied to, into a vault of the stack SalesPipelineBackupCopy there. */
  copyRegion?: string;
  /** A vault, most often of another account, each recovery point is copied to: its owner lets this account copy into it. */
  copyVaultArn?: string;
  /**
   * AWS Backup Vault Lock on the vaults the stacks make: governance (lifted by whoever may delete the lock) or compliance
   * (after its 3 days' grace, lifted by no one), and the retention every recovery point in them must have.
   */
  vaultLock?: { mode: 'governance' | 'compliance'; minDays?: number; maxDays?: number };
}

/**
 * 100 for the authorizer: cached per key for 5 minutes, it runs about 30 ms warm, so 100 answer some 3 000 cache
 * misses a second, more than the stage's 1 000 requests; 10 for the stream consumer (one per shard, and a table has
 * few shards), and as much for the stream's second reader (CountReports); 10 deliveries at once, each waiting at most
 * 10 s on a receiver, a ceiling and no reservation. Together they leave 880 of an account's default 1 000 to everything
 * else (docs/operations.md, where a test holds the figure to the templates).
 */
export const DEFAULT_CONCURRENCY = { authorizer: 100, streamConsumer: 10, deliveries: 10 } as const;

/** Whether routes' functions get the reservations the route table gives them: unless told `none`. */
function routeReservations(node: Node): boolean {
  const value: unknown = node.tryGetContext('routeConcurrency');
  if (value !== undefined && value !== 'none') throw new Error(`Context routeConcurrency takes none only, to leave unset the reservations the route table gives (got ${JSON.stringify(value)})`);
  return value === undefined;
}

/** A switch: true or false, as given on the command line (a string) or in cdk.json; false unless set. */
function flag(node: Node, name: string): boolean {
  const value: unknown = node.tryGetContext(name) ?? false;
  if (![true, false, 'true', 'false'].includes(value as boolean | string)) throw new Error(`Context ${name} must be true or false (got ${JSON.stringify(value)})`);
  return value === true || value === 'true';
}

export function readOptions(node: Node): DeploymentOptions {
  const text = (name: string): string | undefined => {
    const value: unknown = node.tryGetContext(name);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw new Error(`Context ${name} must be a string (got ${JSON.stringify(value)})`);
    return value;
  };
  const number = (name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number => {
    const raw: unknown = node.tryGetContext(name);
    if (raw === undefined || raw === null || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) throw new Error(`Context ${name} must be a number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
    return value;
  };

  const logLevel = text('logLevel') ?? 'INFO';
  if (!['DEBUG', 'INFO', 'WARN', 'ERROR'].includes(logLevel)) throw new Error(`Context logLevel must be DEBUG, INFO, WARN or ERROR (got "${logLevel}")`);
  const samLocal = flag(node, 'samLocal');
  const alarmEmail = text('alarmEmail');
  // The sam local template is never deployed, so it pages no one either way.
  if (alarmEmail === undefined && !samLocal) {
    throw new Error('Context alarmEmail is required: the addresses every alarm notifies (-c alarmEmail=oncall@example.com,backup@example.com), or -c alarmEmail=none for alarms that notify no one');
  }
  const alarmEmails = alarmEmail === 'none' ? [] : (alarmEmail ?? '').split(',').map((email) => email.trim()).filter(Boolean);
  for (const email of alarmEmails) if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new Error(`Context alarmEmail has "${email}", which is not an email address`);

  const domain = { domainName: text('domainName'), certificateArn: text('certificateArn'), hostedZoneId: text('hostedZoneId'), hostedZoneName: text('hostedZoneName') };
  const given = Object.entries(domain).filter(([, value]) => value !== undefined);
  if (given.length && given.length < 4) {
    const missing = Object.entries(domain).filter(([, value]) => value === undefined).map(([name]) => name);
    throw new Error(`A custom domain needs domainName, certificateArn, hostedZoneId and hostedZoneName; missing ${missing.join(', ')}`);
  }
  // -c waf=false on the command line, or "waf": false in cdk.json.
  const wafGiven: unknown = node.tryGetContext('waf');
  const waf = typeof wafGiven === 'boolean' ? String(wafGiven) : text('waf');
  if (waf !== undefined && waf !== 'true' && waf !== 'false') throw new Error(`Context waf must be true or false (got "${waf}")`);
  const wafOn = waf !== 'false' && !samLocal;
  /** A count, or `none` to leave it unset. */
  const limit = (name: string, fallback: number, range: { min: number; max: number }): number | undefined =>
    node.tryGetContext(name) === 'none' ? undefined : number(name, fallback, range);
  const architecture = text('architecture') ?? 'arm64';
  if (architecture !== 'arm64' && architecture !== 'x86_64') throw new Error(`Context architecture must be arm64 or x86_64 (got "${architecture}")`);

  return {
    tableName: text('tableName') ?? 'sales-pipeline',
    alarmEmails,
    logLevel: logLevel as DeploymentOptions['logLevel'],
    debugSampleRate: number('debugSampleRate', 0.01, { max: 1 }),
    traceSampleRate: number('traceSampleRate', 0.05, { max: 1 }),
    throttle: { rateLimit: number('stageRateLimit', 1000, { min: 1 }), burstLimit: number('stageBurstLimit', 2000, { min: 1 }) },
    authorizerCacheTtlSeconds: number('authorizerCacheTtl', AUTHORIZER_CACHE_TTL_SECONDS.default, { max: AUTHORIZER_CACHE_TTL_SECONDS.max }),
    ...(text('smsOriginationIdentity') ? { smsOriginationIdentity: text('smsOriginationIdentity') } : {}),
    ...(given.length === 4 ? { customDomain: domain as NonNullable<DeploymentOptions['customDomain']> } : {}),
    // On unless -c waf=false: with the console's distribution it is what closes the API's own URL and counts each viewer
    // at the edge (firewall.ts). AWS WAF's rate-based rules count over 5 minutes and need at least 10 (its minimum).
    ...(wafOn
      ? {
          waf: {
            ratePerIp: number('wafRatePerIp', 2000, { min: 10, max: 2_000_000_000 }),
            inboundRatePerIp: number('wafInboundRatePerIp', 600, { min: 10, max: 2_000_000_000 }),
            anonymousRatePerIp: number('wafAnonymousRatePerIp', 300, { min: 10, max: 2_000_000_000 }),
          },
        }
      : {}),
    architecture,
    concurrency: {
      authorizer: limit('authorizerConcurrency', DEFAULT_CONCURRENCY.authorizer, { min: 1, max: 10_000 }),
      streamConsumer: limit('streamConcurrency', DEFAULT_CONCURRENCY.streamConsumer, { min: 1, max: 10_000 }),
      // Lambda's own bounds for an SQS event source's maximum concurrency.
      deliveries: limit('deliveryConcurrency', DEFAULT_CONCURRENCY.deliveries, { min: 2, max: 1000 }),
      routes: routeReservations(node),
    },
    samLocal,
    analytics: flag(node, 'analytics'),
    backups: readBackupOptions(node, text),
    ...(text('secretsKeyReplicaRegion') ? { secretsKeyReplicaRegion: region('secretsKeyReplicaRegion', text) } : {}),
  };
}

/** An AWS region's name: the plan's own check (TableBackups) also finds it among the regions CDK knows. */
const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;
const VAULT_ARN = /^arn:aws(-cn|-us-gov)?:backup:([a-z]{2}(-[a-z]+)+-\d+):(\d{12}):backup-vault:([A-Za-z0-9_-]{2,50})$/;

/** A region named by the context, checked for its form: refused loudly rather than deployed somewhere unmeant. */
function region(name: string, text: (name: string) => string | undefined): string | undefined {
  const value = text(name);
  if (value !== undefined && !REGION.test(value)) throw new Error(`Context ${name} must be an AWS region, such as ap-southeast-4 (got "${value}")`);
  return value;
}

function readBackupOptions(node: Node, text: (name: string) => string | undefined): BackupOptions {
  if (node.tryGetContext('backupCopyAccount') !== undefined) {
    throw new Error('Context backupCopyAccount is not an option: a copy to another account goes to one of its vaults, named by its ARN: -c backupCopyVaultArn=arn:aws:backup:<region>:<account>:backup-vault:<name>');
  }
  const copyRegion = region('backupCopyRegion', text);
  const copyVaultArn = text('backupCopyVaultArn');
  if (copyVaultArn !== undefined && !VAULT_ARN.test(copyVaultArn)) {
    throw new Error(`Context backupCopyVaultArn must be a backup vault's ARN, arn:aws:backup:<region>:<12-digit account>:backup-vault:<name> (got "${copyVaultArn}")`);
  }
  const lock = text('backupVaultLock');
  let vaultLock: BackupOptions['vaultLock'];
  if (lock !== undefined) {
    const form = 'governance or compliance, optionally with the least and most days a recovery point is kept (compliance:7:365)';
    const match = /^(governance|compliance)(?::(\d+):(\d+))?$/.exec(lock);
    if (!match) throw new Error(`Context backupVaultLock must be ${form} (got "${lock}")`);
    // Unset, the plan's own retentions (TableBackups checks that a lock leaves both possible).
    const minDays = match[2] === undefined ? undefined : Number(match[2]);
    const maxDays = match[3] === undefined ? undefined : Number(match[3]);
    if (minDays !== undefined && maxDays !== undefined && (minDays < 1 || maxDays > 36_500 || minDays > maxDays)) {
      throw new Error(`Context backupVaultLock's days must be 1 to 36500, the least first (got "${lock}")`);
    }
    vaultLock = { mode: match[1] as 'governance' | 'compliance', ...(minDays !== undefined ? { minDays, maxDays: maxDays! } : {}) };
  }
  return { ...(copyRegion ? { copyRegion } : {}), ...(copyVaultArn ? { copyVaultArn } : {}), ...(vaultLock ? { vaultLock } : {}) };
}
