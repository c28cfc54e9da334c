/**
 * What every key of the single table is built from, and the keys no one resource owns: counters, sequences,
 * idempotency records and API keys. Each resource's own keys are in its folder (`functions/<resource>/entity.ts`),
 * each base-table partition starting with `organizationPartition`, so no access pattern can reach another
 * organization's items. docs/data-model.md lists which endpoint uses which key.
 */

/** The partition every organization's items start with: `ORG#<organizationId>`. */
export const organizationPartition = (organizationId: string) => `ORG#${organizationId}`;

const org = organizationPartition;

/** Integer ids sort as text when zero-padded, so a descending query is newest first. */
export const pad = (n: number) => String(n).padStart(10, '0');

/**
 * The item of a record numbered within its organization (a product, an FAQ), in the organization's partition:
 * `<KIND>#<id>`, zero-padded so the kind's records sort by id.
 */
export const numberedKey =
  (kind: string) =>
  (organizationId: string, id: number): Key => ({ pk: org(organizationId), sk: `${kind}#${pad(id)}` });

/** Every record of a kind `numberedKey` places: the sort keys starting `<KIND>#`. */
export const recordsOfKind =
  (kind: string) =>
  (organizationId: string): Collection => ({ pk: org(organizationId), skPrefix: `${kind}#` });

/**
 * The claim of a text no two records of a kind share, ignoring case and spacing (`normalizeName`): `<KIND>#<text>`,
 * in the organization's partition, which the record that has the text holds.
 */
export const textClaimKey =
  (kind: string) =>
  (organizationId: string, text: string): Key => ({ pk: org(organizationId), sk: `${kind}#${normalizeName(text)}` });

/**
 * An item's keys in several indexes under one sort key (its id, newest first): `<index>pk` the partition given for
 * each index, `<index>sk` the key.
 */
export function indexKeysSortedBy<I extends string>(sk: string, partitions: Record<I, string>): { [K in I as `${K}pk` | `${K}sk`]: string } {
  return Object.fromEntries(Object.entries(partitions).flatMap(([index, pk]) => [[`${index}pk`, pk], [`${index}sk`, sk]])) as { [K in I as `${K}pk` | `${K}sk`]: string };
}

/** A member's item: the organization's, and here because other resources name members by id (a service's memberIds). */
export const memberKey = numberedKey('MEMBER');

/**
 * Names are unique per organization ignoring case, spacing and invisible characters, however their
 * letters were composed: NFC; a zero-width space, which marks a break between words, read as a space; every other
 * format character (a soft hyphen, a joiner, a byte order mark), which sits inside a word, left out; runs of space as one.
 */
export const normalizeName = (name: string) =>
  name
    .normalize('NFC')
    .replace(/(?!\u200B)\p{Cf}/gu, '')
    .replace(/[\s\u200B]+/gu, ' ')
    .trim()
    .toLowerCase();

/**
 * Letters Unicode does not write as a base letter and a mark (so dropping marks leaves them), read as the letters a
 * keyboard types for them. Greek's final sigma is its sigma: lower-casing writes Σ as ς at the end of the text, so a
 * prefix typed in capitals (ΚΩΣ) ends in ς where the name (Κώστας) has σ.
 */
