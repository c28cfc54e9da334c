import { parseArgs } from 'node:util';
import { DEFAULT_USAGE_PLAN, INBOUND_USAGE_PLANS, isUsagePlanName, USAGE_PLAN_NAMES, USAGE_PLANS, type UsagePlanName } from '#shared/auth/usage-plans';
import { LOCAL_AWS_ENV } from '../local/dynamodb-local';
import { addLocalAuthorizerCache, flushAuthorizerCache } from '#shared/auth/authorizer-cache';
import { DEPLOYED_STAGE, REST_API_VARIABLE, STAGE_VARIABLE } from '#shared/auth/authorizer-cache-flush';
import { MAX_COUNTER_SHARDS } from '#shared/store/counter-shards';
import { newId } from '#shared/ids';
import { API_KEY_SCOPES, DEFAULT_SCOPE, isApiKeyScope, type ApiKeyScope } from '#shared/auth/scopes';
import { LATEST_INSTANT } from '#shared/schema';

/** What `org shards` says of when the raise holds everywhere (docs/decisions/store.md, "Counter shards"). */
const SHARDS_TAKE_EFFECT =
  'as each API key’s cached authorization expires (authorizerCacheTtl, 300 s by default): until then, lists read with a key authorized before the raise may count low';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  org create --name <name> [--demo] [--plan standard] [--owner-name <first last> --owner-email <email> --owner-phone <phone>]
                                             create an organization and its first API key; with the owner, its
                                             first member, an ADMIN (the phone with its country code, or national
                                             in the organization's country)
  org plan --org <id> --plan <plan>          choose its usage plan (its API keys' and its inbound URLs'): ${USAGE_PLAN_NAMES.join(', ')}
                                             (requests per second, burst and daily quota; default ${DEFAULT_USAGE_PLAN})
  org shards --org <id> --counter-shards <n> spread its lead and inquiry counters over n items (1 to ${MAX_COUNTER_SHARDS};
                                             only grows), for a tenant creating leads at tens a second (docs/capacity.md)
  key create --org <id> [--name <name>] [--expires-in 30d] [--scopes full]
                                             issue another API key (s, m, h or d); --scopes read (GET only),
                                             write (all but DELETE) or full (everything, the default)
  key rotate --org <id> --key <keyId> [--overlap 24h] [--expires-in 90d]
                                             issue its replacement, with the same name and scopes; the old
                                             key ends after the overlap
  key revoke --org <id> --key <keyId>        revoke an API key
  key list --org <id>                        list an organization's keys with their scopes (never their secrets)
  reports rebuild --org <id> [--dry-run]     count its records again into the reports' day counters and lead facts,
                                             and print each counter it changed (day, metric, before and after);
                                             reads every record of the organization: run it off-peak

Target (default: the local server's DynamoDB Local at localhost:$DYNAMODB_PORT (8000), table $TABLE_NAME (sales-pipeline),
as npm start uses them):
  --table <name> --region <region>           a deployed table, with the usual AWS credentials
  --api <restApiId>                          with --table, for org create, org plan and key revoke: the stack's
                                             RestApiId output, whose usage plans meter the organization and whose
                                             authorizer cache a revocation flushes
`;

class UsageError extends Error {}

/** The CLI's options, as parseArgs reads them. */
const OPTIONS = {
  name: { type: 'string' },
  demo: { type: 'boolean', default: false },
  org: { type: 'string' },
  key: { type: 'string' },
  'expires-in': { type: 'string' },
  overlap: { type: 'string' },
  table: { type: 'string' },
  region: { type: 'string' },
  api: { type: 'string' },
  plan: { type: 'string' },
  'counter-shards': { type: 'string' },
  scopes: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  'owner-name': { type: 'string' },
  'owner-email': { type: 'string' },
  'owner-phone': { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function required(values: Values, name: 'name' | 'org' | 'key'): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** `30d`, `12h`, `15m` or `90s` from now; `allowZero` for an overlap that may end the old key at once. */
function later(option: string, text: string, { allowZero = false } = {}): Date {
  const match = /^(\d+)([smhd])$/.exec(text);
  if (!match) throw new UsageError(`--${option} must look like 30d, 12h, 15m or 90s (got "${text}")`);
  if (Number(match[1]) <= 0 && !allowZero) throw new UsageError(`--${option} must be a positive duration: a key that expires at once is useless (got "${text}")`);
  const seconds = { s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as 's' | 'm' | 'h' | 'd'];
  const at = new Date(Date.now() + Number(match[1]) * seconds * 1000);
  // Refused before anything is written: a rotation must not leave a replacement whose secret it never printed.
  if (!(at.getTime() < Date.parse(LATEST_INSTANT))) throw new UsageError(`--${option} must end before ${LATEST_INSTANT} (got "${text}")`);
  return at;
}

function usagePlan(values: Values): UsagePlanName {
  const plan = values.plan ?? DEFAULT_USAGE_PLAN;
  if (!isUsagePlanName(plan)) throw new UsageError(`--plan must be one of ${USAGE_PLAN_NAMES.join(', ')} (got "${plan}")`);
  return plan;
}

/**
 * Deployed, API Gateway meters an organization only once its key is in a usage plan (an organization
 * without one is refused with 403), so org create and org plan also update API Gateway.
 */
async function applyUsagePlan(values: Values, organizationId: string, plan: UsagePlanName): Promise<Record<string, string>> {
  if (!values.table) return {};
  const { APIGatewayClient } = await import('@aws-sdk/client-api-gateway');
  const { assignUsagePlan } = await import('./usage-plan-keys');
  return assignUsagePlan(new APIGatewayClient({}), { restApiId: values.api!, organizationId, plan });
}

/**
 * The owner `org create` names, checked before anything is written (as POST /v1/organization/members checks a member,
 * each flag named): a function making them the organization's first member, an ADMIN. All three flags or none.
 */
async function ownerOf(values: Values): Promise<((organizationId: string) => Promise<unknown>) | undefined> {
  const flags = { name: values['owner-name'], email: values['owner-email'], phone: values['owner-phone'] };
  if (Object.values(flags).every((flag) => flag === undefined)) return undefined;
  const missing = Object.entries(flags).filter(([, flag]) => flag === undefined).map(([name]) => `--owner-${name}`);
  if (missing.length) throw new UsageError(`${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} required with the owner's other flags`);
  const [firstName = '', ...rest] = flags.name!.trim().split(/\s+/);
  if (!rest.length) throw new UsageError(`--owner-name must be a first and a last name (got "${flags.name}")`);
  const v = await import('valibot');
  const { CreateOrganizationMemberBody } = await import('../../functions/organization/member-schema');
  const checked = v.safeParse(CreateOrganizationMemberBody, { firstName, lastName: rest.join(' '), email: flags.email, phone: flags.phone, role: 'ADMIN' });
  if (!checked.success) {
    const flag = { firstName: 'owner-name', lastName: 'owner-name', email: 'owner-email', phone: 'owner-phone' }[String(checked.issues[0].path?.[0]?.key)] ?? 'owner-name';
    throw new UsageError(`--${flag}: ${checked.issues[0].message}`);
  }
  // Read in the country a new organization has (DEFAULT_COUNTRY), before the organization is made: nothing is
  // written for an owner whose phone no plan has.
  const [{ toE164 }, { DEFAULT_COUNTRY }, { createMember }] = await Promise.all([import('#shared/phone'), import('#shared/countries'), import('../../functions/organization/member-rules')]);
  const phone = await toE164(checked.output.phone!, DEFAULT_COUNTRY);
  if (!phone) throw new UsageError(`--owner-phone must be a valid phone number: with its country code (+61412345678), or in the national form of ${DEFAULT_COUNTRY} (got "${flags.phone}")`);
  return async (organizationId) => {
    const member = await createMember(organizationId, { ...checked.output, phone });
    return { memberId: member.id, firstName: member.firstName, lastName: member.lastName, email: member.user.email, phone: member.phone, role: member.role };
  };
}

