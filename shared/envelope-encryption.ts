import type { KeyringNode, NodeCachingMaterialsManager, NodeMaterialsManager } from '@aws-crypto/client-node';
import { SECRETS_KEY_VARIABLES } from './sealing-key';
import { runsInLambda } from './runs-in-lambda';
import { requestCredentials } from './tenancy/credentials';

/**
 * Tenants' secrets (webhook signing secrets, inbound endpoints' secrets and platform keys) as the table holds them:
 * envelope-encrypted by the AWS Encryption SDK, each under a data key the key encryption key wraps, and bound to the
 * item and attribute it belongs to by the encryption context. Deployed, the key encryption key is the
 * customer-managed KMS key `SECRETS_KEY_ALIAS_ARN` names; under `npm start` and the tests, the local AES key
 * `SECRETS_LOCAL_KEY` holds (base64 of 32 bytes). The same code seals and opens either way: only the keyring differs.
 * docs/decisions/security.md says why this SDK.
 */

/** A sealed secret: the Encryption SDK's message, stored as a binary attribute (a value written before is a string). */
export type Sealed = Uint8Array<ArrayBuffer>;

/** What a secret is bound to: its organization, its item's id and the attribute holding it. */
export interface SealedFor {
  organizationId: string;
  itemId: string;
  attribute: string;
}

/** A sealed secret that does not belong where it was read (another item's or organization's): as a wrong secret, never a 500. */
export class SecretNotOpened extends Error {}

/**
 * The Encryption SDK, loaded at a function's first secret rather than at its cold start: the functions of a module
 * that seal or open none (a list, a read) never evaluate it, and their bundles keep it in a chunk their import does not
 * parse (infra/cdk/bundling.ts). It is a CommonJS package: imported from that chunk, as by Node, its exports are the
 * namespace's `default`.
 */
type Sdk = typeof import('@aws-crypto/client-node');
let loading: Promise<Sdk> | undefined;
const sdk = () => (loading ??= import('@aws-crypto/client-node').then((loaded) => (loaded as { default?: Sdk }).default ?? loaded));

/** The KMS client of a region the keyrings call: the SDK's own unless a test hands them one. */
type KmsClients = NonNullable<Parameters<Sdk['buildAwsKmsMrkAwareDiscoveryMultiKeyringNode']>[0]['clientProvider']>;

/**
 * The KMS clients the keyrings call, one per region, each signing as the container's other clients do
 * (shared/tenancy/credentials.ts): for the request's organization when one acts, whose session may use the key only
 * for secrets whose encryption context names that organization; else as the function (a worker, a public route).
 */
export const kmsClientsSigningWith = (loaded: Sdk, credentials: typeof requestCredentials = requestCredentials, endpoint?: string): KmsClients =>
  loaded.cacheClients(loaded.getClient(loaded.KMS, { credentials, ...(endpoint ? { endpoint } : {}) }));

/** A call to the key as KMS receives it deployed: its action and the encryption context IAM's conditions read. */
export interface KeyUse {
  action: 'kms:GenerateDataKey' | 'kms:Decrypt';
  encryptionContext: Record<string, string>;
}
const keyUseListeners = new Map<string, (use: KeyUse) => void>();

/**
 * Hears each seal and open as the call to the key it makes deployed (or would, past the data key cache): the local
 * strict mode evaluates it as IAM would (infra/local/strict-access.ts), where the local key makes no call to check.
 * A listener is named: one registered again under its name replaces the one before.
 */
export const onKeyUse = (name: string, listener: (use: KeyUse) => void): void => void keyUseListeners.set(name, listener);
const keyUse = (use: KeyUse) => keyUseListeners.forEach((listener) => listener(use));

/**
 * How long, and for how many secrets, a container reuses a data key it was handed: the cache is keyed by the
 * encryption context (an item's), so a worker signing a subscription's deliveries opens its secret with one KMS
 * call per 5 minutes, not one per delivery.
 */
