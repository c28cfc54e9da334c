import { useEffect, useState } from 'preact/hooks';
import { answer, api, listUntil } from '../api';
import { consolePath } from '../base';
import { when } from '../format';
import { usePlace } from '../router';
import type { Webhook, WebhookDelivery } from '../types';
import { Loading, More, useAction, useLoad } from '../ui';
import { isFailing } from '../screens/today-counts';
import { WEBHOOK_EVENT_TYPES } from '../api-lists';
import { announce } from '../notices';
import { ShownOnce } from './api-keys';

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

type EventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The event types by what they are about (`lead`, `sms`, `automation_run`), in the document's order. */
const EVENT_GROUPS = Object.entries(Object.groupBy(WEBHOOK_EVENT_TYPES, (type) => type.slice(0, type.indexOf('.')))) as [string, EventType[]][];

/** A new subscription: its URL, every event or those chosen, and its signing secret shown once. */
function AddWebhook({ onAdded }: { onAdded: (webhook: Webhook) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [every, setEvery] = useState(true);
  const [chosen, setChosen] = useState<ReadonlySet<EventType>>(new Set());
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, run] = useAction();
  const choose = (type: EventType, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(type);
    else next.delete(type);
    setChosen(next);
  };
  const add = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const events = every ? (['*'] as const) : WEBHOOK_EVENT_TYPES.filter((type) => chosen.has(type));
      if (events.length === 0) throw new Error('Choose at least one event, or every event.');
      const { webhook } = await answer(api.POST('/v1/webhooks', { body: { url: url.trim(), events: [...events], ...(description.trim() ? { description: description.trim() } : {}) } }));
      const { secret: made, ...subscription } = webhook;
      onAdded(subscription);
      setSecret(made);
      setUrl('');
      setDescription('');
    }, 'Webhook added: copy its signing secret now, it is shown only once.');
  };
  return (
    <>
      <form class="stack" onSubmit={add}>
        <div class="field">
          <label for="webhook-url">Receiver URL</label>
          <input id="webhook-url" type="url" required maxLength={2048} placeholder="https://hooks.example.com/sales-pipeline" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="webhook-description">Description (optional)</label>
          <input id="webhook-description" maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </div>
        <fieldset>
          <legend>Events</legend>
          <label class="choice">
            <input type="checkbox" checked={every} onChange={(e) => setEvery(e.currentTarget.checked)} /> Every event, and those added later
          </label>
          {!every &&
            EVENT_GROUPS.map(([about, types]) => (
              <fieldset key={about}>
                <legend>{about.replace(/_/g, ' ')}</legend>
                {types.map((type) => (
                  <label key={type} class="choice">
                    <input type="checkbox" checked={chosen.has(type)} onChange={(e) => choose(type, e.currentTarget.checked)} /> {type}
                  </label>
                ))}
              </fieldset>
            ))}
        </fieldset>
        <button type="submit" class="primary" disabled={busy}>
          Add webhook
        </button>
      </form>
      {secret && <ShownOnce id="new-webhook-secret" label="Its signing secret" value={secret} onDone={() => setSecret(null)} />}
    </>
  );
}

function WebhookItem({ webhook, onChanged, onDeleted }: { webhook: Webhook; onChanged: (webhook: Webhook) => void; onDeleted: () => void }) {
  const [open, setOpen] = useState(false);
  const [busy, run] = useAction();
  const headingId = `webhook-${webhook.id}`;
  const enable = () =>
    run(async () => onChanged((await answer(api.PATCH('/v1/webhooks/{webhookId}', { params: { path: { webhookId: webhook.id } }, body: { isEnabled: true } }))).webhook), 'Webhook on again.');
  const remove = () =>
    run(async () => {
      if (!confirm(`Delete the webhook to ${webhook.url}? Its receiver gets no more events.`)) return;
      await answer(api.DELETE('/v1/webhooks/{webhookId}', { params: { path: { webhookId: webhook.id } } }));
      onDeleted();
      announce('Webhook deleted: its receiver gets no more events.');
    });
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
        <button type="button" class="danger" disabled={busy} aria-describedby={headingId} onClick={remove}>
          Delete
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
      {/* The form only once the list is read: a member whose role may not manage webhooks is told so, and offered nothing. */}
      <Loading loaded={loaded} what="webhooks">
        {(webhooks) => (
          <>
            {!failingOnly && <AddWebhook onAdded={(added) => loaded.set([added, ...webhooks])} />}
            {webhooks.length === 0 ? (
              <p>{failingOnly ? 'No webhook is failing.' : 'No webhooks.'}</p>
            ) : (
              <ul class="items">
                {webhooks.map((webhook) => (
                  <WebhookItem
                    key={webhook.id}
                    webhook={webhook}
                    onChanged={(changed) => loaded.set(webhooks.map((each) => (each.id === changed.id ? changed : each)))}
                    onDeleted={() => loaded.set(webhooks.filter((each) => each.id !== webhook.id))}
                  />
                ))}
              </ul>
            )}
          </>
        )}
      </Loading>
    </>
  );
}
