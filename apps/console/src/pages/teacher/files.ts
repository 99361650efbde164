import { api, data } from '../../api/client';

/** A blob the API answered, handed to the browser as a file (the token stays in memory, never in a URL). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** An incident's attachment, through the typed client. */
export async function downloadIncidentFile(incidentId: number, file: { id: number; fileName: string }): Promise<void> {
  const blob = data(await api.GET('/api/v2/incident/{id}/files/{fileId}', { params: { path: { id: String(incidentId), fileId: String(file.id) } }, parseAs: 'blob' }));
  saveBlob(blob as unknown as Blob, file.fileName);
}

/**
 * The API's limits on a message's attachments (INCIDENT_FILES_PER_MESSAGE, INCIDENT_FILE_MAX_BYTES,
 * INCIDENT_FILE_TYPES of the incidents contract; the browser bundle imports no library of the
 * repository, so they are repeated here and the service still checks them).
 */
export const ATTACHMENTS = { perMessage: 5, maxBytes: 10 * 1024 * 1024, types: ['application/pdf', 'image/png', 'image/jpeg', 'image/webp'] } as const;

/** Why these files cannot be sent, as an i18n key with its values, or null when they can. */
export function attachmentProblem(files: File[]): { key: string; values?: Record<string, string | number> } | null {
  if (files.length > ATTACHMENTS.perMessage) return { key: 'errors.TOO_MANY_FILES' };
  const big = files.find((file) => file.size > ATTACHMENTS.maxBytes);
  if (big) return { key: 'incident.tooBig', values: { name: big.name } };
  const wrong = files.find((file) => !(ATTACHMENTS.types as readonly string[]).includes(file.type));
  if (wrong) return { key: 'incident.wrongType', values: { name: wrong.name } };
  return null;
}
