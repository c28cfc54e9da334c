import { createHash } from 'node:crypto';
import { newId } from '../../shared/ids';
import { createInquiry, type NewInquiry } from './store';
import type { CallData, SmsMessage } from './schema';
import type { Lead } from '../leads/schema';
import type { DemoSeed } from '../../shared/resource';

const DAY = 24 * 60 * 60 * 1000;
const BUSINESS_EMAIL = 'enquiries@harbourcitytrades.com.au';
const BUSINESS_SITE = 'https://www.harbourcitytrades.com.au';

type Party = 'user' | 'assistant';
/** [who, what, seconds into the call] */
type Line = [Party, string, number];

/** Stable-looking provider ids (call SIDs, message ids) derived from a seed. */
const hex = (seed: string, length = 32) => createHash('sha256').update(seed).digest('hex').slice(0, length);

function callData(startedAt: Date, call: { summary: string; keyPoints: string[]; lines: Line[]; direction?: CallData['direction']; endedBy?: Party }): Omit<CallData, 'id'> & { id: string } {
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
      created_at: new Date(startedAt.getTime() + second * 1000).toISOString(),
      text,
      user,
    })),
    transcriptTruncated: false,
    direction: call.direction ?? 'LEAD_TO_AI',
    duration,
    startedAt: startedAt.toISOString(),
    endedAt: new Date(startedAt.getTime() + duration * 1000).toISOString(),
    endedBy: call.endedBy ?? 'user',
  };
}

type DemoInquiry = { email: string; daysAgo: number; build: (at: Date, lead: Lead) => NewInquiry };

