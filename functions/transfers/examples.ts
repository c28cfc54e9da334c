/** The transfer's example in the OpenAPI document (see functions/leads/examples.ts). */
export const transfer = {
  id: 1,
  label: 'Emergency plumbing',
  name: 'Emergency plumbing',
  method: 'WARM',
  destinationType: 'DEPARTMENT',
  destination: 'On-call plumber',
  conditions: 'The caller reports a burst pipe, flooding or no hot water at a rental property.',
  summaryFormat: 'Caller {name} is calling about {topic}. Summary: {summary}',
  settings: { ignore_business_hours: true },
  isEnabled: true,
  scenarioId: null,
  createdAt: '2026-08-30T00:05:12.431Z',
  updatedAt: '2026-10-11T06:44:50.090Z',
};
