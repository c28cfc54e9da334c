import { answer, api } from '../api';
import { consolePath } from '../base';
import { segment } from '../url';
import { STEP_LABELS, STOPPED_REASONS, when } from '../format';
import type { AutomationRun, RunStep } from '../types';
import { useAction } from '../ui';
import { useMay } from '../roles';

const RUN_WORDS: Record<AutomationRun['status'], string> = { WAITING: 'Waiting', RUNNING: 'Running', COMPLETED: 'Completed', STOPPED: 'Stopped', FAILED: 'Failed' };
const STEP_WORDS: Record<RunStep['status'], string> = { PENDING: 'Not yet due', WAITING: 'Waiting', RUNNING: 'Running', DONE: 'Done', SKIPPED: 'Skipped', FAILED: 'Failed', CANCELLED: 'Cancelled' };

/** Why the run is where it is: why it stopped or failed, or when it next moves. */
export function runState(run: AutomationRun): string {
  if (run.status === 'STOPPED') return `Stopped: ${run.stoppedReason ? (STOPPED_REASONS[run.stoppedReason] ?? run.stoppedReason) : 'no reason given'}`;
  if (run.status === 'FAILED') return `Failed: ${run.failedReason ?? 'no reason given'}`;
  if (run.nextStepAt) return `${RUN_WORDS[run.status]}: next step due ${when(run.nextStepAt)}`;
  return RUN_WORDS[run.status];
}

function StepLine({ step }: { step: RunStep }) {
  const time = step.at ? `ran ${when(step.at)}` : step.dueAt ? `due ${when(step.dueAt)}` : '';
  const result = step.result;
  const notes = [result?.reason, result?.deferredBy === 'QUIET_HOURS' ? 'moved by quiet hours' : null, result?.webhookStatus ? `answered ${result.webhookStatus}` : null].filter(Boolean);
  return (
    <li>
      {STEP_LABELS[step.type] ?? step.type}: {STEP_WORDS[step.status]}
      {time && `, ${time}`}
      {notes.length > 0 && ` (${notes.join('; ')})`}
    </li>
  );
}

/**
 * Runs with their steps; `names` gives each run's heading (its lead or its automation). A waiting run can be cancelled
 * (POST /v1/automation-runs/{id}/cancel), and the answer replaces it.
 */
export function RunList<R extends AutomationRun>({ runs, heading, onChanged }: { runs: R[]; heading: (run: R) => { text: string; href: string }; onChanged: (run: AutomationRun) => void }) {
  const [busy, act] = useAction();
  const may = useMay();
  if (runs.length === 0) return <p>No runs.</p>;
  return (
    <ul class="runs">
      {runs.map((run) => {
        const { text, href } = heading(run);
        return (
          <li key={run.id} class="run">
            <h3 id={`run-${run.id}`}>
              <a href={href}>{text}</a>
            </h3>
            <p>
              <strong>{runState(run)}</strong> · started {when(run.createdAt)}
            </p>
            <ol class="steps">
              {run.steps.map((step) => (
                <StepLine key={step.index} step={step} />
              ))}
            </ol>
            {(run.status === 'WAITING' || run.status === 'RUNNING') && may('POST /v1/automation-runs/{runId}/cancel') && (
              <button
                type="button"
                disabled={busy}
                aria-describedby={`run-${run.id}`}
                onClick={() => act(async () => onChanged((await answer(api.POST('/v1/automation-runs/{runId}/cancel', { params: { path: { runId: run.id } } }))).run), 'Run cancelled.')}
              >
                Cancel run
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export const leadHref = (run: AutomationRun) => consolePath(`/leads/${segment(run.leadId)}`);
export const automationHref = (run: AutomationRun) => consolePath(`/automations/${segment(run.automationId)}`);
