/**
 * `npm run bench:automations`: only the automation rows of `npm run bench` (./automations.ts), printed rather than
 * written to docs/performance.md: trigger to text under `npm start` for a quiet organization, alone and while another
 * enrols BENCH_BULK_LEADS leads (default 1 000). A few minutes instead of the whole run.
 */
import { jsonClient, succeeding } from '../stress/http';
import { measureTriggerToSms, measureTriggerToSmsDuringBulk } from './automations';
import { npmStartInItsOwnProcess } from './npm-start';

const progress = (line: string) => process.stderr.write(`bench:automations: ${line}\n`);
const npmStart = await npmStartInItsOwnProcess();
try {
  const quiet = succeeding(jsonClient(npmStart.url, npmStart.apiKey));
  progress('missed calls texted back, no other load');
  const alone = await measureTriggerToSms(quiet);
  process.stdout.write(`trigger to text, alone: p50 ${Math.round(alone.p50)} ms, p95 ${Math.round(alone.p95)} ms over ${alone.calls} calls\n`);
  progress(`the same while another organization enrols ${process.env.BENCH_BULK_LEADS ?? 1_000} leads`);
  const bulk = succeeding(jsonClient(npmStart.url, (await npmStart.newOrganization('Bench bulk enrolment')).apiKey));
  const during = await measureTriggerToSmsDuringBulk(quiet, bulk, { baseline: alone, leads: Number(process.env.BENCH_BULK_LEADS ?? 1_000) });
  process.stdout.write(`trigger to text, during the enrolment: p50 ${Math.round(during.p50)} ms, p95 ${Math.round(during.p95)} ms over ${during.calls} calls (${during.ratio.toFixed(2)}× alone)\n`);
} finally {
  await npmStart.stop();
}
