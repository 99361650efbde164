import { eventVersions, readableOlderVersions, type EventType } from './catalogue.ts';

/** The deployable apps: each is versioned, released and deployed on its own (README "Running at scale"). */
export const APPS = ['gateway', 'academic', 'hours-bank', 'incidents', 'notifications', 'payslips'] as const;
export type AppName = (typeof APPS)[number];

/** A queue an app consumes and the event types bound to it. */
export interface ConsumedQueue {
  /** The queue's default name (its `*_QUEUE` setting). */
  queue: string;
  types: readonly EventType[];
}

export interface AppEvents {
  /** The types it records in its outbox, each at the versions it stamps (the catalogue's current one unless told: a new version published beside the old one lists both). */
  publishes: readonly EventType[];
  /** Types whose producer stamps more than the current version for a while (a new version beside the old one, for at least one release). */
  alsoPublishes?: Partial<Record<EventType, readonly number[]>>;
  consumes: readonly ConsumedQueue[];
}

const REPLICAS = ['employee.upserted', 'employee.deleted', 'school-course.created', 'school-course.deleted'] as const;
const TIMETABLE = [...REPLICAS, 'calendar-event.created', 'calendar-event.updated', 'calendar-event.deleted'] as const;

/**
 * Who publishes and who consumes each event type, per app: the subscriptions (each app's
 * `subscriptions.ts`, `subscribeReplicas` of @academy/replicas) and the types each app records.
 * `tools/contracts/test/topology.test.ts` checks this table against the apps' sources.
 */
export const APP_EVENTS: Record<AppName, AppEvents> = {
  gateway: { publishes: [], consumes: [] },
  academic: {
    publishes: [
      'employee.upserted',
      'employee.deleted',
      'school-course.created',
      'school-course.deleted',
      'calendar-event.created',
      'calendar-event.updated',
      'calendar-event.deleted',
      'block.closed',
      'block.approved',
      'block.rejected',
      'blocks.pending-digest',
      'attendance.recorded',
      'attendance.missing',
      'attendance.threshold-crossed',
      'privacy.request.opened',
      'privacy.part.answered',
    ],
    consumes: [
      { queue: 'academic.privacy', types: ['privacy.request.opened'] },
      { queue: 'academic.privacy-requests', types: ['privacy.part.answered'] },
    ],
  },
  'hours-bank': {
    publishes: ['hours-bank.transaction.recorded', 'hours-bank.transaction.reverted', 'privacy.part.answered'],
    consumes: [
      { queue: 'hours-bank.replicas', types: REPLICAS },
      { queue: 'hours-bank.privacy', types: ['privacy.request.opened'] },
    ],
  },
  incidents: {
    publishes: ['incident.created', 'incident.updated', 'privacy.part.answered'],
    consumes: [
      { queue: 'incidents.replicas', types: TIMETABLE },
      { queue: 'incidents.privacy', types: ['privacy.request.opened'] },
    ],
  },
  notifications: {
    publishes: ['privacy.part.answered'],
    consumes: [
      {
        queue: 'notifications.email',
        types: ['block.approved', 'payslip.published', 'payslip.corrected', 'attendance.missing', 'attendance.threshold-crossed', 'blocks.pending-digest'],
      },
      { queue: 'notifications.incidents', types: ['incident.created', 'incident.updated'] },
      { queue: 'notifications.privacy', types: ['privacy.request.opened'] },
    ],
  },
  payslips: {
    publishes: ['payslip.published', 'payslip.corrected', 'privacy.part.answered'],
    consumes: [
      { queue: 'payslips.replicas', types: REPLICAS },
      { queue: 'payslips.privacy', types: ['privacy.request.opened'] },
    ],
  },
};

/** The versions of `type` that `app` stamps (empty when it does not publish it). */
export function publishedVersions(app: AppName, type: EventType): number[] {
  const events = APP_EVENTS[app];
  if (!events.publishes.includes(type)) return [];
  return [...new Set([eventVersions[type], ...(events.alsoPublishes?.[type] ?? [])])].sort((a, b) => a - b);
}

/** The versions of `type` a consumer reads: the current one and those the schema still reads (`parseEnvelope`'s default). */
export function consumedVersions(type: EventType): number[] {
  return [eventVersions[type], ...(readableOlderVersions[type] ?? [])].sort((a, b) => a - b);
}

/** The apps that publish `type`, and those that consume it. */
export function eventParties(type: EventType): { publishers: AppName[]; consumers: AppName[] } {
  return {
    publishers: APPS.filter((app) => APP_EVENTS[app].publishes.includes(type)),
    consumers: APPS.filter((app) => APP_EVENTS[app].consumes.some((queue) => queue.types.includes(type))),
  };
}
