import type { Locale } from '@academy/contracts';
import type { PartRow, RequestRow } from './privacy-requests.store.ts';

/** What each service holds, in the person's language (the README names each part). */
const SERVICES: Record<string, Record<Locale, string>> = {
  academic: { es: 'Datos académicos: su ficha, su usuario, bloques, mensajes, notas y asistencia', en: 'Academic data: your record, your login, blocks, messages, marks and attendance' },
  'hours-bank': { es: 'Bolsa de horas: horas pendientes y completadas', en: 'Hours bank: pending and completed hours' },
  incidents: { es: 'Registro horario e incidencias, con sus adjuntos', en: 'Time records and incidents, with their attachments' },
  notifications: { es: 'Notificaciones: dispositivos, preferencias y envíos', en: 'Notifications: devices, preferences and deliveries' },
  payslips: { es: 'Nóminas (PDF)', en: 'Payslips (PDF)' },
};

const TEXT = {
  es: {
    title: 'Copia de sus datos personales',
    intro: (request: RequestRow) =>
      `Solicitud de acceso ${request.request_id}, abierta el ${new Date(request.opened_at).toISOString().slice(0, 10)}.\nEste archivo contiene todo lo que la academia conserva sobre usted: un fichero JSON por servicio y función, y los ficheros adjuntos en la carpeta de cada función.`,
    parts: 'Partes',
    nothing: 'no conserva datos suyos',
    failed: 'no pudo responder',
    files: (count: number) => `${count} fichero${count === 1 ? '' : 's'}`,
  },
  en: {
    title: 'A copy of your personal data',
    intro: (request: RequestRow) =>
      `Access request ${request.request_id}, opened on ${new Date(request.opened_at).toISOString().slice(0, 10)}.\nThis archive holds everything the academy keeps about you: one JSON file per service and feature, and the attached files in each feature's folder.`,
    parts: 'Parts',
    nothing: 'holds nothing about you',
    failed: 'could not answer',
    files: (count: number) => `${count} file${count === 1 ? '' : 's'}`,
  },
} as const;

/** The README.txt of an export, in `locale`: each service, what it holds, and the files of each feature. */
export function exportReadme(request: RequestRow, parts: PartRow[], locale: Locale): string {
  const text = TEXT[locale];
  const lines = [text.title, '='.repeat(text.title.length), '', text.intro(request), '', `${text.parts}:`];
  for (const part of parts) {
    const about = SERVICES[part.service]?.[locale] ?? part.service;
    if (part.status !== 'done') {
      lines.push('', `${part.service}/ — ${about}: ${part.status === 'failed' ? text.failed : text.nothing}`);
      continue;
    }
    lines.push('', `${part.service}/ — ${about}`);
    for (const feature of part.answer?.features ?? []) {
      const name = feature.feature.slice(part.service.length + 1);
      if (feature.status !== 'done') lines.push(`  ${part.service}/${name}.json — ${text.nothing}`);
      else lines.push(`  ${part.service}/${name}.json${feature.entries > 1 ? ` + ${part.service}/${name}/ (${text.files(feature.entries - 1)})` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
