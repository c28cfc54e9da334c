import { AsyncLocalStorage } from 'node:async_hooks';
import type { TableGrant } from './policies';

/**
 * The organization a piece of work acts for, and what its route does with the table. Set around a keyed route's whole
 * request (shared/http/route-handler.ts), so every DynamoDB and KMS call made for it, however deep, is signed with
 * credentials for that organization alone (./credentials.ts). Work outside any request (the workers, the stream
 * consumer, the public routes before an organization is known) has none, and runs as its function's own role.
 */
export interface TenantSession {
  organizationId: string;
  /** Which grant this is (the route's id): a process serving several routes (the local server) keeps one session each. */
  grantName: string;
  grant: TableGrant;
  /**
   * The partition keys its session policy allows: its organization's unless named. The isolation canary names every
   * organization's, so that the tenant-data role's policy alone stands between it and another organization's item.
   */
  sessionKeys?: readonly string[];
  /** The one item whose sealed secrets the session may open, when it is for one item's (an inbound post's endpoint). */
  itemId?: string;
}

const current = new AsyncLocalStorage<TenantSession>();

/** Runs `work` as `session`'s organization: every AWS call it makes is signed for that organization. */
export const actingFor = <T>(session: TenantSession, work: () => T): T => current.run(session, work);

/** The session of the work under way, if it acts for an organization. */
export const currentSession = (): TenantSession | undefined => current.getStore();

/** What a container's sessions do that is counted: an AssumeRole made, or one STS refused (shared/tenancy/credentials.ts). */
export type SessionEvent = 'assumed' | 'refused';
const listeners = new Set<(event: SessionEvent) => void>();

/** Hears each session event: the route handler counts them as metrics, where Powertools Metrics is loaded anyway. */
export const onSessionEvent = (listener: (event: SessionEvent) => void): void => void listeners.add(listener);
export const sessionEvent = (event: SessionEvent): void => listeners.forEach((listener) => listener(event));
