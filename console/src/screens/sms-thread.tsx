import { useState } from 'preact/hooks';
import { answer, api } from '../api';
import { leadName, when } from '../format';
import { useMembers } from '../members';
import { useSession } from '../session';
import type { Lead, Sms } from '../types';
import { Loading, useAction, useLoad } from '../ui';

const STATUS_WORDS: Record<Sms['status'], string> = { QUEUED: 'Queued', SENT: 'Sent', DELIVERED: 'Delivered', FAILED: 'Failed', RECEIVED: 'Received' };

/**
 * The texts with a lead, oldest first, and a reply box: POST /v1/sms as the signed-in member's user. A reply joins
 * `threadId` (an SMS inquiry's thread) or the newest thread; with none it starts one.
 */
export function SmsThread({ lead, threadId }: { lead: Lead; threadId?: string }) {
  const session = useSession();
  const [draft, setDraft] = useState('');
  const [busy, run] = useAction();
  const loaded = useLoad((signal) => answer(api.GET('/v1/sms', { params: { query: { leadId: lead.id, limit: 100 } }, signal })), [lead.id]);
  const myUserId = session?.member.user?.id;
  const messages = [...(loaded.data?.messages ?? [])].reverse();
  // Who sent each text: another member's by name, from the members the console reads once per organization.
  const senders = new Map((useMembers() ?? []).flatMap((member) => (member.user ? [[member.user.id, `${member.firstName} ${member.lastName}`] as const] : [])));
  const sender = (sms: Sms) => {
    if (sms.direction === 'INBOUND') return leadName(lead);
    if (sms.automationRunId) return 'Automation';
    if (sms.userId === null) return 'The business';
    if (sms.userId === myUserId) return 'You';
    return senders.get(sms.userId) ?? 'A member';
  };
  const replyTo = threadId ?? messages.at(-1)?.messageThreadId;
  const cannotText = lead.smsOptedOut ? 'This lead opted out of texts.' : !lead.phone ? 'This lead has no phone number.' : null;

  const send = (event: Event) => {
    event.preventDefault();
    const text = draft.trim();
    // A retry of the same words keeps its Idempotency-Key (the door's), so a send that did go out is not sent twice.
    void run(async () => {
      if (!myUserId) throw new Error('Your member has no user to send texts as.');
      const { sms } = await answer(
        api.POST('/v1/sms', { body: { userId: myUserId, leadId: lead.id, message: text, ...(replyTo ? { messageThreadId: replyTo } : {}) } }),
      );
      loaded.set({ ...loaded.data!, messages: [sms, ...(loaded.data?.messages ?? [])] });
      setDraft('');
    }, 'Text sent.');
  };

  return (
    <section aria-labelledby="sms-heading">
      <h2 id="sms-heading">Texts</h2>
      <Loading loaded={loaded} what="texts">
        {() =>
          messages.length === 0 ? (
            <p>No texts with this lead yet.</p>
          ) : (
            <ol class="thread">
              {messages.map((sms) => (
                <li key={sms.id} class={sms.direction === 'INBOUND' ? 'from-lead' : 'from-us'}>
                  <p class="who">{sender(sms)}</p>
                  <p class="body">{sms.body}</p>
                  <p class="muted">
                    {when(sms.createdAt)} · {STATUS_WORDS[sms.status]}
                  </p>
                </li>
              ))}
            </ol>
          )
        }
      </Loading>
      <form class="stack" onSubmit={send}>
        <label for="sms-reply">Reply</label>
        {cannotText && (
          <p id="sms-reply-why" class="hint">
            {cannotText}
          </p>
        )}
        <textarea id="sms-reply" rows={3} value={draft} onInput={(e) => setDraft(e.currentTarget.value)} disabled={Boolean(cannotText)} aria-describedby={cannotText ? 'sms-reply-why' : undefined} />
        <button type="submit" class="primary" disabled={busy || !draft.trim() || Boolean(cannotText)}>
          Send
        </button>
      </form>
    </section>
  );
}
