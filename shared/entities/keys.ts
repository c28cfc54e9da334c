/**
 * Every key format of the single table, in one place. Each partition key starts with the
 * organization, so no access pattern can reach another organization's items.
 * docs/data-model.md lists which endpoint uses which key.
 */
const org = (organizationId: string) => `ORG#${organizationId}`;

/** Integer ids sort as text when zero-padded, so a descending query is newest first. */
export const pad = (n: number) => String(n).padStart(10, '0');

export interface Key {
  pk: string;
  sk: string;
}

export const keys = {
  organization: (o: string): Key => ({ pk: org(o), sk: 'ORGANIZATION' }),
  apiKey: (o: string, keyId: string): Key => ({ pk: org(o), sk: `KEY#${keyId}` }),
  /** gsi1: token hash → key item, for the authorizer. */
  apiKeyByTokenHash: (hash: string) => ({ gsi1pk: `TOKEN#${hash}`, gsi1sk: 'KEY' }),

  counter: (o: string, name: string): Key => ({ pk: org(o), sk: `COUNT#${name}` }),
  sequence: (o: string, kind: string): Key => ({ pk: org(o), sk: `SEQ#${kind}` }),

  lead: (o: string, leadId: string): Key => ({ pk: org(o), sk: `LEAD#${leadId}` }),
  leadPrefix: (o: string) => ({ pk: org(o), skPrefix: 'LEAD#' }),
  activity: (o: string, leadId: string, id: number): Key => ({ pk: `${org(o)}#LEAD#${leadId}`, sk: `ACTIVITY#${pad(id)}` }),
  activityPrefix: (o: string, leadId: string) => ({ pk: `${org(o)}#LEAD#${leadId}`, skPrefix: 'ACTIVITY#' }),
} as const;
