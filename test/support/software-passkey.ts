import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A passkey made in the test, as an authenticator would hold it: a P-256 key pair and a credential id, answering the
 * API's WebAuthn options with what a browser's `startRegistration` and `startAuthentication` give (attestation
 * `none`, signatures ES256). It can also answer as no conforming authenticator would (the person unverified, another
 * site's relying party, a credential id chosen), so the API's refusals of those are testable without a browser.
 */

/** The CBOR values WebAuthn's answers hold. */
type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

/** A CBOR item's head: its major type and its length or value (RFC 8949 §3). */
function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value]);
  const bytes = Buffer.alloc(value < 0x10000 ? 3 : 5);
  bytes[0] = (major << 5) | (value < 0x10000 ? 25 : 26);
  if (value < 0x10000) bytes.writeUInt16BE(value, 1);
  else bytes.writeUInt32BE(value, 1);
  return bytes;
}

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest();
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** Authenticator data's flags: the user present, verified, and (at registration) a credential attached. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/** How an answer is made: the person verified (a fingerprint, a PIN) unless told, for the options' relying party unless told. */
export interface Answering {
  userVerified?: boolean;
  rpId?: string;
}

export class SoftwarePasskey {
  readonly id: string;
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private counter = 0;
  private userHandle: string | undefined;

  /** A passkey for `origin` (the API's, where the console is); its credential id 32 random bytes unless given. */
  constructor(
    readonly origin: string,
    id?: string,
  ) {
    this.id = id ?? b64url(randomBytes(32));
  }

  private get rpId() {
    return new URL(this.origin).hostname;
  }

  private authenticatorData(rpId: string, flags: number, attested?: Buffer): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** What `startRegistration` answers to the enrolment's options (`POST /v1/me/passkey-options`). */
  register(options: { challenge: string; user?: { id?: string } }, { userVerified = true, rpId = this.rpId }: Answering = {}) {
    this.userHandle = options.user?.id;
    const { x, y } = this.keys.publicKey.export({ format: 'jwk' });
    // The COSE key: EC2 (1: 2), ES256 (3: -7), P-256 (-1: 1), and its coordinates.
    const publicKey = cbor(new Map<number, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(x!, 'base64url')], [-3, Buffer.from(y!, 'base64url')]]));
    const credentialId = Buffer.from(this.id, 'base64url');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), length, credentialId, publicKey]);
    const authData = this.authenticatorData(rpId, UP | AT | (userVerified ? UV : 0), attested);
    const attestationObject = cbor(new Map<string, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  /** What `startAuthentication` answers to a sign-in's challenge (`POST /v1/sign-in/passkey-options`): signed, its counter moved on. */
  assert(challenge: string, { userVerified = true, rpId = this.rpId }: Answering = {}) {
    this.counter += 1;
    const authData = this.authenticatorData(rpId, UP | (userVerified ? UV : 0));
    const clientData = this.clientData('webauthn.get', challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature), ...(this.userHandle ? { userHandle: this.userHandle } : {}) },
      clientExtensionResults: {},
    };
  }
}
