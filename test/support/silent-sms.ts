import { setSmsSender } from '../../functions/sms/sender';

/**
 * Runs with a provider that accepts every SMS and never reports on it, so a message stays as the send left it until
 * a test applies a receipt: the local carrier's receipt, 100 ms after a send, would otherwise race what the test reads.
 */
export async function withSilentProvider<T>(run: () => Promise<T>): Promise<T> {
  let n = 0;
  const previous = setSmsSender({ name: 'silent', send: async () => ({ providerMessageId: `silent-${Date.now()}-${++n}` }) });
  try {
    return await run();
  } finally {
    setSmsSender(previous);
  }
}
