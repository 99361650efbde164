import type { z } from 'zod';
import type { PrivacyRequestDetail, PrivacyRequestItem } from '@academy/contracts';
import type { AuditRow, PartRow, RequestRow } from './privacy-requests.store.ts';

const iso = (value: string | Date) => new Date(value).toISOString();

/** A request as the routes answer it: its state per service, and who has not answered yet. */
export function requestItem(request: RequestRow, parts: PartRow[]): z.infer<typeof PrivacyRequestItem> {
  const own = parts.filter((part) => part.request_id === request.request_id);
  return {
    id: request.id,
    requestId: request.request_id,
    kind: request.kind,
    subject: { kind: request.subject_kind, id: request.subject_id },
    status: request.status,
    openedAt: iso(request.opened_at),
    openedByUserId: request.opened_by_user_id,
    deadline: iso(request.deadline),
    completedAt: request.completed_at ? iso(request.completed_at) : null,
    waitingFor: own.filter((part) => part.status === 'pending').map((part) => part.service),
    parts: own.map((part) => ({
      service: part.service,
      status: part.status,
      reason: part.reason,
      attempts: part.attempts,
      answeredAt: part.answered_at ? iso(part.answered_at) : null,
      features: part.answer?.features ?? [],
      export: part.answer?.export ?? null,
    })),
  };
}

export function requestDetail(request: RequestRow, parts: PartRow[], audit: AuditRow[]): z.infer<typeof PrivacyRequestDetail> {
  return { ...requestItem(request, parts), audit: audit.map((entry) => ({ action: entry.action, byUserId: entry.by_user_id, at: iso(entry.at), detail: entry.detail })) };
}
