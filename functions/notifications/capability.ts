import type { Capability } from '#shared/routes/route';
import { opensSecrets } from '#shared/sealing-key';

/**
 * Sending Web Push: the contact push services may write to about this sender (VAPID's `sub`), the operator's alarm
 * address when the stack has one; the messages themselves go to the push services' public https endpoints.
 */
const webPushSender: Capability = {
  name: 'webPushSender',
  reachesOutside: true,
  environment: ({ setting }): Record<string, string> => {
    const email = setting('alarmEmail');
    return email?.includes('@') ? { WEB_PUSH_SUBJECT: `mailto:${email}` } : {};
  },
  statements: () => [],
};

/** What the stream consumer needs to push: the contact, and the organizations' VAPID private keys opened. */
export const PUSH_SENDER_CAPABILITIES: readonly Capability[] = [webPushSender, opensSecrets];
