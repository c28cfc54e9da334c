import { defineResource } from '#shared/resource';
import { signInRoutes } from './routes';
import { signInKeys, signInKeySamples } from './entity';
import { signInCodes, signInCodeWorker } from './code-queue';

/**
 * Members sign in (a code texted to their phone, or a passkey) to a session whose cookie the console's requests carry
 * (the console is its own package, console/, served on the API's origin: ./site.ts). A session is authorized as a key
 * is (./authorize-session.ts), held to the member's role and to its CSRF token.
 */
export const signIn = defineResource({
  name: 'sign-in',
  tags: {
    'Console sign-in': 'How a member signs in to the console: a code texted to their phone, or a passkey; their session, passkeys and signing out.',
  },
  // A member's own sign-in, session and passkeys; another member's passkeys say ADMIN on their own rows.
  sessionRoles: { write: 'MEMBER' },
  routes: signInRoutes,
  // Codes are made and texted off the request (./code-queue.ts), so asking takes the same time for anyone's phone.
  workers: [signInCodeWorker],
  channels: [signInCodes],
  keys: [{ builders: signInKeys, samples: signInKeySamples }],
});