const DEMO_INQUIRIES: DemoInquiry[] = [
  {
    email: 'lucas@vdbcafe.com.au',
    daysAgo: 20.9,
    build: (at, lead) => ({
      source: 'WEBFORM',
      leadId: lead.id,
      tag: 'QUOTE_REQUEST',
      summary: 'Cafe owner in Surry Hills wants a quote to replace the grease trap before a council inspection.',
      isRead: true,
      externalInquiryId: 'wpforms-entry-1042',
      createdAt: at.toISOString(),
      data: {
        formName: 'Request a quote',
        fields: [
          { name: 'name', label: 'Your name', value: 'Lucas van der Berg' },
          { name: 'business', label: 'Business name', value: 'VDB Cafe' },
          { name: 'phone', label: 'Phone', value: '0412 345 008' },
          { name: 'service', label: 'What do you need?', value: 'Commercial plumbing' },
          { name: 'details', label: 'Tell us about the job', value: 'Our 1000 L grease trap is cracked and council is inspecting in three weeks. Need it replaced with minimal downtime, ideally a Sunday.' },
        ],
        submittedAt: at.toISOString(),
        pageUrl: `${BUSINESS_SITE}/commercial-plumbing`,
      },
    }),
  },
  {
    email: 'lucas@vdbcafe.com.au',
    daysAgo: 20,
    build: (at, lead) => ({
      source: 'CALL',
      leadId: lead.id,
      tag: 'BOOKING',
      summary: 'Lucas booked a Sunday site visit for the grease trap and asked about 3-phase power for a new combi oven.',
      isRead: true,
      externalInquiryId: `CA${hex(`${lead.id}-call-1`)}`,
      createdAt: at.toISOString(),
      data: callData(at, {
        summary: 'Follow-up on the grease trap quote request. Site visit booked for Sunday 7 am; electrician to assess 3-phase supply for a new oven at the same visit.',
        keyPoints: [
          'Grease trap replacement before council inspection in about 3 weeks',
          'Site visit booked Sunday 7:00 am, cafe closed',
          'Also wants a 3-phase circuit for a new combi oven',
          'Access via the rear laneway off Crown Street',
        ],
        lines: [
          ['assistant', "G'day, thanks for calling Harbour City Trades, you're speaking with the virtual receptionist. How can I help?", 0],
          ['user', "Hi, it's Lucas from VDB Cafe in Surry Hills. I filled in the form yesterday about our grease trap.", 6],
          ['assistant', "Thanks Lucas, I can see your request here. You mentioned council's inspecting in about three weeks, is that right?", 14],
          ['user', "Yeah, that's right. And we can't really close during the week, so a Sunday would be ideal.", 22],
          ['assistant', 'No worries. I can book a plumber to come and look at it this Sunday at 7 am. Would that suit?', 30],
          ['user', "Perfect. While they're here, can someone look at power for a new combi oven? The supplier says it needs three-phase.", 37],
          ['assistant', "Sure, I'll note that for one of our electricians to assess the switchboard at the same visit. What's the best way in?", 47],
          ['user', 'Rear laneway off Crown Street, there is a roller door. I will be there from half six.', 56],
          ['assistant', "Lovely. You're booked for Sunday at 7 am for the grease trap and a three-phase assessment. You'll get an SMS confirmation shortly.", 63],
          ['user', 'Great, cheers.', 72],
        ],
      }),
    }),
  },
  {
    email: 'isla.oconnor@example.com.au',
    daysAgo: 12.95,
    build: (at, lead) => ({
      source: 'CALL',
      leadId: lead.id,
      tag: 'EMERGENCY',
      summary: 'Sewage backing up into the laundry in Penrith; after-hours plumber dispatched.',
      isRead: true,
      externalInquiryId: `CA${hex(`${lead.id}-call-1`)}`,
      createdAt: at.toISOString(),
      data: callData(at, {
        summary: 'After-hours emergency: sewer overflow through the laundry floor waste. Likely tree-root blockage. Plumber dispatched with a jetter, ETA 45 minutes.',
        keyPoints: [
          'Sewage coming up through the laundry floor waste',
          'Old clay pipes, large gum tree near the line',
          'Emergency call-out fee of $180 accepted',
          'Plumber dispatched with jetter, ETA 45 minutes',
        ],
        lines: [
          ['assistant', 'Harbour City Trades, after-hours line. Is this an emergency?', 0],
          ['user', "Yes, there's sewage coming up through the drain in our laundry. It's all over the floor.", 4],
          ['assistant', "I'm sorry to hear that. Please don't use any taps or flush the toilets for now. What's the address?", 11],
          ['user', "It's 14 Lemongrove Road, Penrith. The house is from the sixties, we've got a big gum tree out the back.", 19],
          ['assistant', 'That sounds like tree roots in the sewer line. Our emergency call-out fee is $180, which includes the first half hour. Shall I send someone now?', 29],
          ['user', 'Yes please, as soon as possible.', 40],
          ['assistant', "Done. Tom is on his way with a jetter, he should be there in about 45 minutes. I'll text you his details.", 44],
          ['user', 'Thank you so much.', 53],
        ],
      }),
    }),
  },
  {
    email: 'isla.oconnor@example.com.au',
    daysAgo: 12,
    build: (at, lead) => ({
      source: 'EMAIL',
      leadId: lead.id,
      tag: 'FOLLOW_UP',
      summary: 'Isla asks for a written quote to reline the damaged sewer line instead of digging it up.',
      isRead: true,
      externalInquiryId: `<${hex(`${lead.id}-email`, 16)}@mail.gmail.com>`,
      createdAt: at.toISOString(),
      data: {
        subject: 'Re: Sewer blockage at 14 Lemongrove Rd - relining quote',
        from: 'isla.oconnor@example.com.au',
        to: BUSINESS_EMAIL,
        body:
          'Hi team,\n\nThanks again for sending Tom out so quickly last night. He said the camera showed the clay pipe is cracked in two places ' +
          'and suggested relining rather than digging up the backyard.\n\nCould you please send a written quote for the relining? ' +
          "We'd also like to know if insurance usually covers this.\n\nThanks,\nIsla O'Connor",
        receivedAt: at.toISOString(),
      },
    }),
  },
  {
    email: 'will.chen@example.com.au',
    daysAgo: 7.9,
    build: (at, lead) => ({
      source: 'EMAIL',
      leadId: lead.id,
      tag: 'QUOTE_REQUEST',
      summary: 'Switchboard upgrade quote for a Hurstville home adding solar and a battery.',
      isRead: true,
      externalInquiryId: `<${hex(`${lead.id}-email`, 16)}@outlook.com>`,
      createdAt: at.toISOString(),
      data: {
        subject: 'Switchboard upgrade for solar + battery',
        from: 'will.chen@example.com.au',
        to: BUSINESS_EMAIL,
        body:
          "Hello,\n\nWe're getting a 6.6 kW solar system and a battery installed next month and the installer says our switchboard " +
          'needs upgrading first (still has ceramic fuses). Could you quote to replace it with a new board with safety switches on every circuit?\n\n' +
          'House is a single-storey brick in Hurstville, board is on the front porch.\n\nRegards,\nWilliam Chen',
        receivedAt: at.toISOString(),
      },
    }),
  },
  {
    email: 'will.chen@example.com.au',
    daysAgo: 6,
    build: (at, lead) => {
      const message = (role: 'user' | 'assistant', text: string, second: number) => ({
        id: newId('chatmsg', new Date(at.getTime() + second * 1000)),
        role,
        text,
        createdAt: new Date(at.getTime() + second * 1000).toISOString(),
      });
      return {
        source: 'CHATBOT',
        leadId: lead.id,
        tag: 'GENERAL',
        summary: 'William asked how long a switchboard upgrade takes and whether the power is off all day.',
        isRead: true,
        externalInquiryId: null,
        createdAt: at.toISOString(),
        data: {
          messages: [
            message('user', 'How long does a switchboard upgrade take? Will the power be off all day?', 0),
            message('assistant', 'Most homes take 4 to 6 hours, and the power is off for most of that time. We start at 7 am so you are usually back on by early afternoon.', 4),
            message('user', 'Do I need to tell Ausgrid?', 31),
            message('assistant', 'No need, our electrician lodges the paperwork with Ausgrid and gives you a compliance certificate when the job is done.', 35),
            message('user', 'Great, thanks.', 52),
          ],
          startedAt: at.toISOString(),
          endedAt: new Date(at.getTime() + 60_000).toISOString(),
        },
      };
    },
  },
  {
    email: 'amelia@brownproperty.com.au',
    daysAgo: 4.95,
    build: (at, lead) => ({
      source: 'EMAIL',
      leadId: lead.id,
      tag: 'QUOTE_REQUEST',
      summary: 'Property manager needs quotes to replace hot water systems in three Manly units.',
      isRead: false,
      externalInquiryId: `<${hex(`${lead.id}-email`, 16)}@brownproperty.com.au>`,
      createdAt: at.toISOString(),
      data: {
        subject: 'Quote request: 3 x hot water replacements, Manly',
        from: 'amelia@brownproperty.com.au',
        to: BUSINESS_EMAIL,
        body:
          'Hi,\n\nI manage a strata block on Pittwater Road, Manly. Three units have 15-year-old electric storage hot water systems that the owners ' +
          'want replaced with heat pumps (to get the rebate).\n\nCould you please quote per unit, including disposal and any electrical work? ' +
          'Tenants are home most days.\n\nKind regards,\nAmelia Brown\nBrown Property Management',
        receivedAt: at.toISOString(),
      },
    }),
  },
  {
    email: 'amelia@brownproperty.com.au',
    daysAgo: 4,
    build: (at, lead) => ({
      source: 'CALL',
      leadId: lead.id,
      tag: 'EMERGENCY',
      summary: 'Burst flexi hose flooding a unit in Manly; water isolated, plumber booked within two hours.',
      isRead: true,
      externalInquiryId: `CA${hex(`${lead.id}-call-1`)}`,
      createdAt: at.toISOString(),
      data: callData(at, {
        summary: 'Burst braided flexi hose under the kitchen sink of unit 4. Tenant has turned off the water at the meter. Plumber booked within two hours; strata to be invoiced.',
        keyPoints: [
          'Burst flexi hose under kitchen sink, unit 4',
          'Water turned off at the meter by the tenant',
          'Water coming through the ceiling of unit 2 below',
          'Invoice to Brown Property Management, strata plan SP 41823',
        ],
        lines: [
          ['assistant', 'Thanks for calling Harbour City Trades, how can I help?', 0],
          ['user', "Hi, it's Amelia from Brown Property. One of my tenants in Manly has a burst pipe under the kitchen sink.", 5],
          ['assistant', 'Oh no. Has the water been turned off?', 13],
          ['user', "Yes, she found the meter and turned it off, but it's already come through the ceiling of the unit below.", 17],
          ['assistant', "Good that it's off. It's probably a flexi hose. I can have a plumber there within two hours. Which unit and address?", 26],
          ['user', 'Unit 4, 210 Pittwater Road. Please invoice the strata, plan number SP 41823.', 36],
          ['assistant', "Got it. I've booked Tom for unit 4, 210 Pittwater Road, arriving before 1 pm, invoice to strata plan SP 41823. Anything else?", 45],
          ['user', 'Can he check unit 2 for damage too?', 56],
          ['assistant', "Yes, I'll add that to the job notes.", 60],
        ],
      }),
    }),
  },
  {
    email: 'noah.patel@example.com.au',
    daysAgo: 2.98,
    build: (at, lead) => {
      const message = (role: 'user' | 'assistant', text: string, second: number) => ({
        id: newId('chatmsg', new Date(at.getTime() + second * 1000)),
        role,
        text,
        createdAt: new Date(at.getTime() + second * 1000).toISOString(),
      });
      return {
        source: 'CHATBOT',
        leadId: lead.id,
        tag: 'QUOTE_REQUEST',
        summary: 'Noah wants two ceiling fans and twelve LED downlights installed in a Chatswood apartment.',
        isRead: false,
        externalInquiryId: null,
        createdAt: at.toISOString(),
        data: {
          messages: [
            message('user', 'Hi, I need two ceiling fans installed and want to swap the old halogen downlights for LEDs. About 12 lights.', 0),
            message('assistant', 'Happy to help. Do you already have the fans, and is there existing wiring where they will go?', 5),
            message('user', "I've bought the fans. There are light points in both bedrooms already.", 40),
            message('assistant', 'Great, that keeps it simple. Is it a house or an apartment, and is there roof access?', 44),
            message('user', 'Apartment on the 3rd floor, no roof space, concrete ceilings.', 71),
            message('assistant', 'Thanks. With concrete ceilings the electrician will confirm on site. Can I take your phone number for a quote?', 76),
            message('user', 'Sure, 0412 345 004.', 98),
          ],
          startedAt: at.toISOString(),
          endedAt: new Date(at.getTime() + 120_000).toISOString(),
        },
      };
    },
  },
  {
    email: 'charlotte.w@example.com.au',
    daysAgo: 1.95,
    build: (at, lead) => ({
      source: 'CALL',
      leadId: lead.id,
      tag: 'BOOKING',
      summary: 'No hot water in Bondi: gas storage system pilot keeps going out; service booked for Thursday.',
      isRead: true,
      externalInquiryId: `CA${hex(`${lead.id}-call-1`)}`,
      createdAt: at.toISOString(),
      data: callData(at, {
        summary: 'Gas storage hot water system (about 12 years old) keeps losing its pilot light. Service booked Thursday morning; likely thermocouple or replacement.',
        keyPoints: [
          'Rheem gas storage hot water, about 12 years old',
          'Pilot light goes out every few hours',
          'Service booked Thursday 8-10 am window',
          'Open to a replacement quote if the tank is corroded',
        ],
        lines: [
          ['assistant', 'Harbour City Trades, how can I help today?', 0],
          ['user', "Hi, we've had no hot water since yesterday. The pilot light on our gas hot water keeps going out.", 4],
          ['assistant', 'That can be a faulty thermocouple. Roughly how old is the system, and what brand?', 12],
          ['user', "It's a Rheem, I think about twelve years old.", 19],
          ['assistant', 'Thanks. At that age the plumber will also check the tank for corrosion. I have a Thursday 8 to 10 am window. Does that work?', 24],
          ['user', 'Thursday is fine. If it needs replacing, can you quote on the spot?', 35],
          ['assistant', "Yes, the plumber can quote on site. You're booked for Thursday between 8 and 10 am at your Bondi address.", 41],
        ],
      }),
    }),
  },
  {
    email: 'charlotte.w@example.com.au',
    daysAgo: 1.5,
    build: (at, lead) => {
      const inbound = (body: string, minutes: number): SmsMessage => {
        const sentAt = new Date(at.getTime() + minutes * 60_000);
        return { id: newId('message', sentAt), direction: 'INBOUND', status: 'RECEIVED', body, userId: null, createdAt: sentAt.toISOString() };
      };
      return {
        source: 'SMS',
        leadId: lead.id,
        tag: 'FOLLOW_UP',
        summary: 'Charlotte texted to ask whether Thursday can move to the afternoon.',
        isRead: false,
        externalInquiryId: `SM${hex(`${lead.id}-sms`)}`,
        createdAt: at.toISOString(),
        data: {
          leadPhone: lead.phone ?? '+61412345003',
          messages: [
            inbound("Hi, it's Charlotte in Bondi. Any chance Thursday's hot water visit could be after 2pm instead? Work thing came up.", 0),
            inbound('Or Friday morning works too. Thanks!', 3),
          ],
        },
      };
    },
  },
  {
    email: 'jack@thompsonbuilds.com.au',
    daysAgo: 0.95,
    build: (at, lead) => ({
      source: 'WEBFORM',
      leadId: lead.id,
      tag: 'QUOTE_REQUEST',
      summary: 'Builder needs rough-in plumbing and electrical for a terrace renovation in Newtown.',
      isRead: false,
      externalInquiryId: 'wpforms-entry-1187',
      createdAt: at.toISOString(),
      data: {
        formName: 'Builders and trade partners',
        fields: [
          { name: 'name', label: 'Your name', value: 'Jack Thompson' },
          { name: 'company', label: 'Company', value: 'Thompson Builds' },
          { name: 'licence', label: 'Builder licence number', value: '284519C' },
          { name: 'site', label: 'Site suburb', value: 'Newtown' },
          { name: 'scope', label: 'Scope of work', value: 'Full rough-in for a new bathroom and laundry, plus kitchen power and lighting, in a two-storey terrace. Frame inspection booked in three weeks.' },
        ],
        submittedAt: at.toISOString(),
        pageUrl: `${BUSINESS_SITE}/builders`,
      },
    }),
  },
  {
    email: 'jack@thompsonbuilds.com.au',
    daysAgo: 0.5,
    build: (at, lead) => ({
      source: 'CALL',
      leadId: lead.id,
      tag: 'FLAGGED',
      summary: 'Callback to Jack: he wants the rough-in priced by Friday and mentioned a competing quote.',
      isRead: false,
      externalInquiryId: `CA${hex(`${lead.id}-call-1`)}`,
      createdAt: at.toISOString(),
      data: callData(at, {
        direction: 'AI_TO_LEAD',
        endedBy: 'assistant',
        summary: 'Outbound callback about the Newtown terrace rough-in. Jack has a competing quote and needs ours by Friday; flagged for the director to price.',
        keyPoints: [
          'Needs the rough-in price by Friday',
          'Has a competing quote, price-sensitive',
          'Drawings to be emailed today',
          'Potential repeat work: two more terraces this year',
        ],
        lines: [
          ['assistant', "Hi Jack, it's the Harbour City Trades assistant calling about your rough-in request for the Newtown terrace. Is now a good time?", 0],
          ['user', 'Yeah, quickly. I need a price by Friday, I already have one quote in.', 8],
          ['assistant', 'Understood. Could you email the drawings so we can price the bathroom, laundry and kitchen accurately?', 15],
          ['user', "I'll send them this arvo. If the price is right there are two more terraces this year.", 23],
          ['assistant', "Great, I'll flag this for Sarah, our director, to price personally and get it to you by Friday.", 31],
          ['user', 'Sounds good.', 39],
          ['assistant', 'Thanks Jack, talk soon.', 42],
        ],
      }),
    }),
  },
  {
    email: 'olivia.nguyen@example.com.au',
    daysAgo: 0.19,
    build: (at, lead) => ({
      source: 'CALL',
      leadId: lead.id,
      tag: 'GENERAL',
      summary: 'Dripping kitchen mixer and low water pressure upstairs in a Parramatta townhouse.',
      isRead: false,
      externalInquiryId: `CA${hex(`${lead.id}-call-1`)}`,
      createdAt: at.toISOString(),
      data: callData(at, {
        summary: 'Kitchen mixer tap drips constantly; upstairs shower pressure has dropped over a few months. Wants a quote and the earliest visit; prefers SMS contact.',
        keyPoints: [
          'Kitchen mixer tap dripping constantly',
          'Low water pressure in the upstairs shower',
          'Townhouse in Parramatta, built around 2005',
          'Prefers to be contacted by SMS',
        ],
        lines: [
          ['assistant', "G'day, Harbour City Trades. How can I help?", 0],
          ['user', 'Hi, my kitchen mixer tap has been dripping for weeks and the upstairs shower has barely any pressure.', 4],
          ['assistant', 'Those are both common fixes. Is the pressure low on every tap upstairs, or just the shower?', 12],
          ['user', 'Mostly the shower. The basin is a bit weak too.', 19],
          ['assistant', 'It could be a blocked shower head or a failing pressure limiting valve. Where is the property?', 24],
          ['user', 'Parramatta, a townhouse. I work during the day, so can you text me?', 31],
          ['assistant', "Of course. One of the team will text you today with a quote and the earliest time. Thanks Olivia.", 38],
        ],
      }),
    }),
  },
];

/**
 * Inquiries of every source for the demo leads, oldest first so each lead's lastInquiry moves
 * forward, through the same store function as everything else (counters agree with rows).
 */
export async function seedInquiries(organizationId: string, leads: Lead[], at = Date.now()): Promise<string[]> {
  const byEmail = new Map(leads.map((lead) => [lead.email, lead]));
  const inquiryIds: string[] = [];
  for (const demo of [...DEMO_INQUIRIES].sort((a, b) => b.daysAgo - a.daysAgo)) {
    const lead = byEmail.get(demo.email);
    if (!lead) continue;
    const inquiry = await createInquiry(organizationId, demo.build(new Date(at - demo.daysAgo * DAY), lead));
    inquiryIds.push(inquiry.id);
  }
  return inquiryIds.reverse();
}

/** This resource's part of the demo organization (infra/demo reads it by the list of resources). */
export const demoSeed: DemoSeed = { after: ['leads'], run: async (organizationId, demo) => ({ inquiryIds: await seedInquiries(organizationId, demo.leads as Lead[]) }) };
