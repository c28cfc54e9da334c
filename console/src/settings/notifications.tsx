import { useEffect, useState } from 'preact/hooks';
import { answer, api } from '../api';
import { CONSOLE_BASE } from '../base';
import { when } from '../format';
import { useSession } from '../session';
import { NOTICE_LABELS, type NoticeKind, type PushSubscriptionView } from '../types';
import { Loading, useAction, useLoad } from '../ui';

/** The kinds a member of this role may choose: a failing webhook is for those who manage webhooks. */
const kindsFor = (role: string | undefined): NoticeKind[] => (Object.keys(NOTICE_LABELS) as NoticeKind[]).filter((kind) => kind !== 'WEBHOOK_FAILING' || role === 'ADMIN');

/** Whether this browser can get push notices at all: a service worker, the Push API and notifications. */
const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** The console's service worker (registered as the app loads: main.tsx), once it is active. */
const workerReady = () => navigator.serviceWorker.register(`${CONSOLE_BASE}/sw.js`).then(() => navigator.serviceWorker.ready);

/**
 * Notifications on this device: the browser asked for permission, subscribed with the organization's key through its own
 * push service (PushManager), and the subscription kept by the API with what the member chose to hear of; the member's
 * other devices listed, each removable.
 */
export function Notifications() {
  const session = useSession();
  const kinds = kindsFor(session?.member.role);
  const loaded = useLoad((signal) => answer(api.GET('/v1/me/push-subscriptions', { signal })).then(({ subscriptions }) => subscriptions), []);
  const [here, setHere] = useState<string | null | undefined>(undefined);
  const [chosen, setChosen] = useState<NoticeKind[]>(kinds);
  const [busy, run] = useAction();
  useEffect(() => {
    if (!pushSupported()) return setHere(null);
    void workerReady()
      .then((registration) => registration.pushManager.getSubscription())
      .then((subscription) => setHere(subscription?.endpoint ?? null), () => setHere(null));
  }, []);
  const thisDevice = loaded.data?.find((subscription) => subscription.endpoint === here);
  useEffect(() => {
    if (thisDevice) setChosen(thisDevice.notify.filter((kind) => kinds.includes(kind)));
  }, [thisDevice?.id]);

  const keep = (subscription: PushSubscriptionView) => loaded.set([...(loaded.data ?? []).filter((each) => each.id !== subscription.id), subscription]);
  const turnOn = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      if (!pushSupported()) throw new Error('This browser cannot show notifications from a website.');
      if ((await Notification.requestPermission()) !== 'granted') throw new Error('Notifications are blocked for this site: allow them in the browser’s site settings, then try again.');
      const registration = await workerReady();
      const { applicationServerKey } = await answer(api.POST('/v1/me/push-subscription-options'));
      const subscription = (await registration.pushManager.getSubscription()) ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey }));
      const { endpoint, keys } = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
      const kept = await answer(api.POST('/v1/me/push-subscriptions', { body: { endpoint, keys, notify: chosen } }));
      keep(kept.subscription);
      setHere(endpoint);
    }, thisDevice ? 'Saved: this device is notified of what you chose.' : 'Notifications are on for this device.');
  };
  const remove = (subscription: PushSubscriptionView) =>
    run(async () => {
      if (subscription.endpoint === here) {
        await (await navigator.serviceWorker.getRegistration(`${CONSOLE_BASE}/`))?.pushManager.getSubscription().then((own) => own?.unsubscribe());
        setHere(null);
      }
      await answer(api.DELETE('/v1/me/push-subscriptions/{subscriptionId}', { params: { path: { subscriptionId: subscription.id } } }));
      loaded.set((loaded.data ?? []).filter((each) => each.id !== subscription.id));
    }, 'That device is notified no more.');
  const toggle = (kind: NoticeKind, on: boolean) => setChosen(kinds.filter((each) => (each === kind ? on : chosen.includes(each))));

  return (
    <>
      {here === null && !pushSupported() ? <p>This browser cannot show notifications from a website. On an iPhone, add the console to the Home Screen first.</p> : null}
      <form class="inline-form" onSubmit={turnOn}>
        <fieldset>
          <legend>Notify this device of</legend>
          {kinds.map((kind) => (
            <label key={kind} class="check">
              <input type="checkbox" checked={chosen.includes(kind)} onChange={(e) => toggle(kind, e.currentTarget.checked)} /> {NOTICE_LABELS[kind]}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary" disabled={busy || here === undefined || chosen.length === 0}>
          {thisDevice ? 'Save' : 'Turn on notifications'}
        </button>
      </form>
      <h3>Your devices</h3>
      <Loading loaded={loaded} what="devices">
        {(subscriptions) =>
          subscriptions.length === 0 ? (
            <p>No device gets notifications yet.</p>
          ) : (
            <ul>
              {subscriptions.map((subscription) => (
                <li key={subscription.id}>
                  <span id={`device-${subscription.id}`}>
                    {subscription.endpoint === here ? 'This device' : `A device on ${new URL(subscription.endpoint).host}`}, since {when(subscription.createdAt)}: {subscription.notify.map((kind) => NOTICE_LABELS[kind].toLowerCase()).join(', ')}
                  </span>{' '}
                  <button type="button" class="danger" disabled={busy} aria-describedby={`device-${subscription.id}`} onClick={() => remove(subscription)}>
                    Turn off
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
    </>
  );
}