const expiry = (text: string | undefined): Date | null => (text === undefined ? null : later('expires-in', text));

function keyScope(values: Values): ApiKeyScope {
  const scope = values.scopes ?? DEFAULT_SCOPE;
  if (!isApiKeyScope(scope)) throw new UsageError(`--scopes must be one of ${API_KEY_SCOPES.join(', ')} (got "${scope}")`);
  return scope;
}

/**
 * The environment that points the shared code at the target table, to be set before that code is loaded (it reads its
 * configuration on import).
 */
function targetOf(values: Values, command: string): Record<string, string> {
  if (values.table) {
    if (!values.region && !process.env.AWS_REGION) throw new UsageError('--region is required with --table (or set AWS_REGION)');
    if (!values.api && ['org create', 'org plan', 'key revoke'].includes(command)) throw new UsageError('--api is required with --table for org create, org plan and key revoke (the stack output RestApiId)');
    // A revoked key's cached authorizer answers end with the stage's cache (shared/auth/authorizer-cache.ts).
    return { TABLE_NAME: values.table, ...(values.region ? { AWS_REGION: values.region } : {}), ...(values.api ? { [REST_API_VARIABLE]: values.api, [STAGE_VARIABLE]: DEPLOYED_STAGE } : {}) };
  }
  // The local signing only where the environment names none: a DynamoDB Local without `sharedDb` keeps a database per key.
  const unsigned = Object.fromEntries(Object.entries(LOCAL_AWS_ENV).filter(([name]) => process.env[name] === undefined));
  return { ...unsigned, TABLE_NAME: process.env.TABLE_NAME ?? 'sales-pipeline', AWS_ENDPOINT_URL_DYNAMODB: `http://localhost:${process.env.DYNAMODB_PORT ?? 8000}` };
}

