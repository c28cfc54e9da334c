import { useEffect, useState } from 'preact/hooks';
import { answer, api, listUntil } from '../api';
import { consolePath } from '../base';
import { when } from '../format';
import { usePlace } from '../router';
import type { Webhook, WebhookDelivery } from '../types';
import { Loading, More, useAction, useLoad } from '../ui';
import { isFailing } from '../screens/today-counts';

const DISABLED_WORDS: Record<NonNullable<Webhook['disabledReason']>, string> = {
  GONE: 'its receiver said it is gone (410)',
  FAILING: 'its deliveries failed for 24 hours',
  EXPIRED: 'it expired',
};
/** How often, and how many times, a replay's PENDING delivery is read again until the receiver answered. */
const POLL_MS = 2_000;
const POLLS = 30;

function result(delivery: WebhookDelivery): string {
  if (delivery.status === 'PENDING') return delivery.nextAttemptAt ? `Pending, next try ${when(delivery.nextAttemptAt)}` : 'Pending';
  const answer = delivery.statusCode ? `answered ${delivery.statusCode}` : (delivery.error ?? 'no answer');
  return `${delivery.status === 'SUCCEEDED' ? 'Delivered' : 'Failed'}: ${answer}`;
}

/** A webhook's delivery attempts, newest first; "Replay" sends an event again and watches it until it is attempted. */
function Deliveries({ webhook }: { webhook: Webhook }) {
  const [status, setStatus] = useState<WebhookDelivery['status'] | ''>('');
  const [polls, setPolls] = useState(0);
  const [busy, run] = useAction();
  const loaded = useLoad(
    (signal) => answer(api.GET('/v1/webhooks/{webhookId}/deliveries', { params: { path: { webhookId: webhook.id }, query: { status: status || undefined, limit: 20 } }, signal })),
    [webhook.id, status],
  );
  const pending = loaded.data?.deliveries.some((delivery) => delivery.status === 'PENDING') ?? false;

  // Polls while a replay is pending: the delivery log is the only status the redelivery has.
  useEffect(() => {
    if (polls === 0 || polls > POLLS || !pending) return;
    const timer = setTimeout(() => {
      loaded.reload();
      setPolls(polls + 1);
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [polls, loaded.data]);

  const replay = (delivery: WebhookDelivery) =>
    run(async () => {
      const replayed = await answer(api.POST('/v1/events/{eventId}/redeliver', { params: { path: { eventId: delivery.eventId } }, body: { webhookId: webhook.id } }));
      if (loaded.data) loaded.set({ ...loaded.data, deliveries: [replayed.delivery, ...loaded.data.deliveries] });
      setPolls(1);
    }, 'Replay queued: its result shows here once the receiver answers.');

  return (
    <div class="deliveries">
      <div class="field">
        <label for={`deliveries-${webhook.id}`}>Show</label>
        <select id={`deliveries-${webhook.id}`} value={status} onChange={(e) => setStatus(e.currentTarget.value as WebhookDelivery['status'] | '')}>
          <option value="">Every attempt</option>
          <option value="FAILED">Failed</option>
          <option value="SUCCEEDED">Delivered</option>
          <option value="PENDING">Pending</option>
        </select>
      </div>
      {polls > 0 && pending && polls <= POLLS && (
        <p class="muted" role="status">
          Waiting for the receiver to answer…
        </p>
      )}
      <Loading loaded={loaded} what="deliveries">
        {({ deliveries, totalCount }) =>
          deliveries.length === 0 ? (
            <p>No deliveries in the last 30 days.</p>
          ) : (
            <>
              <ul class="log">
                {deliveries.map((delivery) => (
                  <li key={delivery.id}>
                    <span id={`delivery-${delivery.id}`}>
                      <strong>{delivery.eventType}</strong> · attempt {delivery.attempt} · {when(delivery.attemptedAt)} · {result(delivery)}
                    </span>{' '}
                    {delivery.eventType !== 'webhook.test' && (
                      <button type="button" class="quiet" disabled={busy || !webhook.isEnabled} aria-describedby={`delivery-${delivery.id}`} onClick={() => replay(delivery)}>
                        Replay
                      </button>
                    )}
                  </li>
                ))}
              </ul>
              <More shown={deliveries.length} total={totalCount} />
            </>
          )
        }
      </Loading>
    </div>
  );
}

function WebhookItem({ webhook, onChanged }: { webhook: Webhook; onChanged: (webhook: Webhook) => void }) {
  const [open, setOpen] = useState(false);
  const [busy, run] = useAction();
  const headingId = `webhook-${webhook.id}`;
  const enable = () =>
    run(async () => onChanged((await answer(api.PATCH('/v1/webhooks/{webhookId}', { params: { path: { webhookId: webhook.id } }, body: { isEnabled: true } }))).webhook), 'Webhook on again.');
  return (
    <li class="item">
      <h3 id={headingId} class="url">
        {webhook.url}
      </h3>
      {webhook.description && <p>{webhook.description}</p>}
      <p>
        {webhook.isEnabled ? 'On' : `Off${webhook.disabledReason ? `: ${DISABLED_WORDS[webhook.disabledReason]}` : ''}`} · events: {webhook.events.join(', ')}
      </p>
      <div class="actions">
        {!webhook.isEnabled && (
          <button type="button" disabled={busy} aria-describedby={headingId} onClick={enable}>
            Turn on again
          </button>
        )}
        <button type="button" aria-expanded={open} aria-controls={`log-${webhook.id}`} aria-describedby={headingId} onClick={() => setOpen(!open)}>
          Delivery log
        </button>
      </div>
      <div id={`log-${webhook.id}`}>{open && <Deliveries webhook={webhook} />}</div>
    </li>
  );
}

export function Webhooks() {
  const { query: params } = usePlace();
  const failingOnly = params.get('webhooks') === 'failing';
  const loaded = useLoad(async (signal) => {
    const { items } = await listUntil((limit, cursor) => api.GET('/v1/webhooks', { params: { query: { limit, cursor } }, signal }), 'webhooks');
    return failingOnly ? items.filter(isFailing) : items;
  }, [failingOnly]);
  return (
    <>
      {failingOnly && (
        <p>
          Only the failing webhooks. <a href={`${consolePath('/settings')}#webhooks`}>Show every webhook</a>
        </p>
      )}
      <Loading loaded={loaded} what="webhooks">
        {(webhooks) =>
          webhooks.length === 0 ? (
            <p>{failingOnly ? 'No webhook is failing.' : 'No webhooks.'}</p>
          ) : (
            <ul class="items">
              {webhooks.map((webhook) => (
                <WebhookItem key={webhook.id} webhook={webhook} onChanged={(changed) => loaded.set(webhooks.map((each) => (each.id === changed.id ? changed : each)))} />
              ))}
            </ul>
          )
        }
      </Loading>
    </>
  );
}
