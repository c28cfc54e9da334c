import type { ApiDescription } from './document';
import { convert } from './json-schema';
import { headerObjects, JSON_MEDIA_TYPE, type Json } from './responses';

/** OpenAPI 3.1's `webhooks` section: each request the API sends, as the POST a receiver gets, with the headers it carries. */
export function webhooksSection(webhooks: NonNullable<ApiDescription['webhooks']>, components: ApiDescription['components']): Json {
  return Object.fromEntries(
    Object.entries(webhooks).map(([name, webhook]) => [
      name,
      {
        post: {
          operationId: webhook.operationId,
          summary: webhook.summary,
          description: webhook.description,
          tags: [webhook.tag],
          // The receiver needs no API key: the signature proves the sender.
          security: [],
          parameters: webhook.headers,
          requestBody: { required: true, content: { [JSON_MEDIA_TYPE]: { schema: convert(webhook.body, 'answer', components, `webhooks.${name}.body`) } } },
          responses: Object.fromEntries(
            Object.entries(webhook.answers).map(([status, { description, headers }]) => [
              status,
              { description, ...(headers ? { headers: headerObjects(headers) } : {}) },
            ]),
          ),
        },
      },
    ]),
  );
}
