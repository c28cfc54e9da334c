/**
 * What the End User Messaging sender (./end-user-messaging.ts) loads with import() at its first text: the client and
 * SendTextMessage alone, not the client's other commands (about 11 KB against 78).
 */
export { PinpointSMSVoiceV2Client, SendTextMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
