import { createHash } from 'node:crypto';
import { newId } from '#shared/ids';
import { createInquiry, type NewInquiry } from './store';
import { callSummaryFields } from './call-outcome';
import type { CallData, SmsMessage } from './schema';
import type { Lead } from '../leads/schema';
import type { DemoSeed } from '#shared/resource';
import demoInquiries from './demo-inquiries.json' with { type: 'json' };

const DAY = 24 * 60 * 60 * 1000;
const BUSINESS_EMAIL = 'enquiries@harbourcitytrades.com.au';
const BUSINESS_SITE = 'https://www.harbourcitytrades.com.au';

type Party = 'user' | 'assistant';
/** [who, what, seconds into the conversation] */
type Line = [Party, string, number];

/** What demo-inquiries.json holds of one inquiry: who sent it, when, and what its source records. */
interface DemoInquiryBase {
  email: string;
  daysAgo: number;
  tag: NewInquiry['tag'];
  summary: string;
  isRead: boolean;
}
type DemoInquiry = DemoInquiryBase &
  (
    | { source: 'WEBFORM'; externalInquiryId: string; form: { formName: string; fields: { name: string; label: string; value: string }[]; page: string } }
    | { source: 'EMAIL'; mail: { subject: string; from: string; messageIdDomain: string; body: string } }
    | { source: 'CALL'; call: { summary: string; keyPoints: string[]; lines: Line[]; direction?: CallData['direction']; endedBy?: Party } }
    | { source: 'CHATBOT'; chat: { endedAfterSeconds: number; messages: Line[] } }
    /** Texts as [body, minutes after the first]; leadPhone stands in when the lead has none. */
    | { source: 'SMS'; sms: { leadPhone: string; messages: [string, number][] } }
  );

/** Stable-looking provider ids (call SIDs, message ids) derived from a seed. */
const hex = (seed: string, length = 32) => createHash('sha256').update(seed).digest('hex').slice(0, length);

const after = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000);

function callData(startedAt: Date, call: Extract<DemoInquiry, { source: 'CALL' }>['call']): Omit<CallData, 'id'> & { id: string } {
  const id = newId('call', startedAt);
  const last = call.lines.at(-1)?.[2] ?? 0;
  const duration = last + 9;
  return {
    id,
    summary: call.summary,
    keyPoints: call.keyPoints,
    recordingUrl: `https://recordings.harbourcitytrades.com.au/calls/${id}.mp3`,
    transcripts: call.lines.map(([user, text, second], index) => ({
      id: `${id}-t${String(index + 1).padStart(2, '0')}`,
      created_at: after(startedAt, second).toISOString(),
      text,
      user,
    })),
    transcriptTruncated: false,
    direction: call.direction ?? 'LEAD_TO_AI',
    duration,
    startedAt: startedAt.toISOString(),
    endedAt: after(startedAt, duration).toISOString(),
    endedBy: call.endedBy ?? 'user',
  };
}

/** The inquiry's external id and data as its source records them, from the file's entry. */
function sourcePart(demo: DemoInquiry, at: Date, lead: Lead): Pick<NewInquiry, 'externalInquiryId' | 'data'> {
  switch (demo.source) {
    case 'WEBFORM':
      return { externalInquiryId: demo.externalInquiryId, data: { formName: demo.form.formName, fields: demo.form.fields, submittedAt: at.toISOString(), pageUrl: `${BUSINESS_SITE}${demo.form.page}` } };
    case 'EMAIL': {
      const { subject, from, messageIdDomain, body } = demo.mail;
      return { externalInquiryId: `<${hex(`${lead.id}-email`, 16)}@${messageIdDomain}>`, data: { subject, from, to: BUSINESS_EMAIL, body, receivedAt: at.toISOString() } };
    }
    case 'CALL':
      return { externalInquiryId: `CA${hex(`${lead.id}-call-1`)}`, data: callData(at, demo.call) };
    case 'CHATBOT': {
      const messages = demo.chat.messages.map(([role, text, second]) => ({ id: newId('chatmsg', after(at, second)), role, text, createdAt: after(at, second).toISOString() }));
      return { externalInquiryId: null, data: { messages, startedAt: at.toISOString(), endedAt: after(at, demo.chat.endedAfterSeconds).toISOString() } };
    }
    case 'SMS': {
      const messages = demo.sms.messages.map(([body, minutes]): SmsMessage => {
        const sentAt = after(at, minutes * 60);
        return { id: newId('message', sentAt), direction: 'INBOUND', status: 'RECEIVED', body, userId: null, createdAt: sentAt.toISOString() };
      });
      return { externalInquiryId: `SM${hex(`${lead.id}-sms`)}`, data: { leadPhone: lead.phone ?? demo.sms.leadPhone, messages } };
    }
  }
}

/** One demo inquiry of `lead`, made at `at`. */
function inquiryOf(demo: DemoInquiry, at: Date, lead: Lead): NewInquiry {
  const { externalInquiryId, data } = sourcePart(demo, at, lead);
  return { source: demo.source, leadId: lead.id, tag: demo.tag, summary: demo.summary, isRead: demo.isRead, externalInquiryId, createdAt: at.toISOString(), data } as NewInquiry;
}

/**
 * Inquiries of every source for the demo leads, oldest first so each lead's lastInquiry moves
 * forward, through the same store function as everything else (counters agree with rows).
 */
export async function seedInquiries(organizationId: string, leads: Lead[], at = Date.now()): Promise<string[]> {
  const byEmail = new Map(leads.map((lead) => [lead.email, lead]));
  const inquiryIds: string[] = [];
  for (const demo of [...(demoInquiries as DemoInquiry[])].sort((a, b) => b.daysAgo - a.daysAgo)) {
    const lead = byEmail.get(demo.email);
    if (!lead) continue;
    const input = inquiryOf(demo, new Date(at - demo.daysAgo * DAY), lead);
    // A call keeps its outcome, length and whether it came after hours, as an ingested one does: the reports count them.
    const call = input.source === 'CALL' ? await callSummaryFields(organizationId, input.data as CallData) : undefined;
    const inquiry = await createInquiry(organizationId, { ...input, ...(call ? { call } : {}) });
    inquiryIds.push(inquiry.id);
  }
  return inquiryIds.reverse();
}

/** This resource's part of the demo organization (infra/demo reads it by the list of resources). */
export const demoSeed: DemoSeed = { after: ['leads'], run: async (organizationId, demo) => ({ inquiryIds: await seedInquiries(organizationId, demo.leads as Lead[]) }) };