export const DATA_KEY_CACHE = { maxAgeMs: 5 * 60_000, maxMessagesEncrypted: 100, entries: 1000 } as const;

/**
 * The keyrings the environment names, read once: KMS keyrings deployed (sealing by the key's alias, opening what a key
 * of the account sealed, the IAM policy holding each function to the keys of the secrets' aliases), or a raw AES keyring
 * with the local key. Neither, both, a local key in Lambda or one that is not 32 bytes stops the function loudly, at
 * its first secret. `clientProvider` stands in for KMS in tests: deployed, a client per region signs as `kmsClientsSigningWith`.
 */
export function keyringsFromEnvironment(loaded: Sdk, env: NodeJS.ProcessEnv = process.env, lambda = runsInLambda(env), clientProvider: KmsClients = kmsClientsSigningWith(loaded)): { sealing: KeyringNode; opening: KeyringNode } {
  const { KmsKeyringNode, RawAesKeyringNode, RawAesWrappingSuiteIdentifier, buildAwsKmsMrkAwareDiscoveryMultiKeyringNode } = loaded;
  const aliasArn = env[SECRETS_KEY_VARIABLES.deployed];
  const localKey = env[SECRETS_KEY_VARIABLES.local];
  if (aliasArn && localKey) throw new Error(`${SECRETS_KEY_VARIABLES.deployed} and ${SECRETS_KEY_VARIABLES.local} are both set: secrets are sealed by one key`);
  if (aliasArn) {
    const [, partition, , region, account] = aliasArn.split(':');
    if (!partition || !region || !account || !/:alias\/./.test(aliasArn)) throw new Error(`${SECRETS_KEY_VARIABLES.deployed} must be a KMS alias ARN (arn:aws:kms:<region>:<account>:alias/<name>), not ${aliasArn}`);
    // Opening asks the key in the function's own region (the alias's): a single-region key's secret is opened where it
    // was sealed, and a multi-region key's (mrk-…) by its replica here, when the region that sealed it is gone.
    const opening = buildAwsKmsMrkAwareDiscoveryMultiKeyringNode({ regions: [region], discoveryFilter: { accountIDs: [account], partition }, clientProvider });
    return { sealing: new KmsKeyringNode({ generatorKeyId: aliasArn, clientProvider }), opening };
  }
  if (localKey) {
    if (lambda) throw new Error(`${SECRETS_KEY_VARIABLES.local} is refused in Lambda: deployed, secrets are sealed by the KMS key (${SECRETS_KEY_VARIABLES.deployed})`);
    // Its own buffer: the SDK refuses a key in a slice of Node's shared pool.
    const key = new Uint8Array(Buffer.from(localKey, 'base64'));
    if (key.length !== 32) throw new Error(`${SECRETS_KEY_VARIABLES.local} must be base64 of 32 bytes (an AES-256 key); it is ${key.length} bytes`);
    const keyring = new RawAesKeyringNode({ keyName: 'local', keyNamespace: 'sales-pipeline', unencryptedMasterKey: key, wrappingSuite: RawAesWrappingSuiteIdentifier.AES256_GCM_IV12_TAG16_NO_PADDING });
    return { sealing: keyring, opening: keyring };
  }
  throw new Error(`Missing required environment variable ${SECRETS_KEY_VARIABLES.deployed} (or ${SECRETS_KEY_VARIABLES.local}, locally: base64 of 32 bytes)`);
}

/** The SDK's client and the caching materials managers over a pair of keyrings. */
export interface Sealing {
  encrypt: ReturnType<Sdk['buildClient']>['encrypt'];
  decrypt: ReturnType<Sdk['buildClient']>['decrypt'];
  /** No signing suite: the key that seals is the key that opens, and nothing else reads the secrets. */
  suiteId: Sdk['AlgorithmSuiteIdentifier']['ALG_AES256_GCM_IV12_TAG16_HKDF_SHA512_COMMIT_KEY'];
  sealing: NodeCachingMaterialsManager;
  opening: NodeCachingMaterialsManager;
}

