import { useEffect, useRef, useState } from 'preact/hooks';
import { showProblem } from './notices';

/** How often a job under way (a recount, a bulk enrolment) is read back. */
const POLL_MS = 1000;

/** A job the API runs in the background: QUEUED, under way, then SUCCEEDED or FAILED. */
interface Job {
  id: string;
  status: string;
}

export const hasEnded = (job: Job) => job.status === 'SUCCEEDED' || job.status === 'FAILED';

/**
 * A job started from the page and followed until it ends: `started` shows the job a start answered and reads it back
 * every second with `read`; `onEnded` is told once it has. Reading stops with the page.
 */
export function useJob<J extends Job>(read: (id: string) => Promise<J>, onEnded: (job: J) => void): { job: J | null; started: (job: J) => void } {
  const [job, setJob] = useState<J | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const follow = (id: string) => {
    timer.current = setTimeout(async () => {
      try {
        const now = await read(id);
        setJob(now);
        if (hasEnded(now)) onEnded(now);
        else follow(id);
      } catch (error) {
        showProblem(error);
      }
    }, POLL_MS);
  };
  return {
    job,
    started: (first) => {
      setJob(first);
      follow(first.id);
    },
  };
}
