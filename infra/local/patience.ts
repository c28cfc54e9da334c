import type { MiddlewareStack } from '@smithy/types';
import { isTransientStoreError } from '#shared/store/transient';

/**
 * `npm start`'s patience with a DynamoDB Local that is slow to answer. On a busy machine a cold JVM takes tens of
 * seconds to start and then answers its first requests slowly (it is still compiling them), past the store client's
 * 3 s request timeout and its three attempts. Start-up is worth waiting for: it retries such a failure with backoff
 * and says what it waits for, up to a deadline after which it fails in one line.
 */

/** How long start-up waits for DynamoDB Local, in seconds, unless START_TIMEOUT says otherwise. */
export const DEFAULT_START_TIMEOUT_SECONDS = 180;

/** Backoff between start-up's attempts: from a quarter second, doubling, at most 5 s. */
export const backoffMs = (attempt: number): number => Math.min(5_000, 250 * 2 ** attempt);

/** Start-up could not reach a working DynamoDB Local in time; the message is the one line to show. */
export class StartUpTimeout extends Error {}

/** The error's name and first line: what a waiting line or a failure's one line quotes. */
export const briefly = (error: unknown): string => {
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  const first = message.split('\n')[0]!.trim();
  return first && first !== name ? `${name}: ${first}` : name;
};

export interface Patience {
  /** When start-up gives up, in epoch milliseconds. */
  deadline: number;
  /** The seconds it was given, for the message. */
  seconds: number;
  /** Prints one line of progress. */
  say: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds, retrying while the store is unavailable with backoff (saying so each time), up to
 * the deadline. Any other error is thrown as it is.
 */
export async function patiently<T>(doing: string, attempt: () => Promise<T>, { deadline, seconds, say, sleep = sleepFor }: Patience): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransientStoreError(error)) throw error;
      const wait = backoffMs(retry);
      if (Date.now() + wait > deadline) throw new StartUpTimeout(`DynamoDB Local did not answer within ${seconds} s (${doing}: ${briefly(error)}); is the machine overloaded? START_TIMEOUT gives it longer.`);
      say(`waiting for DynamoDB Local (${doing}: ${briefly(error)}; retrying in ${(wait / 1000).toFixed(1)} s)…`);
      await sleep(wait);
    }
  }
}

/** What start-up is doing now, while it is patient: set by `npm start` for each step, and cleared once it is up. */
let starting: (Patience & { doing: string }) | undefined;

/** From now until `startedUp`, the calls of every patient client are retried as `patiently` does, said as `doing`. */
export function startingUp(doing: string, patience: Patience): void {
  starting = { ...patience, doing };
}

export function startedUp(): void {
  starting = undefined;
}

/**
 * Makes a client's calls patient while start-up is (`startingUp`), and leaves them as they are otherwise: for the
 * local clients, the stream reader's and the service's own store client, which the demo seed writes through. A retry
 * sends the same serialized request again (the `build` step is after serialization), as the SDK's own retries do, so
 * a transaction keeps its ClientRequestToken and a seed's write is that write again, not a second demo.
 */
export function patientWhileStartingUp(stack: MiddlewareStack<any, any>): void {
  stack.add((next) => (args) => (starting ? patiently(starting.doing, () => next(args), starting) : next(args)), { step: 'build', name: 'patientWhileStartingUp', override: true });
}