const FOLDED: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ħ: 'h', ı: 'i', ŧ: 't', æ: 'ae', œ: 'oe', ß: 'ss', þ: 'th', ð: 'd', ς: 'σ' };
const FOLDABLE = new RegExp(`[${Object.keys(FOLDED).join('')}]`, 'gu');
/** Apostrophes, whichever was typed (O'Brien, O’Brien, Oʼbrien): left out, so `obrien` finds them too. */
const APOSTROPHES = /['’‘ʼ′`]/gu;
/** Hyphens and dashes read as the space between the words they join: `anne marie` finds Anne-Marie. */
const HYPHENS = /[-‐‑‒–—]/gu;

/**
 * What a search prefix is compared on: letters without their accents (é → e, ü → u, ø → o, ł → l), lower-cased,
 * without apostrophes, hyphens as spaces, runs of space as one. A name's key and the prefix searched for are both read
 * so, so `zoe` finds Zoë, `MÜL` finds Müller, `o'brien` and `obrien` find O’Brien, and `anne m` finds Anne-Marie.
 */
export const searchKey = (text: string) =>
  normalizeName(text)
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(FOLDABLE, (letter) => FOLDED[letter]!)
    .replace(APOSTROPHES, '')
    .replace(HYPHENS, ' ')
    .replace(/ +/g, ' ')
    .trim()
    .normalize('NFC');

export interface Key {
  pk: string;
  sk: string;
}

/** A collection to query: a partition and, optionally, a sort-key prefix. */
export interface Collection {
  pk: string;
  skPrefix?: string;
}

/**
 * One call of every builder of a set of key builders, as the code calls them, for the organization
 * `SAMPLE_ORGANIZATION_ID`: test/keys.test.ts checks each partition they build starts with it. Typed so that a
 * builder added without a sample does not compile.
 */
export type KeySamples<Builders> = { [K in keyof Builders]: () => object };

/** What a builder takes after the organization. */
type ArgumentsAfterOrganization<B> = B extends (organizationId: string, ...rest: infer A) => object ? A : never;

/**
 * A set of builders' samples from what each is called with after the organization: `faq: [1]` samples
 * `faq(SAMPLE_ORGANIZATION_ID, 1)`. Typed as KeySamples is: a builder without its arguments does not compile.
 */
export function keySamplesOf<Builders extends Record<string, (organizationId: string, ...rest: never[]) => object>>(builders: Builders, args: { [K in keyof Builders]: ArgumentsAfterOrganization<Builders[K]> }): KeySamples<Builders> {
  return Object.fromEntries(Object.entries(args).map(([name, rest]) => [name, () => builders[name]!(SAMPLE_ORGANIZATION_ID, ...(rest as never[]))])) as KeySamples<Builders>;
}

const counterPartitions: Array<{ pattern: RegExp; partition: (organizationId: string, match: RegExpExecArray) => string }> = [];

/**
 * Declares counters kept in a partition of their own record (a lead's activity counter beside its activities)
 * rather than the organization's: every create of a busy organization writes a new one, and in the organization's
 * partition their time-ordered names would all land at one hot end of it. The entity module that names the counters
 * declares them as it loads, as `shardCounters` does.
 */
export function countInPartition(pattern: RegExp, partition: (organizationId: string, match: RegExpExecArray) => string): void {
  counterPartitions.push({ pattern, partition });
}

function partitionOfCounter(organizationId: string, name: string): string {
  for (const { pattern, partition } of counterPartitions) {
    const match = pattern.exec(name);
    if (match) return partition(organizationId, match);
  }
  return org(organizationId);
}

/** The organization the key samples are built for. */
export const SAMPLE_ORGANIZATION_ID = 'org_01JA0000000000000000000000';

export const keys = {
  apiKey: (o: string, keyId: string): Key => ({ pk: org(o), sk: `KEY#${keyId}` }),
  apiKeys: (o: string): Collection => ({ pk: org(o), skPrefix: 'KEY#' }),
  /** gsi1: token hash → key item, for the authorizer. */
  apiKeyByTokenHash: (hash: string) => ({ gsi1pk: `TOKEN#${hash}`, gsi1sk: 'KEY' }),

  /**
   * A counter item (`COUNT#<name>`), kept in step with its collection inside the same transaction; lists read it
   * for totalCount. Each resource names its own counters (`leadCounterNames`, …) in its entity module. A counter of
   * one record's collection may sit in that record's own partition (`countInPartition`).
   */
  counter: (o: string, name: string): Key => ({ pk: partitionOfCounter(o, name), sk: `COUNT#${name}` }),
  /** Shard `shard` of a sharded counter: shard 0 is the counter's own item; the others sit in partitions of their own. */
  counterShard: (o: string, name: string, shard: number): Key => (shard === 0 ? keys.counter(o, name) : { pk: `${org(o)}#SHARD#${shard}`, sk: `COUNT#${name}` }),
  sequence: (o: string, kind: string): Key => ({ pk: org(o), sk: `SEQ#${kind}` }),

  /**
   * gsi6: a collection's change log (`updatedSince`), sorted by the items' own updatedAt. Each resource names its
   * collections' logs (`LEADS`, `NOTES#<companyId>`) beside its item mapping.
   */
  changeLog: (o: string, collection: string) => ({ gsi6pk: `${org(o)}#CHANGES#${collection}` }),

  /** A request's Idempotency-Key and the answer it got, per organization. */
  idempotency: (o: string, key: string): Key => ({ pk: org(o), sk: `IDEMPOTENCY#${key}` }),
  /**
   * A part of a large kept answer beyond the first. Its number comes before the client's key, so no key (any printable
   * text, `#` included) names another key's part or record.
   */
  idempotencyPart: (o: string, key: string, part: number): Key => ({ pk: org(o), sk: `IDEMPOTENCY_PART#${part}#${key}` }),
} as const;

/** An entity item's change log attribute (sync's `updatedSince`), kept in this module of keys alone so entity modules import no client. */
export const changeLogKey = keys.changeLog;

const O = SAMPLE_ORGANIZATION_ID;

export const keySamples: KeySamples<typeof keys> = {
  apiKey: () => keys.apiKey(O, 'key_1'),
  apiKeys: () => keys.apiKeys(O),
  apiKeyByTokenHash: () => keys.apiKeyByTokenHash('abc'),
  counter: () => keys.counter(O, 'EXAMPLES'),
  counterShard: () => keys.counterShard(O, 'EXAMPLES', 3),
  sequence: () => keys.sequence(O, 'EXAMPLE'),
  changeLog: () => keys.changeLog(O, 'EXAMPLES'),
  idempotency: () => keys.idempotency(O, 'k'),
  idempotencyPart: () => keys.idempotencyPart(O, 'k', 1),
};
