import { SCHEDULED_JOBS } from '../../functions/resources';
import type { ScheduledJob } from '#shared/resource';
import { loadFunction } from './handlers';
import { duringWorker } from './strict-access';

export interface LocalScheduler {
  stop: () => void;
}

/**
 * Runs each scheduled job's function in process at its interval, as EventBridge invokes it deployed (or every
 * `everyMs` when given, for tests). A run still going when the next is due is not started twice.
 */
export function startScheduledJobs({ jobs = SCHEDULED_JOBS, everyMs, onError }: { jobs?: readonly ScheduledJob[]; everyMs?: number; onError: (job: ScheduledJob, error: unknown) => void }): LocalScheduler {
  const timers = jobs.map((job) => {
    let running = false;
    const run = async () => {
      if (running) return;
      running = true;
      try {
        const handler = await loadFunction<() => Promise<void>>(job.handler);
        await duringWorker(job.name, handler);
      } catch (error) {
        onError(job, error);
      } finally {
        running = false;
      }
    };
    return setInterval(() => void run(), everyMs ?? job.everyMinutes * 60_000).unref();
  });
  return { stop: () => timers.forEach((timer) => clearInterval(timer)) };
}
