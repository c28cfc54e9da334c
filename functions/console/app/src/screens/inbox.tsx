import { useState } from 'preact/hooks';
import { get, query, segment } from '../api';
import { consolePath } from '../base';
import { leadName, OUTCOME_LABELS, SOURCE_LABELS, when } from '../format';
import { showProblem } from '../notices';
import { navigate, usePlace } from '../router';
import { INQUIRY_SOURCES, type InquiryListItem, type InquirySource, type Page as ListPage } from '../types';
import { Loading, More, Options, Page, useLoad } from '../ui';
import { after } from './today-counts';

type InquiryPage = ListPage<'inquiries', InquiryListItem>;

/**
 * Which inquiries to show: `since` is the list's own createdSince; the rest, which its filters cannot do, is done on the
 * items read: created before a time, the call's outcome, and unread only.
 */
interface Narrowing {
  since: string | null;
  until: string | null;
  outcomes: string[] | null;
  unreadOnly: boolean;
}

const kept = (item: InquiryListItem, { until, outcomes, unreadOnly }: Narrowing) =>
  (!until || after(until, item.createdAt)) &&
  (!outcomes || (item.callOutcome !== null && outcomes.includes(item.callOutcome))) &&
  (!unreadOnly || !item.isRead);

function InquiryRow({ item }: { item: InquiryListItem }) {
  const what = [SOURCE_LABELS[item.source], item.callOutcome && item.callOutcome !== 'ANSWERED' ? OUTCOME_LABELS[item.callOutcome] : null].filter(Boolean).join(' · ');
  return (
    <li class={item.isRead ? 'inquiry' : 'inquiry unread'}>
      <a href={consolePath(`/inbox/${segment(item.id)}`)}>
        <span class="who">{leadName(item.lead)}</span>
        {!item.isRead && <span class="badge attention">Unread</span>}
        <span class="badge">{what}</span>
        <span class="summary">{item.summary || 'No summary'}</span>
        <span class="muted">{when(item.createdAt)}</span>
      </a>
    </li>
  );
}

export function Inbox() {
  const { query: params } = usePlace();
  const source = (params.get('source') ?? '') as InquirySource | '';
  const unreadOnly = params.get('show') === 'unread';
  const narrowing: Narrowing = { since: params.get('since'), until: params.get('until'), outcomes: params.get('outcome')?.split(',') ?? null, unreadOnly };
  const [extra, setExtra] = useState<{ items: InquiryListItem[]; cursor: string | null } | null>(null);
  const [busy, setBusy] = useState(false);

  // TODO(api): GET /v1/inquiries lacks isRead and callOutcome filters and a createdAt upper bound: Narrowing applies them here.
  const first = useLoad(
    (signal) => {
      setExtra(null);
      return get<InquiryPage>(`/v1/inquiries${query({ source, createdSince: narrowing.since, expand: 'lead', limit: 50 })}`, signal);
    },
    [source, narrowing.since],
  );

  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    navigate(`${consolePath('/inbox')}${next.size ? `?${next}` : ''}`, { replace: true, sameScreen: true });
  };

  const items = [...(first.data?.inquiries ?? []), ...(extra?.items ?? [])];
  const cursor = extra ? extra.cursor : (first.data?.nextCursor ?? null);
  const loadMore = async () => {
    setBusy(true);
    try {
      const page = await get<InquiryPage>(`/v1/inquiries${query({ source, createdSince: narrowing.since, expand: 'lead', limit: 50, cursor })}`);
      setExtra({ items: [...(extra?.items ?? []), ...page.inquiries], cursor: page.nextCursor });
    } catch (error) {
      showProblem(error);
    } finally {
      setBusy(false);
    }
  };
  const shown = items.filter((item) => kept(item, narrowing));
  const narrowed = narrowing.since || narrowing.until || narrowing.outcomes;
  // The list's totalCount counts what createdSince keeps, not what is narrowed here.
  const narrowedHere = narrowing.until || narrowing.outcomes || unreadOnly;

  return (
    <Page title="Inbox">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="inbox-source">Source</label>
          <select id="inbox-source" value={source} onChange={(e) => setFilter('source', e.currentTarget.value)}>
            <option value="">All sources</option>
            <Options values={INQUIRY_SOURCES} labels={SOURCE_LABELS} />
          </select>
        </div>
        <div class="field">
          <label for="inbox-show">Show</label>
          <select id="inbox-show" value={unreadOnly ? 'unread' : ''} onChange={(e) => setFilter('show', e.currentTarget.value)}>
            <option value="">Read and unread</option>
            <option value="unread">Unread only</option>
          </select>
        </div>
      </form>
      {narrowed && (
        <p>
          {narrowing.since && `Since ${when(narrowing.since)}. `}
          {narrowing.until && `Before ${when(narrowing.until)}. `}
          {narrowing.outcomes && `Calls ${narrowing.outcomes.map((outcome) => OUTCOME_LABELS[outcome as keyof typeof OUTCOME_LABELS] ?? outcome).join(' or ')}. `}
          <a href={consolePath('/inbox')}>Show every inquiry</a>
        </p>
      )}
      <Loading loaded={first} what="inquiries">
        {() => (
          <>
            {shown.length === 0 ? (
              <p>No inquiries here{cursor ? ' among those read so far' : ''}.</p>
            ) : (
              <ul class="inquiries">
                {shown.map((item) => (
                  <InquiryRow key={item.id} item={item} />
                ))}
              </ul>
            )}
            <More shown={shown.length} total={narrowedHere ? undefined : first.data?.totalCount} onMore={cursor ? loadMore : undefined} busy={busy} />
          </>
        )}
      </Loading>
    </Page>
  );
}
