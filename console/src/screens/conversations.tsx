import { answer, api } from '../api';
import { consolePath } from '../base';
import { leadName, when } from '../format';
import { memberName, useMembers } from '../members';
import { changeQuery, usePlace } from '../router';
import { useSession } from '../session';
import { segment } from '../url';
import type { Conversation, Member } from '../types';
import { Loading, More, usePages } from '../ui';

/** Who wrote a conversation's latest text: the customer, you, another member by name, or an automation. */
function senderOf(row: Conversation, me: number | undefined, members: Member[] | undefined): string {
  const { direction, memberId } = row.lastMessage;
  if (direction === 'INBOUND') return leadName(row.lead);
  if (memberId === null) return 'Automation';
  return memberId === me ? 'You' : memberName(memberId, members);
}

function ConversationRow({ row, me, members }: { row: Conversation; me: number | undefined; members: Member[] | undefined }) {
  const name = leadName(row.lead);
  const unread = row.unreadCount > 0;
  return (
    <li class={unread ? 'conversation unread' : 'conversation'}>
      <a class="open" href={consolePath(`/inbox/${segment(row.lastMessage.inquiryId)}`)}>
        <span class="who">{name}</span>
        {unread && <span class="badge attention">Unread</span>}
        {row.status === 'CLOSED' && <span class="badge">Closed</span>}
        {row.assignedMemberId !== null && <span class="badge">{row.assignedMemberId === me ? 'Yours' : memberName(row.assignedMemberId, members)}</span>}
        <span class="summary">
          <span class="sender">{senderOf(row, me, members)}:</span> {row.lastMessage.body}
        </span>
        <span class="muted">{when(row.lastMessage.at)}</span>
      </a>
      {row.lead?.phone && (
        <a class="call" href={`tel:${row.lead.phone}`} aria-label={`Call ${name}`}>
          Call
        </a>
      )}
    </li>
  );
}

/**
 * The Inbox's texts: one row per customer, the latest text first (GET /v1/conversations with their leads), who wrote
 * it, unread and assigned; a row opens the thread to reply in, and Call rings the customer.
 */
export function Conversations() {
  const { query: params } = usePlace();
  const me = useSession()?.member.id;
  const members = useMembers();
  const unreadOnly = params.get('show') === 'unread';
  const mine = params.get('mine') === '1' && me !== undefined;
  const list = usePages(
    async (cursor, signal) => {
      const page = await answer(
        api.GET('/v1/conversations', {
          params: { query: { expand: 'lead', unread: unreadOnly ? true : undefined, assignedMemberId: mine ? me : undefined, limit: 50, cursor: cursor ?? undefined } },
          signal,
        }),
      );
      return { ...page, items: page.conversations };
    },
    [unreadOnly, mine],
  );
  /** The texts with these filters changed, kept in the address. */
  const setFilters = (changes: Record<string, string>) => changeQuery(consolePath('/inbox'), params, changes);

  return (
    <>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="texts-show">Show</label>
          <select id="texts-show" value={unreadOnly ? 'unread' : ''} onChange={(e) => setFilters({ show: e.currentTarget.value })}>
            <option value="">Every customer</option>
            <option value="unread">Unread only</option>
          </select>
        </div>
        {me !== undefined && (
          <div class="switch">
            <input id="texts-mine" type="checkbox" checked={mine} onChange={(e) => setFilters({ mine: e.currentTarget.checked ? '1' : '' })} />
            <label for="texts-mine">Only my leads</label>
          </div>
        )}
      </form>
      <Loading loaded={list.first} what="texts">
        {() => (
          <>
            {list.items.length === 0 ? (
              <p>No texts here.</p>
            ) : (
              <ul class="conversations">
                {list.items.map((row) => (
                  <ConversationRow key={row.leadId} row={row} me={me} members={members} />
                ))}
              </ul>
            )}
            <More shown={list.items.length} total={list.total} onMore={list.loadMore} busy={list.busy} />
          </>
        )}
      </Loading>
    </>
  );
}
