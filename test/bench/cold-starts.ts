/**
 * `npm run bench:cold`: only the cold-start part of `npm run bench` (./cold-start.ts), printed rather than written to
 * docs/performance.md: each deployed bundle's import (a function module's, named with how many functions deploy it)
 * against the bare document client, and the handler factory's floor, a read route's and a write route's. A
 * minute or two instead of the whole run; BENCH_IMPORT_ROUNDS as there (default 5: each ratio is the median of five imports, each against the bare client's import beside it, which stands one stalled process, or two).
 */
import { measureColdStarts } from './cold-start';
import { median } from './timing';

const progress = (line: string) => process.stderr.write(`bench: ${line}\n`);
const { baseline, floor, writeFloor, floorWithoutPowertools, mcpSdk, functions } = await measureColdStarts({ rounds: Number(process.env.BENCH_IMPORT_ROUNDS ?? 5), progress });
const row = (name: string, bytes: number, importMs: number, ratio: number) =>
  `${name.padEnd(46)} ${`${Math.round(bytes / 1024)} KB`.padStart(7)} ${`${importMs.toFixed(2)} ms`.padStart(10)} ${`${ratio.toFixed(2)}×`.padStart(7)}`;
const lines = [
  row('bare document client', baseline.bytes, baseline.importMs, 1),
  row('handler factory floor (read route)', floor.bytes, floor.importMs, floor.ratio),
  row('handler factory floor (write route)', writeFloor.bytes, writeFloor.importMs, writeFloor.ratio),
  row('floor without Powertools', floorWithoutPowertools.bytes, floorWithoutPowertools.importMs, floorWithoutPowertools.ratio),
  row('MCP SDK alone', mcpSdk.bytes, mcpSdk.importMs, mcpSdk.ratio),
  ...[...functions].sort((a, b) => b.ratio - a.ratio).map((fn) => row(fn.handler, fn.bytes, fn.importMs, fn.ratio)),
  `median bundle ${median(functions.map((fn) => fn.ratio)).toFixed(2)}×, slowest ${[...functions].sort((a, b) => b.ratio - a.ratio)[0]!.handler} ${Math.max(...functions.map((fn) => fn.ratio)).toFixed(2)}× (${functions.length} bundles, ${functions.reduce((sum, fn) => sum + fn.functions, 0)} functions)`,
];
process.stdout.write(`${lines.join('\n')}\n`);
