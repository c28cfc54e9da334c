import { afterEach, describe, expect, it, vi } from 'vitest';
import { metrics } from '#shared/metrics';
import { METRIC } from '#shared/observability';
import { currentSession } from '#shared/tenancy/session';
import { routeSessionPolicy, tenantDataPolicy, type PolicyDocument } from '#shared/tenancy/policies';
import { LOCAL_ACCOUNT, LOCAL_REGION } from '../../infra/local/aws-calls';
import { allows, tenantPrincipal } from '../../infra/local/strict-access';
import { useTestApi } from '../../test/support/api';
import { CANARY_ORGANIZATIONS, CANARY_SESSION, handler, proveIsolation } from './isolation-canary';

/** The isolation canary: one organization's session reading another's record must be refused, every run. */
useTestApi();

afterEach(() => vi.restoreAllMocks());

describe('the isolation canary', () => {
  it("is refused its read of another organization's record (here by the strict mode, deployed by IAM), and counts the proof", async () => {
    const counted = vi.spyOn(metrics, 'addMetric');
    vi.spyOn(metrics, 'publishStoredMetrics').mockReturnValue(metrics);
    await expect(proveIsolation()).resolves.toBe('denied');
    await handler();
    expect(counted).toHaveBeenCalledWith(METRIC.isolationProven, 'Count', 1);
  });

  it('signs its read as the signer organization, and reads the target', async () => {
    let signedAs: string | undefined;
    await proveIsolation(async () => {
      signedAs = currentSession()?.organizationId;
      throw Object.assign(new Error('denied'), { name: 'AccessDeniedException' });
    });
    expect(signedAs).toBe(CANARY_ORGANIZATIONS.signer);
    expect(CANARY_ORGANIZATIONS.target).not.toBe(CANARY_ORGANIZATIONS.signer);
  });

  it('fails, counting nothing, when the read is answered: the wall does not hold', async () => {
    const counted = vi.spyOn(metrics, 'addMetric');
    await expect(proveIsolation(async () => ({ Item: { pk: `ORG#${CANARY_ORGANIZATIONS.target}` } }) as never)).rejects.toThrow("One organization's session read another organization's record");
    expect(counted).not.toHaveBeenCalled();
  });

  it('fails when the read fails any other way (a timeout proves nothing)', async () => {
    const timeout = Object.assign(new Error('Request timed out'), { name: 'TimeoutError' });
    await expect(proveIsolation(async () => Promise.reject(timeout))).rejects.toBe(timeout);
    await expect(proveIsolation(async () => Promise.reject(Object.assign(new Error('no'), { name: 'AccessDenied' })))).rejects.toThrow('no');
  });
});

describe("the isolation canary's read, as IAM decides it", () => {
  const { signer, target } = CANARY_ORGANIZATIONS;
  const tableArn = `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/sales-pipeline`;
  const read = { action: 'dynamodb:GetItem', resource: tableArn, leadingKeys: [`ORG#${target}`] };
  const asSigner = (identity: PolicyDocument) => allows(read, { identity, principal: tenantPrincipal(signer), tags: { organizationId: signer } });
  /** The tenant-data role's policy with its organizations' key patterns replaced. */
  const roleWith = (patterns: string[]) => {
    const policy = tenantDataPolicy(tableArn, []);
    return { ...policy, Statement: policy.Statement.map((statement) => ({ ...statement, Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns } } })) };
  };

  it("is allowed by its own session policy, so that the role's policy alone refuses it", () => {
    expect(asSigner(routeSessionPolicy(CANARY_SESSION.grant, tableArn, signer, CANARY_SESSION.sessionKeys))).toBe(true);
    expect(asSigner(tenantDataPolicy(tableArn, []))).toBe(false);
    // A route's session policy would refuse it by itself: the canary would prove nothing of the role.
    expect(asSigner(routeSessionPolicy(CANARY_SESSION.grant, tableArn, signer))).toBe(false);
  });

  it("is allowed, so the canary fails, when the role's policy is opened to every organization or loses its delimiter", () => {
    expect(target.startsWith(signer)).toBe(true);
    expect(asSigner(roleWith(['ORG#*']))).toBe(true);
    expect(asSigner(roleWith(['ORG#${aws:PrincipalTag/organizationId}*']))).toBe(true);
    expect(asSigner(roleWith(['ORG#${aws:PrincipalTag/organizationId}', 'ORG#${aws:PrincipalTag/organizationId}#*']))).toBe(false);
  });
});
