import { describe, expect, it } from 'vitest';
import { keyringsFromEnvironment, open, seal, sealingWith } from '#shared/envelope-encryption';

// Where a deployed function opens a sealed secret: KMS stands in by a client per region that unwraps a data key only
// with the key material that wrapped it, and only for a key of its own region, as KMS does. No AWS account is needed.

describe('sealed secrets, opened by a deployed function', () => {
  it('are opened in the region of the function: a multi-region key’s by its replica there, when the region that sealed them is gone; a single-region key’s only where it was sealed', async () => {
    const sdk = await import('@aws-crypto/client-node');
    const account = '123456789012';
    const keyIn = (region: string, id: string) => `arn:aws:kms:${region}:${account}:key/${id}`;
    const multiRegion = 'mrk-0123456789abcdef0123456789abcdef';
    /** KMS as the keyrings see it: a data key wrapped by a key is unwrapped by that key's material, in any region that has it. */
    const wrapped = new Map<string, { material: string; plaintext: Uint8Array }>();
    const calls: { region: string; keyId: string }[] = [];
    const kmsIn = (region: string, keyId: string) => ({
      config: { region },
      generateDataKey: async () => {
        const ciphertext = `wrapped-${wrapped.size}`;
        wrapped.set(ciphertext, { material: keyId.split('/').pop()!, plaintext: new Uint8Array(32).fill(wrapped.size + 1) });
        return { KeyId: keyId, Plaintext: new Uint8Array(wrapped.get(ciphertext)!.plaintext), CiphertextBlob: new Uint8Array(Buffer.from(ciphertext)) };
      },
      encrypt: async () => { throw new Error('not called: one key seals'); },
      decrypt: async ({ KeyId, CiphertextBlob }: { KeyId?: string; CiphertextBlob?: Uint8Array }) => {
        calls.push({ region, keyId: KeyId! });
        const found = wrapped.get(Buffer.from(CiphertextBlob!).toString());
        // Only a key of this region answers, and only with the material it was wrapped by.
        if (!found || !KeyId!.startsWith(`arn:aws:kms:${region}:`) || KeyId!.split('/').pop() !== found.material) throw new Error('AccessDeniedException');
        return { KeyId, Plaintext: new Uint8Array(found.plaintext) };
      },
    });
    const deployedIn = (region: string, sealsWith: string) =>
      sealingWith(sdk, keyringsFromEnvironment(sdk, { SECRETS_KEY_ALIAS_ARN: `arn:aws:kms:${region}:${account}:alias/pipeline-secrets` }, true, (asked: string) => kmsIn(asked || region, sealsWith) as never));
    const sealedFor = { organizationId: 'org_dr', itemId: 'webhook_dr', attribute: 'secrets' };

    const sealedByMultiRegion = await seal('whsec_multi_region', sealedFor, deployedIn('us-east-1', keyIn('us-east-1', multiRegion)));
    const sealedBySingleRegion = await seal('whsec_single_region', sealedFor, deployedIn('us-east-1', keyIn('us-east-1', '1111aaaa-2222-3333-4444-555566667777')));
    const inCopyRegion = deployedIn('ap-southeast-4', keyIn('ap-southeast-4', 'another-key'));
    expect(await open(sealedByMultiRegion, sealedFor, inCopyRegion)).toBe('whsec_multi_region');
    expect(calls).toEqual([{ region: 'ap-southeast-4', keyId: keyIn('ap-southeast-4', multiRegion) }]);
    await expect(open(sealedBySingleRegion, sealedFor, inCopyRegion)).rejects.toThrow();
    // Not even asked: the single-region key is in the other region, which the keyring does not call.
    expect(calls).toHaveLength(1);
    expect(await open(sealedBySingleRegion, sealedFor, deployedIn('us-east-1', keyIn('us-east-1', 'unused')))).toBe('whsec_single_region');
  });
});
