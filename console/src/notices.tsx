import { ApiError } from './api';
import { store, useStore } from './store';

/** A problem as the alert region shows it: the envelope's message, then each detail's. */
export interface Problem {
  message: string;
  details: string[];
}

export function problemOf(error: unknown): Problem {
  if (error instanceof ApiError) return { message: error.message, details: error.details };
  if (error instanceof Error && error.name === 'NotAllowedError') return { message: 'The passkey prompt was closed or timed out.', details: [] };
  if (error instanceof Error) return { message: error.message, details: [] };
  return { message: 'Something went wrong.', details: [] };
}

const status = store('');
const problem = store<Problem | null>(null);

/** Says what just happened in the polite live region (saved, sent, moved). */
export function announce(text: string) {
  problem.set(null);
  // Emptied first, so the same words said twice are announced twice.
  status.set('');
  queueMicrotask(() => status.set(text));
}

/** Shows a failure in the alert region; an aborted load is no failure. */
export function showProblem(error: unknown) {
  if (error instanceof DOMException && error.name === 'AbortError') return;
  status.set('');
  problem.set(problemOf(error));
}

export const clearNotices = () => {
  status.set('');
  problem.set(null);
};

export function ProblemText({ problem: { message, details } }: { problem: Problem }) {
  return (
    <>
      <p>{message}</p>
      {details.length > 0 && (
        <ul>
          {details.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The two live regions every screen shares: present from the start, so what is put in them is announced. */
export function Notices() {
  const said = useStore(status);
  const shown = useStore(problem);
  return (
    <div class="notices">
      <div role="status" class="status">
        {said}
      </div>
      <div role="alert" class="alert">
        {shown && (
          <div class="problem">
            <ProblemText problem={shown} />
            <button type="button" class="quiet" onClick={() => problem.set(null)}>
              Dismiss
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