/** How the CLI points the shared code at its target: the script sets its own environment. */
export interface AdminTarget {
  configure(environment: Record<string, string>): void;
}

async function run(positionals: string[], values: Values, target: AdminTarget): Promise<unknown> {
  const [resource, action] = positionals;
  const command = `${resource ?? ''} ${action ?? ''}`.trim();
  if (values.help || !command) throw new UsageError('');
  const known = ['org create', 'org plan', 'org shards', 'key create', 'key rotate', 'key revoke', 'key list', 'reports rebuild'];
  if (!known.includes(command)) throw new UsageError(`Unknown command "${command}"`);
  if (values.scopes !== undefined && command !== 'key create') throw new UsageError('--scopes is an option of key create only (a rotated key keeps its scopes)');
  if (values['dry-run'] && command !== 'reports rebuild') throw new UsageError('--dry-run is an option of reports rebuild only');
  target.configure(targetOf(values, command));
  const keys = await import('#shared/auth/api-keys');
  const { organizationExists, setOrganizationUsagePlan } = await import('../../functions/organization/store');
  const { raiseOrganizationCounterShards } = await import('../../functions/organization/counter-shards');
  const requireOrganization = async () => {
    const org = required(values, 'org');
    if (!(await organizationExists(org))) throw new UsageError(`No organization ${org} in this table`);
    return org;
  };
  if (command === 'reports rebuild') {
    // The reports' counters and lead facts are no records: they are written as nobody, as the counting consumer writes them.
    const { rebuildReports } = await import('../../functions/reports/rebuild');
    return rebuildReports(await requireOrganization(), { dryRun: values['dry-run'] });
  }
  const { asWriter } = await import('#shared/audit/writer');
  // Every record a command writes is attributed to this run of the CLI in the audit log: via admin, with no key.
  const operator = { keyId: null, keyName: null, requestId: newId('admin'), method: null, path: null, via: 'admin' as const };
  return asWriter(operator, async () => {
    switch (command) {
      case 'org create': {
        const name = required(values, 'name');
        const plan = usagePlan(values);
        const { createOrganizationWithKey } = await import('../demo/organization');
        const owner = await ownerOf(values);
        const created = await createOrganizationWithKey(name, { demo: values.demo, usagePlan: plan });
        await applyUsagePlan(values, created.organizationId, plan);
        return owner ? { ...created, owner: await owner(created.organizationId) } : created;
      }
      case 'org plan': {
        const organizationId = await requireOrganization();
        if (!values.plan) throw new UsageError('--plan is required');
        const plan = usagePlan(values);
        await setOrganizationUsagePlan(organizationId, plan);
        return { organizationId, usagePlan: plan, limits: USAGE_PLANS[plan], inboundLimits: INBOUND_USAGE_PLANS[plan], ...(await applyUsagePlan(values, organizationId, plan)) };
      }
      case 'org shards': {
        const organizationId = await requireOrganization();
        const shards = Number(values['counter-shards']);
        if (!Number.isInteger(shards) || shards < 1 || shards > MAX_COUNTER_SHARDS) throw new UsageError(`--counter-shards must be a whole number from 1 to ${MAX_COUNTER_SHARDS}`);
        await raiseOrganizationCounterShards(organizationId, shards).catch((error: unknown) => {
          throw new UsageError((error as Error).message);
        });
        return { organizationId, counterShards: shards, takesEffect: SHARDS_TAKE_EFFECT };
      }
      case 'key create': {
        const expiresAt = expiry(values['expires-in']);
        const scope = keyScope(values);
        const { key, token } = await keys.createApiKey(await requireOrganization(), expiresAt, values.name ?? null, scope);
        return { organizationId: key.organizationId, keyId: key.keyId, name: key.name, scope: key.scope, apiKey: token, expiresAt: key.expiresAt };
      }
      case 'key rotate': {
        const organizationId = await requireOrganization();
        const old = await keys.findApiKey(organizationId, required(values, 'key'));
        if (!old) throw new UsageError(`No key ${values.key} in organization ${organizationId}`);
        const oldEndsAt = later('overlap', values.overlap ?? '24h', { allowZero: true });
        const { key, token } = await keys.createApiKey(organizationId, expiry(values['expires-in']), old.name, old.scope, old.memberId);
        await keys.expireApiKey(organizationId, old.keyId, oldEndsAt);
        return { organizationId, keyId: key.keyId, name: key.name, scope: key.scope, apiKey: token, replaces: old.keyId, replacedKeyEndsAt: oldEndsAt.toISOString() };
      }
      case 'key revoke': {
        const organizationId = await requireOrganization();
        const keyId = required(values, 'key');
        // Locally the CLI is a process apart from npm start's gateway, whose cache it cannot reach.
        // Released after its flush: run in a process that goes on (a test's), it must not stay registered.
        const release = values.table ? () => undefined : addLocalAuthorizerCache({ flush: async () => undefined });
        try {
          await keys.revokeApiKey(organizationId, keyId);
          await flushAuthorizerCache();
        } finally {
          release();
        }
        return { organizationId, keyId, revoked: true, ...(values.table ? {} : { note: 'npm start may accept the key until its cached answer lapses (AUTHORIZER_CACHE_TTL); revoke it in the console, or deployed, to end it at once' }) };
      }
      default:
        return { organizationId: values.org, keys: await keys.listApiKeys(await requireOrganization()) };
    }
  });
}

