import { useEffect, useRef } from 'preact/hooks';
import { navigate } from '../router';
import type { ChartSpec } from './charts';

export type Charts = typeof import('./charts');

/** A figure of a chart: what it is, its value, and the list it counts (where a click on it, or its link, goes). */
export interface Row {
  label: string;
  value: number | null;
  href: string;
  /** A second column, where the figure has one (the funnel's conversion). */
  note?: string;
}

interface Props {
  id: string;
  title: string;
  kind: ChartSpec['kind'];
  /** The table's headings: what each row is, what its value is, and the note's. */
  rowHeading: string;
  valueHeading: string;
  noteHeading?: string;
  rows: Row[];
  format: (value: number) => string;
  /** Chart.js's module once loaded; null if it could not be, and the table is then shown. */
  charts: Charts | null | undefined;
  /** What a reader comparing it with another figure should know (why two counts differ). */
  explanation?: string;
}

/**
 * A chart with its figures as a table for screen readers: hidden from sight but read, and shown while a keyboard is in
 * it, since every figure is a link to its list.
 */
export function ChartFigure({ id, title, kind, rowHeading, valueHeading, noteHeading, rows, format, charts, explanation }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawn = JSON.stringify(rows);
  useEffect(() => {
    if (!charts || !canvas.current) return;
    const spec = { kind, label: valueHeading, labels: rows.map((row) => row.label), values: rows.map((row) => row.value), format };
    return charts.draw(canvas.current, spec, (index) => navigate(rows[index]!.href));
  }, [charts, drawn]);
  const shown = (value: number | null) => (value === null ? '—' : format(value));
  return (
    <figure class="report" aria-labelledby={`${id}-title`}>
      <figcaption>
        <h2 id={`${id}-title`}>{title}</h2>
        {explanation && <p class="muted">{explanation}</p>}
      </figcaption>
      {charts !== null && (
        <div class="chart">
          <canvas ref={canvas} role="img" aria-label={`Chart of ${title.toLowerCase()}: its figures are in the table after it.`} />
        </div>
      )}
      {/* A wrapper takes the hiding: a table is never narrower than its cells, so hidden itself it still widens the page. */}
      <div class={charts === null ? undefined : 'reveal-on-focus'}>
      <table class="figures">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{rowHeading}</th>
            <th scope="col">{valueHeading}</th>
            {noteHeading && <th scope="col">{noteHeading}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td>
                <a href={row.href}>{shown(row.value)}</a>
              </td>
              {noteHeading && <td>{row.note ?? '—'}</td>}
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </figure>
  );
}
