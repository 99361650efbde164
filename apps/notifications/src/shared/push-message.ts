import type { PushSendBody, PushSendResponse } from '@academy/contracts';

/** What a push send is given: the message and, when an event caused it, the event's type. */
export interface SendPushInput {
  /** What to send to whom (the push send route's body; an event's push builds the same). */
  message: PushSendBody;
  /** Recorded on the deliveries rows: `push.send` for the API, the event type when an event caused it. With an optional type, preferences and quiet hours apply. */
  eventType?: string;
  /** The held-push sender's own send (the quiet hours are over): not held again. */
  quietHoursChecked?: boolean;
}

/**
 * The push feature's `sendPush` bound to the service's context (subscriptions.ts binds it): how the
 * features whose events push (email, realtime) reach the one way a push goes out without importing it.
 */
export type SendPush = (input: SendPushInput) => Promise<PushSendResponse>;
