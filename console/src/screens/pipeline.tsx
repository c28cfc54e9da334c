import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { answer, api } from '../api';
import { consolePath } from '../base';
import { leadName, money, STATUS_LABELS, when } from '../format';
import { assignedTo, useMembers } from '../members';
import { announce, showProblem } from '../notices';
import { useOrganization } from '../organization';
import { changeQuery, usePlace } from '../router';
import { useSession } from '../session';
import { segment } from '../url';
import { LEAD_STATUSES, type Lead, type LeadStatus, type Member } from '../types';
import { Loading, Options, Page, useLoad } from '../ui';
import { quietSince } from './today-counts';
import { ExportLeads } from './export-leads';

interface Column {
  leads: Lead[];
  total: number;
  cursor: string | null;
}
type Board = Partial<Record<LeadStatus, Column>>;

const isStatus = (value: string | null): value is LeadStatus => LEAD_STATUSES.includes(value as LeadStatus);

function Card({ lead, currency, members, onMove }: { lead: Lead; currency: string; members: Member[] | undefined; onMove: (lead: Lead, to: LeadStatus) => void }) {
  const titleId = `card-${lead.id}`;
  // The list only chooses: a select changes with every arrow key, and each move is a status change with its webhooks
  // and automations, so the move is the button's.
  const [target, setTarget] = useState<LeadStatus>(lead.status);
  useEffect(() => setTarget(lead.status), [lead.status]);
  return (
    <li
      class="card"
      draggable
      onDragStart={(e) => {
        e.dataTransfer?.setData('text/plain', lead.id);
        if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
      }}
    >
      <h3 id={titleId} class="card-title">
        {/* The card drags, not the link's URL. */}
        <a href={consolePath(`/leads/${segment(lead.id)}`)} draggable={false}>
          {leadName(lead)}
        </a>
      </h3>
      <p class="muted">
        {money(lead.value, currency)} · here since {when(lead.statusChangedAt ?? lead.createdAt)} · {assignedTo(lead.assignedMemberId, members)}
      </p>
      <label for={`move-${lead.id}`}>Move to…</label>
      <div class="move">
        <select id={`move-${lead.id}`} aria-describedby={titleId} value={target} onChange={(e) => setTarget(e.currentTarget.value as LeadStatus)}>
          <Options values={LEAD_STATUSES} labels={STATUS_LABELS} />
        </select>
        <button type="button" aria-describedby={titleId} disabled={target === lead.status} onClick={() => onMove(lead, target)}>
          Move
        </button>
      </div>
    </li>
  );
}

/**
 * The board: a column per lead status; a card moves by drag and drop or its "Move to…" select and Move button (PATCH
 * status). "Only my leads" lists each column's leads assigned to the signed-in member (`assignedMemberId`, counted by
 * the API as every column is).
 */
