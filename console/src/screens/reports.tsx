import { useEffect, useState } from 'preact/hooks';
import { answer, api } from '../api';
import { consolePath } from '../base';
import { day, money, percent, seconds, SOURCE_LABELS, STATUS_LABELS } from '../format';
import { INQUIRY_SOURCES, type ReportSummary, type ReportTimeseries } from '../types';
import { Loading, Page, useLoad } from '../ui';
import { ChartFigure, type Charts, type Row } from './report-figure';
import { Recount } from './recount';
import { query } from '../url';
import { useMay } from '../roles';


interface Range {
  from?: string;
  to?: string;
}

/** A point per day for a month, per week for a few months, per month beyond. */
function intervalOf(summary: ReportSummary): ReportTimeseries['interval'] {
  const days = (Date.parse(summary.to) - Date.parse(summary.from)) / 86_400_000 + 1;
  return days <= 31 ? 'day' : days <= 140 ? 'week' : 'month';
}

const periodLabel = (start: string, interval: ReportTimeseries['interval']) =>
  interval === 'month' ? new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' }).format(new Date(`${start}T12:00:00`)) : interval === 'week' ? `Week of ${day(start)}` : day(start);

/** The start of a local date, as the inbox's since/until read it (the browser's zone standing for the organization's). */
const startOf = (date: string) => new Date(`${date}T00:00:00`).toISOString();
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
/** The inbox from the start of `from` until the start of `until` (a local date not included). */
const inboxSpan = (from: string, until: string, extra: Record<string, string> = {}) => `${consolePath('/inbox')}${query({ ...extra, since: startOf(from), until: startOf(until) })}`;
const inboxBetween = (from: string, to: string, extra: Record<string, string> = {}) => inboxSpan(from, dayAfter(to), extra);
const pipelineOf = (status: string) => `${consolePath('/pipeline')}?status=${status}`;
/** The leads won from the start of `from` until the start of `until` (a local date not included) that are WON still. */
const wonSpan = (from: string, until: string) => `${consolePath('/pipeline')}${query({ status: 'WON', since: startOf(from), before: startOf(until) })}`;

async function readReports(range: Range, signal: AbortSignal) {
  const [{ summary }, { funnel }] = await Promise.all([
    answer(api.GET('/v1/reports/summary', { params: { query: range }, signal })),
    answer(api.GET('/v1/reports/funnel', { params: { query: range }, signal })),
  ]);
  const interval = intervalOf(summary);
  const series = (metric: ReportTimeseries['metric']) => answer(api.GET('/v1/reports/timeseries', { params: { query: { from: summary.from, to: summary.to, metric, interval } }, signal }));
  const [won, speed] = await Promise.all([series('leads.wonValue'), series('speedToLead.medianSeconds')]);
  return { summary, funnel, interval, won: won.timeseries, speed: speed.timeseries };
}

