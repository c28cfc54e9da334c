import { useEffect } from 'preact/hooks';
import { answer, api } from '../api';
import { consolePath } from '../base';
import { segment } from '../url';
import { leadName, OUTCOME_LABELS, seconds, SOURCE_LABELS, when } from '../format';
import { assignedTo, useMembers } from '../members';
import type { CallData, ChatbotData, EmailData, Inquiry, InquiryListItem, WebformData } from '../types';
import { Loading, Page, useAction, useLoad } from '../ui';
import { SmsThread } from './sms-thread';
import { LeadRuns } from './lead-history';

function Call({ call, outcome }: { call: CallData; outcome: InquiryListItem['callOutcome'] }) {
  return (
    <section aria-labelledby="call-heading">
      <h2 id="call-heading">The call</h2>
      <dl class="facts">
        <dt>Outcome</dt>
        <dd>{outcome ? OUTCOME_LABELS[outcome] : 'Not a call the lead made'}</dd>
        <dt>When</dt>
        <dd>{when(call.startedAt)}</dd>
        <dt>Length</dt>
        <dd>{seconds(call.duration)}</dd>
      </dl>
      <h3>Summary</h3>
      <p>{call.summary || 'No summary.'}</p>
      {call.keyPoints.length > 0 && (
        <ul>
          {call.keyPoints.map((point) => (
            <li key={point}>{point}</li>
          ))}
        </ul>
      )}
      <p class="links">
        {call.recordingUrl && (
          <a href={call.recordingUrl} target="_blank" rel="noopener noreferrer">
            Listen to the recording (opens in a new tab)
          </a>
        )}
        {call.transcripts.length > 0 && <a href="#transcript">Read the transcript</a>}
      </p>
      {call.transcripts.length > 0 && (
        <section id="transcript" tabIndex={-1} aria-labelledby="transcript-heading">
          <h3 id="transcript-heading">Transcript</h3>
          <ol class="thread">
            {call.transcripts.map((line) => (
              <li key={line.id} class={line.user === 'user' ? 'from-lead' : 'from-us'}>
                <p class="who">{line.user === 'user' ? 'Caller' : 'Receptionist'}</p>
                <p class="body">{line.text}</p>
              </li>
            ))}
          </ol>
          {call.transcriptTruncated && <p class="hint">The transcript stops here: the rest of the call was not kept.</p>}
        </section>
      )}
    </section>
  );
}

function Webform({ form }: { form: WebformData }) {
  return (
    <section aria-labelledby="form-heading">
      <h2 id="form-heading">Web form: {form.formName}</h2>
      <dl class="facts">
        {form.fields.map((field) => (
          <div key={field.name}>
            <dt>{field.label || field.name}</dt>
            <dd>{field.value}</dd>
          </div>
        ))}
      </dl>
      {form.pageUrl && <p>Sent from {form.pageUrl}</p>}
      {form.droppedFiles && form.droppedFiles.length > 0 && <p>Files not kept: {form.droppedFiles.join(', ')}</p>}
    </section>
  );
}

function Email({ email }: { email: EmailData }) {
  return (
    <section aria-labelledby="email-heading">
      <h2 id="email-heading">Email: {email.subject}</h2>
      <p>From {email.from}</p>
      <p class="body">{email.body}</p>
    </section>
  );
}

function Chat({ chat }: { chat: ChatbotData }) {
  return (
    <section aria-labelledby="chat-heading">
      <h2 id="chat-heading">Chat</h2>
      <ol class="thread">
        {chat.messages.map((message) => (
          <li key={message.id} class={message.role === 'user' ? 'from-lead' : 'from-us'}>
            <p class="who">{message.role === 'user' ? 'Lead' : 'Assistant'}</p>
            <p class="body">{message.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Source({ inquiry }: { inquiry: Inquiry }) {
  switch (inquiry.source) {
    case 'CALL':
      return <Call call={inquiry.data} outcome={inquiry.callOutcome} />;
    case 'WEBFORM':
      return <Webform form={inquiry.data} />;
    case 'EMAIL':
      return <Email email={inquiry.data} />;
    case 'CHATBOT':
      return <Chat chat={inquiry.data} />;
    default:
      return null;
  }
}

export function InquiryScreen({ inquiryId }: { inquiryId: string }) {
  const loaded = useLoad(async (signal) => {
    const inquiry = await answer(api.GET('/v1/inquiries/{inquiryId}', { params: { path: { inquiryId } }, signal }));
    const { lead } = await answer(api.GET('/v1/leads/{leadId}', { params: { path: { leadId: inquiry.leadId } }, signal }));
    return { inquiry, lead };
  }, [inquiryId]);
  const [busy, run] = useAction();
  const members = useMembers();

  const markRead = (isRead: boolean, say?: string) =>
    run(async () => {
      const { inquiry } = await answer(api.PATCH('/v1/inquiries/{inquiryId}', { params: { path: { inquiryId } }, body: { isRead } }));
      if (loaded.data) loaded.set({ ...loaded.data, inquiry: { ...loaded.data.inquiry, isRead: inquiry.isRead } });
    }, say);

  // Opening an inquiry reads it, as opening an email does; "Mark as unread" puts it back.
  useEffect(() => {
    if (loaded.data && !loaded.data.inquiry.isRead) void markRead(true);
  }, [loaded.data?.inquiry.id]);

  const title = loaded.data ? `${SOURCE_LABELS[loaded.data.inquiry.source]} from ${leadName(loaded.data.lead)}` : 'Inquiry';
  return (
    <Page title={title}>
      <p>
        <a href={consolePath('/inbox')}>Back to the inbox</a>
      </p>
      <Loading loaded={loaded} what="the inquiry">
        {({ inquiry, lead }) => (
          <>
            <p>
              Received {when(inquiry.createdAt)} · {inquiry.tag.replace(/_/g, ' ').toLowerCase()} · {inquiry.isRead ? 'Read' : 'Unread'} · {assignedTo(lead.assignedMemberId, members)}
            </p>
            <div class="actions">
              <button type="button" disabled={busy} onClick={() => markRead(!inquiry.isRead, inquiry.isRead ? 'Marked as unread.' : 'Marked as read.')}>
                {inquiry.isRead ? 'Mark as unread' : 'Mark as read'}
              </button>
              <a href={consolePath(`/leads/${segment(lead.id)}`)}>Open {leadName(lead)}’s lead</a>
            </div>
            <LeadRuns leadId={lead.id} waiting />
            {inquiry.summary && inquiry.source !== 'CALL' && <p>{inquiry.summary}</p>}
            <Source inquiry={inquiry} />
            <SmsThread lead={lead} threadId={inquiry.source === 'SMS' ? inquiry.data.id : undefined} />
          </>
        )}
      </Loading>
    </Page>
  );
}