export function Pipeline() {
  const { query: params } = usePlace();
  const only = params.get('status');
  const me = useSession()?.member.id;
  const members = useMembers();
  const quietDays = Number(params.get('quietDays')) || 0;
  const since = params.get('since');
  // When each column's leads took its status: from `since` (a report's period), and before `before` or the time
  // quietDays ago (the quotes gone quiet), fixed while the board is shown, as its cursors are bound to it.
  const before = useMemo(() => (quietDays > 0 ? quietSince(quietDays) : params.get('before')), [quietDays, params.get('before')]);
  // A range of times takes no other filter in the API: the board is everyone's then.
  const ranged = Boolean(since || before);
  const mine = params.get('mine') === '1' && !ranged && me !== undefined;
  /** A page of a column's leads, from where the page before ended. */
  const readColumn = (status: LeadStatus, cursor?: string | null, signal?: AbortSignal) =>
    answer(
      api.GET('/v1/leads', {
        params: { query: { status, statusChangedSince: since ?? undefined, statusChangedBefore: before ?? undefined, assignedMemberId: mine ? me : undefined, limit: 100, cursor: cursor ?? undefined } },
        signal,
      }),
    );
  const statuses = isStatus(only) ? [only] : LEAD_STATUSES;
  const currency = useOrganization()?.currency ?? 'AUD';
  const [over, setOver] = useState<LeadStatus | null>(null);
  const focusAfter = useRef<string | null>(null);

  const loaded = useLoad(async (signal) => {
    const pages = await Promise.all(statuses.map((status) => readColumn(status, null, signal)));
    const board: Board = {};
    for (const [at, status] of statuses.entries()) board[status] = { leads: pages[at]!.leads, total: pages[at]!.totalCount, cursor: pages[at]!.nextCursor };
    return board;
  }, [only, since, before, mine]);

  // A moved card's select keeps the focus in its new column, so keyboard moves go on from there.
  useEffect(() => {
    if (!focusAfter.current) return;
    (document.getElementById(`move-${focusAfter.current}`) ?? document.getElementById('page-title'))?.focus();
    focusAfter.current = null;
  }, [loaded.data]);

  const withLead = (board: Board, from: LeadStatus, lead: Lead): Board => {
    const next: Board = { ...board };
    for (const status of statuses) {
      const column = board[status];
      if (!column) continue;
      const rest = column.leads.filter((each) => each.id !== lead.id);
      const leads = status === lead.status ? [lead, ...rest] : rest;
      const total = column.total + (status === lead.status && status !== from ? 1 : 0) - (status === from && status !== lead.status ? 1 : 0);
      next[status] = { ...column, leads, total };
    }
    return next;
  };

  const move = async (lead: Lead, to: LeadStatus) => {
    const before = loaded.data;
    if (!before || lead.status === to) return;
    // A lead lost says why, for the reports' reasons: asked at the move (cancel keeps it where it was; empty says none).
    const lostReason = to === 'LOST' ? prompt(`Why was ${leadName(lead)} lost? (optional)`, lead.lostReason ?? '') : undefined;
    if (lostReason === null) return;
    focusAfter.current = lead.id;
    loaded.set(withLead(before, lead.status, { ...lead, status: to }));
    try {
      const body = { status: to, ...(lostReason?.trim() ? { lostReason: lostReason.trim() } : {}) };
      const { lead: saved } = await answer(api.PATCH('/v1/leads/{leadId}', { params: { path: { leadId: lead.id } }, body }));
      loaded.set(withLead(before, lead.status, saved));
      announce(`Moved ${leadName(saved)} to ${STATUS_LABELS[to]}.`);
    } catch (error) {
      focusAfter.current = lead.id;
      loaded.set(before);
      showProblem(error);
    }
  };

  const loadMore = async (status: LeadStatus) => {
    const column = loaded.data?.[status];
    if (!column?.cursor) return;
    try {
      const page = await readColumn(status, column.cursor);
      loaded.set({ ...loaded.data, [status]: { leads: [...column.leads, ...page.leads], total: page.totalCount, cursor: page.nextCursor } });
    } catch (error) {
      showProblem(error);
    }
  };

  /** The board with "Only my leads" on or off, in its address, so it is kept on going back. */
  const showMine = (on: boolean) => changeQuery(consolePath('/pipeline'), params, { mine: on ? '1' : '' });

  const find = (id: string) => statuses.flatMap((status) => loaded.data?.[status]?.leads ?? []).find((lead) => lead.id === id);

  return (
    <Page title="Pipeline">
      {(isStatus(only) || since || before) && (
        <p>
          {isStatus(only) && `Only ${STATUS_LABELS[only]} leads. `}
          {quietDays > 0 ? `Only leads in their column for ${quietDays} days or more. ` : before && `Only leads that took their status before ${when(before)}. `}
          {since && `Only leads that took their status since ${when(since)}. `}
          <a href={consolePath('/pipeline')}>Show the whole board</a>
        </p>
      )}
      {!ranged && me !== undefined && (
        <div class="switch">
          <input id="board-mine" type="checkbox" checked={mine} onChange={(e) => showMine(e.currentTarget.checked)} />
          <label for="board-mine">Only my leads</label>
        </div>
      )}
      <p class="hint">Drag a card to another column, or choose where to move it in its “Move to…” list and press Move.</p>
      <Loading loaded={loaded} what="the pipeline">
        {(board) => (
          <div class="board">
            {statuses.map((status) => {
              const column = board[status]!;
              const shown = column.leads;
              const value = shown.reduce((sum, lead) => sum + (lead.value ?? 0), 0);
              return (
                <section
                  key={status}
                  class={over === status ? 'column over' : 'column'}
                  aria-labelledby={`column-${status}`}
                  onDragOver={(e) => {
                    e.preventDefault();
                    setOver(status);
                  }}
                  onDragLeave={() => setOver(null)}
                  onDrop={(e) => {
                    e.preventDefault();
                    setOver(null);
                    const lead = find(e.dataTransfer?.getData('text/plain') ?? '');
                    if (lead) void move(lead, status);
                  }}
                >
                  <h2 id={`column-${status}`}>
                    {STATUS_LABELS[status]} <span class="count">({column.total})</span>
                  </h2>
                  <p class="muted">{money(value, currency)} shown</p>
                  {shown.length === 0 ? (
                    <p class="muted">No leads.</p>
                  ) : (
                    <ul class="cards">
                      {shown.map((lead) => (
                        <Card key={lead.id} lead={lead} currency={currency} members={members} onMove={move} />
                      ))}
                    </ul>
                  )}
                  {column.cursor && (
                    <button type="button" aria-describedby={`column-${status}`} onClick={() => loadMore(status)}>
                      Load more
                    </button>
                  )}
                </section>
              );
            })}
          </div>
        )}
      </Loading>
      {/* Below the board: above it, it would move the columns while a card is dragged. */}
      <ExportLeads status={isStatus(only) ? only : null} range={{ statusChangedSince: since, statusChangedBefore: before }} {...(mine ? { assignedMemberId: me } : {})} />
    </Page>
  );
}
