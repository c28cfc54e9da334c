import { useRef, useState } from 'preact/hooks';
import { answer, api } from '../api';
import { announce, showProblem } from '../notices';
import { STATUS_LABELS } from '../format';
import type { Lead, LeadStatus } from '../types';
import { leadsCsv } from '../csv';
import { Progress } from '../ui';

/** A page of the list: the most the API answers at once, so an export is as few requests as it can be. */
const PAGE = 100;

/** Hands the browser a file to save, made here: no request carries it. */
function save(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The leads of the board (all, or one status's, within its range of when they took it; only the member's with "Only my leads") as a CSV file: read a page at a time with the progress shown, then
 * saved. "Stop" ends it after the page in flight, and nothing is saved.
 */
export function ExportLeads({ status, range = {}, assignedMemberId }: { status: LeadStatus | null; range?: { statusChangedSince?: string | null; statusChangedBefore?: string | null }; assignedMemberId?: number }) {
  const [work, setWork] = useState<{ done: number; total: number } | null>(null);
  const [running, setRunning] = useState(false);
  const stopped = useRef(false);
  /** A page of the leads (all, or the status's within its range), from where the page before ended. */
  const readPage = (cursor: string | null) => {
    const within = status ? { statusChangedSince: range.statusChangedSince ?? undefined, statusChangedBefore: range.statusChangedBefore ?? undefined } : {};
    return answer(api.GET('/v1/leads', { params: { query: { status: status ?? undefined, ...within, assignedMemberId, limit: PAGE, cursor: cursor ?? undefined } } }));
  };

  const start = async () => {
    stopped.current = false;
    setRunning(true);
    setWork(null);
    try {
      const leads: Lead[] = [];
      let cursor: string | null = null;
      do {
        const page = await readPage(cursor);
        leads.push(...page.leads);
        setWork({ done: leads.length, total: Math.max(page.totalCount, leads.length) });
        cursor = page.nextCursor;
      } while (cursor && !stopped.current);
      if (stopped.current) return announce(`Stopped the export after ${leads.length} leads; nothing was saved.`);
      save(`leads${status ? `-${status.toLowerCase()}` : ''}-${new Date().toISOString().slice(0, 10)}.csv`, leadsCsv(leads));
      announce(`Exported ${leads.length} ${status ? `${STATUS_LABELS[status]} ` : ''}leads.`);
    } catch (error) {
      showProblem(error);
    } finally {
      setRunning(false);
    }
  };

  return (
    <div class="export">
      <button type="button" onClick={start} disabled={running}>
        {status ? `Export ${STATUS_LABELS[status]} leads (CSV)` : 'Export leads (CSV)'}
      </button>
      {running && (
        <button type="button" onClick={() => (stopped.current = true)}>
          Stop export
        </button>
      )}
      {work && <Progress id="export-progress" label="Leads exported" done={work.done} total={work.total} />}
    </div>
  );
}
