import { CRITICAL_NOTIFICATION_TYPES, type NotificationType } from '@academy/contracts';

/** Which notification type an event (or a delivery's `event_type`) is; null for a direct push send (`push.send`). */
const TYPE_OF_EVENT: Record<string, NotificationType> = {
  'block.approved': 'block_approved',
  'block.rejected': 'block_rejected',
  'incident.created': 'incident',
  'incident.updated': 'incident',
  'payslip.published': 'payslip_published',
  'payslip.corrected': 'payslip_published',
  'attendance.missing': 'attendance_reminder',
  'attendance.threshold-crossed': 'attendance_warning',
  'blocks.pending-digest': 'approval_digest',
};

export const notificationTypeOf = (eventType: string): NotificationType | null => TYPE_OF_EVENT[eventType] ?? null;

export const isCritical = (type: NotificationType): boolean => CRITICAL_NOTIFICATION_TYPES.includes(type);

/** A delivery of this event type may be held back by its recipient's preference (critical ones never). */
export const isOptional = (eventType: string): boolean => {
  const type = notificationTypeOf(eventType);
  return type !== null && !isCritical(type);
};
