// Chart.js, loaded only by the Reports screen (import('./charts')): only the pieces these charts use are registered,
// so the rest of the library is left out of the chunk.
import { BarController, BarElement, CategoryScale, Chart, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip);

export interface ChartSpec {
  kind: 'bar' | 'line';
  /** What the values are, for the tooltip. */
  label: string;
  labels: string[];
  values: (number | null)[];
  format: (value: number) => string;
}

/** Blue on white at 7:1, text at 15:1: the bars and words keep their contrast. */
const INK = '#1f2937';
const BLUE = '#1d4ed8';

/** Draws the chart in the canvas; a click on a bar or point picks its index (its list). Answers how to remove it. */
export function draw(canvas: HTMLCanvasElement, spec: ChartSpec, pick: (index: number) => void): () => void {
  const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const chart = new Chart(canvas, {
    type: spec.kind,
    data: { labels: spec.labels, datasets: [{ label: spec.label, data: spec.values, backgroundColor: BLUE, borderColor: BLUE, pointRadius: 4 }] },
    options: {
      ...(still ? { animation: false as const } : {}),
      responsive: true,
      maintainAspectRatio: false,
      plugins: { tooltip: { callbacks: { label: (item) => `${spec.label}: ${spec.format(Number(item.parsed.y))}` } } },
      scales: {
        x: { ticks: { color: INK } },
        y: { beginAtZero: true, ticks: { color: INK, callback: (value) => spec.format(Number(value)) } },
      },
      onClick: (_event, elements) => {
        const [hit] = elements;
        if (hit) pick(hit.index);
      },
      onHover: (event, elements) => {
        const target = event.native?.target as HTMLElement | undefined;
        if (target) target.style.cursor = elements.length ? 'pointer' : 'default';
      },
    },
  });
  return () => chart.destroy();
}