/** Sealing and opening through the caching materials managers over these keyrings (a data key kept per DATA_KEY_CACHE). */
export function sealingWith(loaded: Sdk, keyrings: { sealing: KeyringNode; opening: KeyringNode }): Sealing {
  const { buildClient, CommitmentPolicy, AlgorithmSuiteIdentifier, NodeCachingMaterialsManager, getLocalCryptographicMaterialsCache } = loaded;
  const cache = getLocalCryptographicMaterialsCache(DATA_KEY_CACHE.entries);
  const cached = (keyring: KeyringNode, partition: string) =>
    new NodeCachingMaterialsManager({ backingMaterials: keyring, cache, partition, maxAge: DATA_KEY_CACHE.maxAgeMs, maxMessagesEncrypted: DATA_KEY_CACHE.maxMessagesEncrypted });
  const { encrypt, decrypt } = buildClient({ commitmentPolicy: CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT, maxEncryptedDataKeys: 1 });
  return { encrypt, decrypt, suiteId: AlgorithmSuiteIdentifier.ALG_AES256_GCM_IV12_TAG16_HKDF_SHA512_COMMIT_KEY, sealing: cached(keyrings.sealing, 'sealing'), opening: cached(keyrings.opening, 'opening') };
}

let made: Promise<Sealing> | undefined;

/** Sealing with the environment's keyrings, made at the first secret and kept by the container. */
const sealing = () => (made ??= sdk().then((loaded) => sealingWith(loaded, keyringsFromEnvironment(loaded))));

const contextOf = ({ organizationId, itemId, attribute }: SealedFor): Record<string, string> => ({ organizationId, itemId, attribute });

/** The secret sealed for its item: only a function granted the key opens it, and only as read from that item. */
export async function seal(plaintext: string, sealedFor: SealedFor, using: Sealing | Promise<Sealing> = sealing()): Promise<Sealed> {
  const { encrypt, sealing: materials, suiteId } = await using;
  const encryptionContext = contextOf(sealedFor);
  keyUse({ action: 'kms:GenerateDataKey', encryptionContext });
  const { result } = await encrypt(materials, Buffer.from(plaintext, 'utf8'), { encryptionContext, suiteId });
  return new Uint8Array(result);
}

/**
 * The secret a sealed value holds, on condition it was sealed for this item and attribute: a value copied from another
 * item or organization throws SecretNotOpened, which its caller answers as a wrong secret.
 */
export async function open(sealed: Sealed, sealedFor: SealedFor, using: Sealing | Promise<Sealing> = sealing()): Promise<string> {
  // A key that cannot be reached throws as it is (the request fails, or the job comes back): only a secret that is
  // not this item's is a wrong one.
  const { decrypt, opening } = await using;
  const expected = contextOf(sealedFor);
  // Checked from the message's header before the key is asked: a session's call to the key holds only for its own
  // organization's secrets, so one sealed for another must be refused here, as a wrong secret, not by KMS.
  const forThisItem: NodeMaterialsManager = {
    getEncryptionMaterials: (request) => opening.getEncryptionMaterials(request),
    decryptMaterials: (request) => {
      const found = request.encryptionContext;
      if (Object.keys(expected).some((name) => found[name] !== expected[name])) throw new SecretNotOpened(`The secret was sealed for another ${sealedFor.attribute}`);
      keyUse({ action: 'kms:Decrypt', encryptionContext: found });
      return opening.decryptMaterials(request);
    },
  };
  const { plaintext } = await decrypt(forThisItem, sealed);
  return plaintext.toString('utf8');
}

/** Whether a stored value is sealed (a binary attribute); a string is a secret written before sealing, read as is. */
export const isSealed = (value: unknown): value is Sealed => value instanceof Uint8Array;

/** A stored secret as its plain value: sealed ones opened for their item, one written before sealing as it is. */
export const opened = (stored: string | Sealed, sealedFor: SealedFor): Promise<string> => (isSealed(stored) ? open(stored, sealedFor) : Promise.resolve(stored));