/** A refused or failed connection, as the SDK reports it when nothing listens at the endpoint. */
function isUnreachable(error: unknown): boolean {
  const { code, name, message } = error as { code?: string; name?: string; message?: string };
  return code === 'ECONNREFUSED' || name === 'TimeoutError' || /ECONNREFUSED|ENOTFOUND|connect ETIMEDOUT/.test(message ?? '');
}

/** What a run of the CLI prints, and the code it exits with: 0 done, 2 a bad argument or an unknown record, 1 a failure. */
export interface AdminOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one command of `npm run admin` (`args` as typed after `--`), pointing the shared code at its target first. */
export async function runAdmin(args: string[], target: AdminTarget): Promise<AdminOutcome> {
  let parsed: { positionals: string[]; values: Values };
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    return { code: 2, stdout: '', stderr: `${(error as Error).message}\n\n${USAGE}` };
  }
  const { positionals, values } = parsed;
  try {
    return { code: 0, stdout: `${JSON.stringify(await run(positionals, values, target))}\n`, stderr: '' };
  } catch (error) {
    if (error instanceof UsageError) return { code: 2, stdout: '', stderr: error.message ? `${error.message}\n\n${USAGE}` : USAGE };
    if (isUnreachable(error)) {
      const where = values.table ? `table ${values.table} in ${values.region ?? process.env.AWS_REGION}` : `${process.env.AWS_ENDPOINT_URL_DYNAMODB} (table ${process.env.TABLE_NAME})`;
      const advice = 'Start the local one with `npm start` (the CLI follows its DYNAMODB_PORT and TABLE_NAME), or target a deployed table with --table and --region.\n';
      return { code: 1, stdout: '', stderr: `Cannot reach DynamoDB at ${where}: ${(error as Error).message}\n${advice}` };
    }
    if ((error as Error).name === 'NotFoundError') return { code: 2, stdout: '', stderr: `${(error as Error).message}\n` };
    return { code: 1, stdout: '', stderr: `${(error as Error).message}\n` };
  }
}
