import { readFileSync } from 'node:fs';
import { dashboardBody, scaledRoutes, synthApiStack, TEMPLATE_LIMITS } from './scaled-stacks';
import { OWN_RESOURCES } from '../cdk/api-stack';

/**
 * The section of docs/capacity.md "How many routes the stacks hold", written by `npm run generate` from the stacks
 * synthesized at today's routes and at three times as many, the figures test/stack-limits.test.ts checks: a route
 * added changes the figures here, not a hand-typed table a test then refuses.
 */

export const CAPACITY_FILE = new URL('../../docs/capacity.md', import.meta.url);
const HEADING = '## How many routes the stacks hold';

type Synthesized = ReturnType<typeof synthApiStack>;
type Json = Record<string, any>;

/** `2416` → `2 416`, as the docs write counts. */
const spaced = (count: number) => String(count).replace(/\B(?=(\d{3})+$)/g, ' ');
/** A template's size as `cdk synth` writes it, in KB. */
const kb = (template: object) => `${Math.round(Buffer.byteLength(JSON.stringify(template, undefined, 1)) / 1000)} KB`;
const limit = (count: number) => spaced(count);

/** The section's markdown for the stacks at today's routes and at three times as many. */
export function capacitySection(today: Synthesized, tripled: Synthesized): string {
  const { parent, roots, nested, parentResources, nestedResources, operations } = tripled;
  const templates = [parent, ...roots, ...nested];
  const largest = operations.reduce((a, b) => (b.resources > a.resources ? b : a));
  const most = (counts: number[]) => Math.max(...counts);
  const dashboards = [parent, ...roots].map((template) => dashboardBody(Object.values(template.Resources as Record<string, Json>).find((resource) => resource.Type === 'AWS::CloudWatch::Dashboard')!).widgets);
  const widgets = dashboards.flat();
  const alarms = templates.flatMap((template) => Object.values(template.Resources as Record<string, Json>).filter((resource) => resource.Type === 'AWS::CloudWatch::Alarm'));
  const biggestNested = nested.reduce((a, b) => (JSON.stringify(b).length > JSON.stringify(a).length ? b : a));
  const mappings = most(templates.map((t) => Object.keys(t.Mappings ?? {}).length));
  const rows = [
    ['Resources in a template', limit(TEMPLATE_LIMITS.resources), `${most(nestedResources)} (a tag's stack); the parent ${parentResources}`],
    [
      'Resources one operation of a first deploy creates',
      limit(TEMPLATE_LIMITS.operationResources),
      `${spaced(largest.resources)} (${largest.stack} and its ${largest.nestedStacks} route stacks, of ${operations.length} top-level stacks; ${spaced(today.createdResources)} today, the API stack alone)`,
    ],
    ['Template read from S3', '1 MB', `${kb(parent)} (the parent, much of it the dashboard; a stack of routes less); a tag's stack ${kb(biggestNested)}`],
    ['Outputs, parameters, mappings', `${TEMPLATE_LIMITS.outputs} each`, `${most(templates.map((t) => Object.keys(t.Outputs ?? {}).length))} outputs, ${most(templates.map((t) => Object.keys(t.Parameters ?? {}).length))} parameters, ${mappings} mapping${mappings === 1 ? '' : 's'}`],
    ['Metrics of a metric-math alarm', limit(TEMPLATE_LIMITS.alarmMetrics), `${most(alarms.map((alarm) => (alarm.Properties.Metrics ?? []).length))} (the paging alarm on DynamoDB's system errors, over the eight operations the granted actions are called in)`],
    ['Widgets of a dashboard', limit(TEMPLATE_LIMITS.dashboardWidgets), `${most(dashboards.map((dashboard) => dashboard.length))} (two per tag and five shared, the API stack's; a stack of routes' fewer)`],
    ['Metrics of a dashboard widget', limit(TEMPLATE_LIMITS.widgetMetrics), `${most(widgets.map((widget) => (widget.properties.metrics ?? []).length))} (a tag's errors and throttles; at most 50 functions, 100 metrics, a widget)`],
  ];
  const allBelow = operations.every((operation) => operation.resources < TEMPLATE_LIMITS.operationResources);
  return `${HEADING}

Written by \`npm run generate\` from the stacks it synthesizes (\`infra/capacity/table.ts\`).

A stack update fails past any of CloudFormation's or CloudWatch's quotas, so \`test/stack-limits.test.ts\` synthesizes
the API stack at today's routes and at three times as many and checks every template against each documented quota
it could meet (\`TEMPLATE_LIMITS\` in \`infra/capacity/scaled-stacks.ts\`). At three times today's routes:

| Quota | Limit | Largest at 3× |
|---|---|---|
${rows.map((row) => `| ${row.join(' | ')} |`).join('\n')}

One operation of a stack, its nested stacks included, creates, updates or deletes at most 2 500 resources. Today's
first deploy creates ${spaced(today.createdResources)}, all in the API stack's operation. The API stack takes route groups (tags, in the route
table's order) while its operation holds them, keeping ${OWN_RESOURCES.parent} for its own resources made after them, and the groups past that go to
stacks of routes deployed after it, \`SalesPipelineApiRoutes2\`, \`…Routes3\` (\`ApiStack.routeStacks\`), each its own
operation of at most 2 450 with its nested stacks, on the API stack's REST API. Each group is expected to take as many
resources a route as the most of any group before it, and what it made is counted. At three times today's routes the
${spaced(operations.length)} operations each create ${allBelow ? 'fewer than 2 500' : 'up to 2 500'}, the largest ${spaced(largest.resources)}. \`cdk deploy --all\` deploys them in order: each stack of routes depends
on the API stack and on the one before it. The API stack's stage deployment is made before their methods exist, so
each stack of routes releases its own: a custom resource makes a new deployment of the whole API to the stage once
its route stacks are in place, and again whenever any method of the API changes (its physical id is their hash). Each has
a dashboard of its tags' rows, \`<stack>-operations\`: the API stack's cannot name functions made after it. Of the templates themselves, none grows with the routes past what its operation holds: the parent's dashboard graphs
the tags it holds, and each stack of routes has its own (each well under the parent's size at three times today's routes), so 1 MB
is far off for each.

`;
}

/** docs/capacity.md with its section `text` in place of the one it has. */
export function withSection(document: string, text: string): string {
  const start = document.indexOf(HEADING);
  if (start === -1) throw new Error(`docs/capacity.md has no section "${HEADING}"`);
  const end = document.indexOf('\n## ', start + HEADING.length);
  return `${document.slice(0, start)}${text}${end === -1 ? '' : document.slice(end + 1)}`;
}

/** The section as committed. */
export const committedSection = (document: string = readFileSync(CAPACITY_FILE, 'utf8')) => {
  const start = document.indexOf(HEADING);
  const end = document.indexOf('\n## ', start + HEADING.length);
  return document.slice(start, end === -1 ? undefined : end + 1);
};

/** docs/capacity.md with the section of the stacks synthesized now: what `npm run generate` writes. */
export function capacityFile() {
  const [today, tripled] = [1, 3].map((times) => synthApiStack(scaledRoutes(times)));
  return { path: CAPACITY_FILE, content: withSection(readFileSync(CAPACITY_FILE, 'utf8'), capacitySection(today!, tripled!)) };
}
