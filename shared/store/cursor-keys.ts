import { createSecretKey, type KeyObject } from 'node:crypto';
import { readSecretVersion } from '../aws/secrets-extension';
import { logger } from '../observability';

/** The signing key's versions: cursors are signed with the current one and checked against both. */
export interface KeyVersions {
  current: string;
  previous?: string;
}

/** How long a container keeps the keys it read: a replaced key signs everywhere within this of its replacement. */
export const CURSOR_KEY_TTL_MS = 5 * 60_000;
/**
 * A cursor none of the known keys signed (one signed by a container that already read a replacement) makes the keys
 * be read again, at most this often: a stream of forged cursors costs one read per 30 s, not one per request.
 */
export const CURSOR_KEY_REREAD_MS = 30_000;

const MIN_LENGTH = 16;
const keyOf = (name: string, secret: string): KeyObject => {
  if (secret.length < MIN_LENGTH) throw new Error(`The cursor signing key (${name}) must be ${MIN_LENGTH} characters or more`);
  // A KeyObject: an HMAC keyed with raw bytes imports them again on every call.
  return createSecretKey(Buffer.from(secret));
};

/**
 * The cursor signing keys, read when first needed and again once CURSOR_KEY_TTL_MS old, so a replaced key takes over
 * without a deploy. Cursors signed by the previous version stay valid until the key is replaced again.
 */
export class CursorKeyring {
  private keys?: { signing: KeyObject; verifying: KeyObject[]; readAtMs: number };
  private reading?: Promise<void>;

  constructor(
    private readonly name: string,
    private readonly read: () => Promise<KeyVersions>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key that signs new cursors. */
  async signingKey(): Promise<KeyObject> {
    return (await this.current()).signing;
  }

  /** Whether one of the keys signed it (`verifies` checks one key); an unknown signature reads the keys again first. */
  async verify(verifies: (key: KeyObject) => boolean): Promise<boolean> {
    const known = await this.current();
    if (known.verifying.some(verifies)) return true;
    if (this.now() - known.readAtMs < CURSOR_KEY_REREAD_MS) return false;
    await this.reread();
    return this.keys!.verifying.some(verifies);
  }

  private async current() {
    if (!this.keys || this.now() - this.keys.readAtMs >= CURSOR_KEY_TTL_MS) await this.reread();
    return this.keys!;
  }

  private reread(): Promise<void> {
    this.reading ??= this.read()
      .then(({ current, previous }) => {
        const signing = keyOf(this.name, current);
        this.keys = { signing, verifying: previous ? [signing, keyOf(this.name, previous)] : [signing], readAtMs: this.now() };
      })
      .catch((error: unknown) => {
        // Keys read before keep working through a failed refresh (a cursor outlives no more than a replacement);
        // with none, the request fails loudly.
        if (!this.keys) throw error;
        logger.warn('cursor signing key not refreshed; the keys read before stay in use', { error });
        this.keys.readAtMs = this.now();
      })
      .finally(() => (this.reading = undefined));
    return this.reading;
  }
}

/** A secret's current and previous values, read through the Parameters and Secrets extension. */
export const secretVersions = (arn: string) => async (): Promise<KeyVersions> => {
  const [current, previous] = await Promise.all([readSecretVersion(arn, 'AWSCURRENT'), readSecretVersion(arn, 'AWSPREVIOUS')]);
  if (current === undefined) throw new Error(`The secret ${arn} (CURSOR_SECRET_ARN) has no current value`);
  return { current, ...(previous !== undefined ? { previous } : {}) };
};

/**
 * The keyring the environment names: CURSOR_SECRET_ARN deployed (the secret's ARN, its value read at run time through
 * the Parameters and Secrets extension, never in the function's configuration), or CURSOR_SECRET under `npm start`,
 * the tests and `sam local` (the value itself). Neither fails loudly, on the first list.
 */
export function keyringFromEnvironment(): CursorKeyring {
  const arn = process.env.CURSOR_SECRET_ARN;
  const local = process.env.CURSOR_SECRET;
  if (arn) return new CursorKeyring('CURSOR_SECRET_ARN', secretVersions(arn));
  if (local) return new CursorKeyring('CURSOR_SECRET', async () => ({ current: local }));
  throw new Error('Missing required environment variable CURSOR_SECRET_ARN (or CURSOR_SECRET, locally: 16 characters or more)');
}
