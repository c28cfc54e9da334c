import { answer, api, ApiError, onUnauthorized, setCsrfToken } from './api';
import { store, useStore } from './store';
import type { Session } from './types';

/** The member signed in here: undefined until GET /v1/me answers, null when nobody is. */
const session = store<Session | null | undefined>(undefined);

export const useSession = () => useStore(session);
export const sessionNow = () => session.get();

/** Whether a session of this page ended under it (a 401), which the sign-in screen says. */
export const sessionEnded = store(false);

export function setSession(next: Session | null) {
  setCsrfToken(next?.csrfToken ?? null);
  if (next) sessionEnded.set(false);
  session.set(next);
}

/** Reads the session the cookie holds, if any; a 401 is nobody signed in, not an error to show. */
export async function loadSession(): Promise<void> {
  try {
    const { session: current } = await answer(api.GET('/v1/me'));
    setSession(current);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) setSession(null);
    else throw error;
  }
}

// Any call answering 401 ends the session here too: the shell then shows the sign-in screen.
onUnauthorized(() => {
  if (session.get()) sessionEnded.set(true);
  setSession(null);
});
