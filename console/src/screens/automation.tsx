import { useState } from 'preact/hooks';
import { answer, api } from '../api';
import { consolePath } from '../base';
import { leadName, STATUS_LABELS, STEP_LABELS, STOPPED_REASONS } from '../format';
import { showProblem } from '../notices';
import type { AutomationRun, AutomationRunListItem, AutomationStep, RunStatus } from '../types';
import { Loading, More, Page, useLoad } from '../ui';
import { OnSwitch, TRIGGER_WORDS } from './automations';
import { BulkEnrol, ENROLLABLE } from './bulk-enrol';
import { leadHref, RunList } from './runs';
import { useMay } from '../roles';
import { EditAutomation } from './automation-edit';
import { AutomationRules } from './automation-rules';

const RUN_FILTERS: [RunStatus | '', string][] = [
  ['', 'Every run'],
  ['WAITING', 'Waiting'],
  ['RUNNING', 'Running'],
  ['COMPLETED', 'Completed'],
  ['STOPPED', 'Stopped'],
  ['FAILED', 'Failed'],
];

function stepInWords(step: AutomationStep): string {
  const label = STEP_LABELS[step.type] ?? step.type;
  if (step.type === 'wait') return `${label} ${step.duration ?? ''}${step.before ? ` before ${step.before.replace('appointment.', 'the appointment’s ')}` : ''}`;
  if (step.type === 'set_lead_status' && step.status) return `${label}: ${STATUS_LABELS[step.status]}`;
  if ('template' in step && step.template) return `${label}: “${step.template}”`;
  if ('url' in step && step.url) return `${label}: ${step.url}`;
  return label;
}

function Runs({ automationId }: { automationId: string }) {
  const [status, setStatus] = useState<RunStatus | ''>('');
  const [extra, setExtra] = useState<{ runs: AutomationRunListItem[]; cursor: string | null } | null>(null);
  /** A page of the runs shown (every status, or one), from where the page before ended. */
  const readRuns = (cursor?: string, signal?: AbortSignal) =>
    answer(api.GET('/v1/automations/{automationId}/runs', { params: { path: { automationId }, query: { status: status || undefined, expand: 'lead', limit: 25, cursor } }, signal }));
  const loaded = useLoad(
    (signal) => {
      setExtra(null);
      return readRuns(undefined, signal);
    },
    [automationId, status],
  );
  const runs = [...(loaded.data?.runs ?? []), ...(extra?.runs ?? [])];
  const cursor = extra ? extra.cursor : (loaded.data?.nextCursor ?? null);
  const more = async () => {
    try {
      const next = await readRuns(cursor ?? undefined);
      setExtra({ runs: [...(extra?.runs ?? []), ...next.runs], cursor: next.nextCursor });
    } catch (error) {
      showProblem(error);
    }
  };
  // A run changed here (cancelled) is answered without its lead: the one listed stays.
  const replaced = (changed: AutomationRun) => (run: AutomationRunListItem) => (run.id === changed.id ? { ...changed, lead: run.lead } : run);
  const replace = (changed: AutomationRun) => {
    if (loaded.data) loaded.set({ ...loaded.data, runs: loaded.data.runs.map(replaced(changed)) });
    if (extra) setExtra({ ...extra, runs: extra.runs.map(replaced(changed)) });
  };
  return (
    <section aria-labelledby="runs-heading">
      <h2 id="runs-heading">Runs</h2>
      <div class="field">
        <label for="run-status">Show</label>
        <select id="run-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as RunStatus | '')}>
          {RUN_FILTERS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <Loading loaded={loaded} what="runs">
        {(page) => (
          <>
            <RunList runs={runs} heading={(run) => ({ text: leadName(run.lead), href: leadHref(run) })} onChanged={replace} />
            <More shown={runs.length} total={page.totalCount} onMore={cursor ? more : undefined} />
          </>
        )}
      </Loading>
    </section>
  );
}

export function AutomationScreen({ automationId }: { automationId: string }) {
  const loaded = useLoad((signal) => answer(api.GET('/v1/automations/{automationId}', { params: { path: { automationId } }, signal })).then(({ automation }) => automation), [automationId]);
  const [round, setRound] = useState(0);
  const may = useMay();
  return (
    <Page title={loaded.data?.name ?? 'Automation'}>
      <p>
        <a href={consolePath('/automations')}>Back to automations</a>
      </p>
      <Loading loaded={loaded} what="the automation">
        {(automation) => (
          <>
            <section aria-labelledby="how-heading">
              <h2 id="how-heading">How it works</h2>
              <OnSwitch automation={automation} describedBy="page-title" onChanged={loaded.set} />
              <p>{TRIGGER_WORDS[automation.trigger.event] ?? automation.trigger.event}:</p>
              <ol>
                {automation.steps.map((step, at) => (
                  <li key={at}>{stepInWords(step)}</li>
                ))}
              </ol>
              {automation.stopWhen.length > 0 && <p>It stops when: {automation.stopWhen.map((reason) => STOPPED_REASONS[reason]?.toLowerCase() ?? reason).join('; ')}.</p>}
            </section>
            <EditAutomation automation={automation} onChanged={loaded.set} />
            <AutomationRules automation={automation} onChanged={loaded.set} />
            {ENROLLABLE[automation.trigger.event] && may('POST /v1/automations/{automationId}/enrolments') && <BulkEnrol automation={automation} onDone={() => setRound(round + 1)} />}
            <Runs key={round} automationId={automation.id} />
          </>
        )}
      </Loading>
    </Page>
  );
}
