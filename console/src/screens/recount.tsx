import { useState } from 'preact/hooks';
import { hasEnded, useJob } from '../job';
import { answer, api, ApiError } from '../api';
import { announce, problemOf, showProblem } from '../notices';
import type { ReportRebuild } from '../types';
import { Progress } from '../ui';

/** What the recount found, in the owner's words. */
function outcomeOf(rebuild: ReportRebuild): string {
  if (rebuild.status === 'FAILED') return `The recount failed: ${rebuild.failure ?? 'start another'}`;
  const { daysChanged, factsRewritten } = rebuild;
  return daysChanged || factsRewritten ? `Recounted: ${daysChanged} days and ${factsRewritten} leads’ histories corrected.` : 'Recounted: the reports were right.';
}

/**
 * Counts the reports again from the records (POST /v1/reports/rebuilds), then follows the recount until it ends,
 * showing its progress; `onDone` reloads the figures. A recount another member started is answered 409, said here.
 */
export function Recount({ onDone }: { onDone: () => void }) {
  const [starting, setStarting] = useState(false);
  const { job: rebuild, started } = useJob(
    async (rebuildId) => (await answer(api.GET('/v1/reports/rebuilds/{rebuildId}', { params: { path: { rebuildId } } }))).rebuild,
    (ended: ReportRebuild) => {
      announce(outcomeOf(ended));
      if (ended.status === 'SUCCEEDED') onDone();
    },
  );

  const start = async () => {
    setStarting(true);
    try {
      started((await answer(api.POST('/v1/reports/rebuilds'))).rebuild);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'REBUILD_RUNNING') announce(problemOf(error).message);
      else showProblem(error);
    } finally {
      setStarting(false);
    }
  };

  const running = rebuild !== null && !hasEnded(rebuild);
  return (
    <section aria-labelledby="recount-heading" class="recount">
      <h2 id="recount-heading">Recount</h2>
      <p>If a figure looks wrong, count the reports again from your records. It takes a minute or two for a busy year.</p>
      <button type="button" onClick={start} disabled={starting || running}>
        Recount the reports
      </button>
      {running && rebuild.status !== 'WRITING' && <p aria-live="polite">{rebuild.status === 'QUEUED' ? 'Waiting to start…' : 'Counting your records…'}</p>}
      {rebuild?.status === 'WRITING' && <Progress id="recount-progress" label="Corrections written" done={rebuild.progress.done} total={rebuild.progress.total ?? 0} />}
      {rebuild && hasEnded(rebuild) && <p>{outcomeOf(rebuild)}</p>}
    </section>
  );
}
