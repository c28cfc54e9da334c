import { answer, api } from '../api';
import { consolePath } from '../base';
import { leadName, OUTCOME_LABELS, SOURCE_LABELS, when } from '../format';
import { changeQuery, usePlace } from '../router';
import { segment } from '../url';
import { CALL_OUTCOMES, INQUIRY_SOURCES, type CallOutcome, type InquiryListItem, type InquirySource } from '../types';
import { Loading, More, Options, Page, usePages } from '../ui';
import { Conversations } from './conversations';

/** Which inquiries to show: the list's own filters (createdSince, createdBefore, callOutcome, isRead). */
interface Narrowing {
  since: string | null;
  until: string | null;
  outcome: CallOutcome | null;
  isRead: boolean | null;
}

/** The Show filter's value as the list's isRead: `unread`, `read`, or either. */
const isReadOf = (show: string) => (show === 'unread' ? false : show === 'read' ? true : null);

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

/** The Inbox's two views: every inquiry, or the texts, one row per customer (`view=texts`). */
function Views({ texts }: { texts: boolean }) {
  return (
    <nav class="views" aria-label="Inbox views">
      <a href={consolePath('/inbox')} aria-current={texts ? undefined : 'page'}>
        Inquiries
      </a>
      <a href={`${consolePath('/inbox')}?view=texts`} aria-current={texts ? 'page' : undefined}>
        Texts
      </a>
    </nav>
  );
}

export function Inbox() {
  const { query: params } = usePlace();
  if (params.get('view') === 'texts') {
    return (
      <Page title="Inbox">
        <Views texts />
        <Conversations />
      </Page>
    );
  }
  return <Inquiries />;
}

function Inquiries() {
  const { query: params } = usePlace();
  const source = (params.get('source') ?? '') as InquirySource | '';
  const show = params.get('show') ?? '';
  const narrowing: Narrowing = { since: params.get('since'), until: params.get('until'), outcome: (params.get('outcome') as CallOutcome | null) || null, isRead: isReadOf(show) };
  // Today's new inquiries: those the customers started since a time (`from=customers`), which the API lists alone.
  const fromCustomers = params.get('from') === 'customers' && Boolean(narrowing.since || narrowing.until);
  /** A page of the inquiries with these filters, their leads with them, from where the page before ended. */
  const list = usePages(
    async (cursor, signal) => {
      const page = await answer(
        api.GET('/v1/inquiries', {
          params: {
            query: {
              createdSince: narrowing.since ?? undefined,
              createdBefore: narrowing.until ?? undefined,
              ...(fromCustomers
                ? { startedBy: 'LEAD' as const }
                : { source: source || undefined, callOutcome: narrowing.outcome ?? undefined, isRead: narrowing.isRead ?? undefined }),
              expand: 'lead',
              limit: 50,
              cursor: cursor ?? undefined,
            },
          },
          signal,
        }),
      );
      return { ...page, items: page.inquiries };
    },
    [source, narrowing.since, narrowing.until, narrowing.outcome, narrowing.isRead, fromCustomers],
  );

  /** The inbox with these filters changed (an empty value removes one): a call outcome asks for calls, another source for no outcome. */
  const setFilters = (changes: Record<string, string>) => changeQuery(consolePath('/inbox'), params, changes);
  const narrowed = narrowing.since || narrowing.until;

  return (
    <Page title="Inbox">
      <Views texts={false} />
      <form class="filters" onSubmit={(e) => e.preventDefault()} hidden={fromCustomers}>
        <div class="field">
          <label for="inbox-source">Source</label>
          <select id="inbox-source" value={source} onChange={(e) => setFilters({ source: e.currentTarget.value, ...(e.currentTarget.value !== 'CALL' ? { outcome: '' } : {}) })}>
            <option value="">All sources</option>
            <Options values={INQUIRY_SOURCES} labels={SOURCE_LABELS} />
          </select>
        </div>
        <div class="field">
          <label for="inbox-outcome">Call outcome</label>
          <select id="inbox-outcome" value={narrowing.outcome ?? ''} onChange={(e) => setFilters({ outcome: e.currentTarget.value, ...(e.currentTarget.value ? { source: 'CALL' } : {}) })}>
            <option value="">Any outcome</option>
            <Options values={CALL_OUTCOMES} labels={OUTCOME_LABELS} />
          </select>
        </div>
        <div class="field">
          <label for="inbox-show">Show</label>
          <select id="inbox-show" value={show} onChange={(e) => setFilters({ show: e.currentTarget.value })}>
            <option value="">Read and unread</option>
            <option value="unread">Unread only</option>
            <option value="read">Read only</option>
          </select>
        </div>
      </form>
      {narrowed && (
        <p>
          {fromCustomers && 'Started by customers. '}
          {narrowing.since && `Since ${when(narrowing.since)}. `}
          {narrowing.until && `Before ${when(narrowing.until)}. `}
          <a href={consolePath('/inbox')}>Show every inquiry</a>
        </p>
      )}
      <Loading loaded={list.first} what="inquiries">
        {() => (
          <>
            {list.items.length === 0 ? (
              <p>No inquiries here.</p>
            ) : (
              <ul class="inquiries">
                {list.items.map((item) => (
                  <InquiryRow key={item.id} item={item} />
                ))}
              </ul>
            )}
            <More shown={list.items.length} total={list.total} onMore={list.loadMore} busy={list.busy} />
          </>
        )}
      </Loading>
    </Page>
  );
}
