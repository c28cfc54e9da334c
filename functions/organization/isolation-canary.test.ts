import { afterEach, describe, expect, it, vi } from 'vitest';
import { metrics } from '#shared/metrics';
import { METRIC } from '#shared/observability';
import { currentSession } from '#shared/tenancy/session';
import { useTestApi } from '../../test/support/api';
import { CANARY_ORGANIZATIONS, handler, proveIsolation } from './isolation-canary';

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
