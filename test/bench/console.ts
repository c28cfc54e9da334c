/**
 * `npm run bench:console`: only the console's first-load part of `npm run bench` (./console-load.ts), printed rather
 * than written to docs/performance.md: the bytes of a first visit of /console/sign-in (as served and gzipped) and its
 * time to interactive against the same page's HTML alone, in Debian's Chromium against the local server in this process.
 * BENCH_CONSOLE_ROUNDS visits of each (default 21). Half a minute or so instead of the whole run.
 */
import { startStressStack } from '../stress/stack';
import { consoleRatios, measureConsoleFirstLoad } from './console-load';

const progress = (line: string) => process.stderr.write(`bench:console: ${line}\n`);
// The handlers log as in Lambda (compact JSON lines to stdout): the run pays for writing them and discards them.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = () => true;

const stack = await startStressStack({ events: false, powertoolsDev: false });
try {
  const figures = await measureConsoleFirstLoad(stack.url, { rounds: Number(process.env.BENCH_CONSOLE_ROUNDS ?? 21), progress });
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const lines = [
    ...figures.files.map((file) => `${file.path.padEnd(44)} ${file.encoding.padEnd(9)} ${kb(file.bytes).padStart(9)} ${`${kb(file.gzipBytes)} gzip`.padStart(14)}`),
    `time to interactive ${figures.interactiveMs.toFixed(0)} ms (DOMContentLoaded ${figures.domContentLoadedMs.toFixed(0)} ms, ${figures.longTasks} long tasks, ${figures.longTaskMs.toFixed(0)} ms), the HTML alone ${figures.bareMs.toFixed(0)} ms; median of ${figures.rounds}`,
    ...consoleRatios(figures).map((ratio) => `${ratio.name}: ${ratio.value.toFixed(2)} (${ratio.better === 'lower' ? '≤' : '≥'} ${ratio.target}) ${ratio.met ? 'met' : 'NOT MET'}`),
  ];
  write(`${lines.join('\n')}\n`);
} finally {
  await stack.stop();
}
