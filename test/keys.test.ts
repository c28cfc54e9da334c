import { describe, expect, it } from 'vitest';
import { keys, keySamples, SAMPLE_ORGANIZATION_ID } from '#shared/store/keys';
import { sourceLimitKeys, sourceLimitKeySamples } from '#shared/limits/per-source';
import { resources } from '../functions/resources';

const O = SAMPLE_ORGANIZATION_ID;

/**
 * Every set of key builders of the table with its samples: one call of every builder, as the code calls it. The
 * shared keys (counters, sequences, idempotency, API keys) and each resource's own, exported by its entity module
 * next to the builders and listed in its description (functions/<resource>/resource.ts). A builder added without a sample does not compile, and fails the last test.
 */
const BUILDERS: [builders: object, samples: Readonly<Record<string, () => object>>][] = [
  [keys, keySamples],
  [sourceLimitKeys, sourceLimitKeySamples],
  ...resources.flatMap((resource) => (resource.keys ?? []).map(({ builders, samples }) => [builders, samples] as [object, Readonly<Record<string, () => object>>])),
];

const SAMPLES: Record<string, () => object> = Object.assign({}, ...BUILDERS.map(([, samples]) => samples));

/**
 * The named exceptions: the authorizer finds a key's organization from its token, an inbound SMS from the number it
 * was sent to, an inbound post from its endpoint id, the sweep of unanswered SMS serves every organization at
 * once, the token endpoint and the authorizer find an OAuth code or token from its value, and a client registered by
 * dynamic registration belongs to no organization (any may grant it), and an anonymous caller's requests are counted
 * by its address or client id, which name none, and a person signing in to the console presents a phone, a code or a
 * passkey, which name none either, and a passkey's credential id is claimed across every organization. Their
 * partitions cannot start with the organization.
 */
const WITHOUT_ORGANIZATION = {
  apiKeyByTokenHash: { gsi1pk: 'TOKEN#abc', gsi1sk: 'KEY' },
  smsNumberClaim: { pk: 'SMSNUMBER#+61412345678', sk: 'CLAIM' },
  inboundEndpointById: { gsi1pk: 'INBOUND#inbound_1', gsi1sk: 'ENDPOINT' },
  smsAwaitingProvider: { gsi1pk: 'SMSQUEUED#2', gsi1sk: '2026-12-01T00:00:00.000Z#message_1' },
  secretByHash: { gsi1pk: 'TOKEN#abc', gsi1sk: 'OAUTH' },
  registeredClient: { pk: 'OAUTHCLIENT#client_1', sk: 'CLIENT' },
  sourceWindow: { pk: 'SOURCELIMIT#sign-up-minute#192.0.2.1', sk: 'WINDOW#1700000000000' },
  // A person signing in presents a phone, a code or a passkey, none of which names an organization.
  memberByPhone: { gsi1pk: 'MEMBERPHONE#+61412345678', gsi1sk: `ORG#${O}#MEMBER#0000000001` },
  membersByPhone: { pk: 'MEMBERPHONE#+61412345678', skPrefix: 'ORG#' },
  signInCode: { pk: 'SIGNIN#abc', sk: 'CODE' },
  signInChallenge: { pk: 'SIGNIN#CHALLENGE#abc', sk: 'CHALLENGE' },
  passkeyByCredential: { gsi1pk: 'PASSKEY#cred_1', gsi1sk: 'PASSKEY' },
  // A credential id is one member's across every organization (WebAuthn §7.1 step 22): its claim names none.
  credentialClaim: { pk: 'CREDENTIAL#cred_1', sk: 'CLAIM' },
} as const;

describe('every key the table is written and read with', () => {
  it.each(Object.entries(SAMPLES).filter(([name]) => !(name in WITHOUT_ORGANIZATION)))('%s: every partition key starts with the organization', (_, sample) => {
    const built = sample();
    const partitions = Object.entries(built).filter(([attribute]) => attribute === 'pk' || /^gsi\dpk$/.test(attribute));
    expect(partitions.length).toBeGreaterThan(0);
    for (const [attribute, value] of partitions) expect(String(value), attribute).toMatch(new RegExp(`^ORG#${O}(#|$)`));
  });

  it.each(Object.entries(WITHOUT_ORGANIZATION))('%s: a named exception, keyed by exactly what its caller knows and nothing of an organization', (name, expected) => {
    expect(SAMPLES[name]!()).toEqual(expected);
  });

  it('has a sample for every key builder, and no two builders share a name', () => {
    for (const [builders, samples] of BUILDERS) expect(Object.keys(samples).sort()).toEqual(Object.keys(builders).sort());
    const names = BUILDERS.flatMap(([builders]) => Object.keys(builders));
    expect(Object.keys(SAMPLES).sort()).toEqual(names.sort());
  });
});