function KeyFigures({ summary }: { summary: ReportSummary }) {
  const { from, to, currency } = summary;
  const figures: [string, string, string][] = [
    ['Leads created', String(summary.leads.created), consolePath('/pipeline')],
    ['Won', `${summary.leads.won.count} (${money(summary.leads.won.value, currency)})`, wonSpan(from, dayAfter(to))],
    ['Inquiries', String(summary.inquiries.total), inboxBetween(from, to)],
    ['Calls missed', String(summary.calls.missed), inboxBetween(from, to, { source: 'CALL', outcome: 'MISSED' })],
    ['Median speed to lead', seconds(summary.speedToLead.medianSeconds), inboxBetween(from, to)],
    ['Answered within 5 minutes', `${summary.speedToLead.within5Minutes.count} (${percent(summary.speedToLead.within5Minutes.share)})`, inboxBetween(from, to)],
  ];
  return (
    <ul class="tiles">
      {figures.map(([label, value, href]) => (
        <li key={label} class="tile">
          <a href={href}>
            <span class="figure">{value}</span> <span>{label}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

export function Reports() {
  const [range, setRange] = useState<Range>({});
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [charts, setCharts] = useState<Charts | null | undefined>(undefined);
  const loaded = useLoad((signal) => readReports(range, signal), [range.from, range.to]);
  const may = useMay();

  // Chart.js loads with this screen alone; the figures' tables stand in for it should it fail to load.
  useEffect(() => {
    import('./charts').then(setCharts, () => setCharts(null));
  }, []);
  useEffect(() => {
    if (!loaded.data) return;
    setFrom(loaded.data.summary.from);
    setTo(loaded.data.summary.to);
  }, [loaded.data]);

  const show = (event: Event) => {
    event.preventDefault();
    setRange({ from: from || undefined, to: to || undefined });
  };

  return (
    <Page title="Reports">
      <form class="inline-form" onSubmit={show}>
        <div class="field">
          <label for="report-from">From</label>
          <input id="report-from" type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="report-to">To</label>
          <input id="report-to" type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </div>
        <button type="submit" class="primary">
          Show
        </button>
      </form>
      <Loading loaded={loaded} what="reports">
        {({ summary, funnel, interval, won, speed }) => {
          const funnelRows: Row[] = [
            ...funnel.stages.map((stage) => ({ label: STATUS_LABELS[stage.status], value: stage.reached, href: pipelineOf(stage.status), note: percent(stage.conversionToNext) })),
            { label: STATUS_LABELS.LOST, value: funnel.lost, href: pipelineOf('LOST') },
          ];
          // A lead recorded as Lost from the start never took a status of the funnel: it is created, but not New.
          const stageless = summary.leads.created - (funnel.stages[0]?.reached ?? 0);
          const funnelExplained =
            stageless > 0 ? `${stageless} of the ${summary.leads.created} leads created ${stageless === 1 ? 'was' : 'were'} recorded as Lost from the start, so ${stageless === 1 ? 'it is' : 'they are'} in no status before Lost.` : undefined;
          const sourceRows: Row[] = INQUIRY_SOURCES.map((source) => ({ label: SOURCE_LABELS[source], value: summary.inquiries.bySource[source] ?? 0, href: inboxBetween(summary.from, summary.to, { source }) }));
          const wonRows: Row[] = won.points.map((point, at) => ({
            label: periodLabel(point.start, interval),
            value: point.value,
            href: wonSpan(point.start < summary.from ? summary.from : point.start, won.points[at + 1]?.start ?? dayAfter(summary.to)),
          }));
          const speedRows: Row[] = speed.points.map((point, at) => ({
            label: periodLabel(point.start, interval),
            value: point.value,
            href: inboxSpan(point.start < summary.from ? summary.from : point.start, speed.points[at + 1]?.start ?? dayAfter(summary.to)),
          }));
          return (
            <>
              <p>
                {day(summary.from)} to {day(summary.to)}. Every number links to its list.
              </p>
              <KeyFigures summary={summary} />
              <div class="reports">
                <ChartFigure id="funnel" title="Funnel" kind="bar" rowHeading="Status reached" valueHeading="Leads" noteHeading="Went on to the next" rows={funnelRows} format={String} charts={charts} explanation={funnelExplained} />
                <ChartFigure id="speed" title="Speed to lead" kind="line" rowHeading="Period" valueHeading="Median time to first contact" rows={speedRows} format={seconds} charts={charts} />
                <ChartFigure id="sources" title="Inquiries by source" kind="bar" rowHeading="Source" valueHeading="Inquiries" rows={sourceRows} format={String} charts={charts} />
                <ChartFigure
                  id="won"
                  title="Won value over time"
                  kind="bar"
                  rowHeading="Period"
                  valueHeading={`Won value (${summary.currency})`}
                  rows={wonRows}
                  format={(value) => money(value, summary.currency)}
                  charts={charts}
                />
              </div>
            </>
          );
        }}
      </Loading>
      {/* Counting the reports again is a change of the pipeline's settings: a MANAGER's or an ADMIN's. */}
      {may('POST /v1/reports/rebuilds') && <Recount onDone={loaded.reload} />}
    </Page>
  );
}
