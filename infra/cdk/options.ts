import type { Node } from 'constructs';

/**
 * What an operator may choose per deployment, as CDK context (`cdk deploy -c alarmEmail=oncall@example.com`
 * or cdk.json). Read once; a malformed value stops the synth with its name.
 */
export interface DeploymentOptions {
  /** The table's physical name: the API stack finds it by name, with no cross-stack import. */
  tableName: string;
  /** Where alarm notifications go (an SNS email subscription each). */
  alarmEmails: string[];
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** Share of invocations logged at DEBUG whatever the level. */
  debugSampleRate: number;
  /** The stage's ceiling for the whole API. */
  throttle: { rateLimit: number; burstLimit: number };
  /** How long API Gateway reuses an authorizer decision; also how long a revoked key may still work. */
  authorizerCacheTtlSeconds: number;
  /** A custom domain with a base-path mapping, so integrators' URLs survive a redeploy. */
  customDomain?: { domainName: string; certificateArn: string; hostedZoneId: string; hostedZoneName: string };
  /** The phone number, pool or sender id SMS leave from (its id or ARN); End User Messaging picks one when absent. */
  smsOriginationIdentity?: string;
  /** An AWS WAF web ACL (managed common rule set, and this many requests per 5 minutes per IP). */
  waf?: { ratePerIp: number };
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
  const alarmEmails = (text('alarmEmail') ?? '').split(',').map((email) => email.trim()).filter(Boolean);
  for (const email of alarmEmails) if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new Error(`Context alarmEmail has "${email}", which is not an email address`);

  const domain = { domainName: text('domainName'), certificateArn: text('certificateArn'), hostedZoneId: text('hostedZoneId'), hostedZoneName: text('hostedZoneName') };
  const given = Object.entries(domain).filter(([, value]) => value !== undefined);
  if (given.length && given.length < 4) {
    const missing = Object.entries(domain).filter(([, value]) => value === undefined).map(([name]) => name);
    throw new Error(`A custom domain needs domainName, certificateArn, hostedZoneId and hostedZoneName; missing ${missing.join(', ')}`);
  }
  const wafRate = node.tryGetContext('wafRatePerIp');

  return {
    tableName: text('tableName') ?? 'sales-pipeline',
    alarmEmails,
    logLevel: logLevel as DeploymentOptions['logLevel'],
    debugSampleRate: number('debugSampleRate', 0.01, { max: 1 }),
    throttle: { rateLimit: number('stageRateLimit', 1000, { min: 1 }), burstLimit: number('stageBurstLimit', 2000, { min: 1 }) },
    authorizerCacheTtlSeconds: number('authorizerCacheTtl', 300, { max: 3600 }),
    ...(text('smsOriginationIdentity') ? { smsOriginationIdentity: text('smsOriginationIdentity') } : {}),
    ...(given.length === 4 ? { customDomain: domain as NonNullable<DeploymentOptions['customDomain']> } : {}),
    // AWS WAF's rate-based rules count over 5 minutes and need at least 10 (its minimum).
    ...(wafRate !== undefined ? { waf: { ratePerIp: number('wafRatePerIp', 2000, { min: 10, max: 2_000_000_000 }) } } : {}),
  };
}
