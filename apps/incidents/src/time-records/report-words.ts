// The words of the monthly PDF in each language the academy writes in (`Locale`): the reader's
// language, as their client asks for it (Accept-Language), English otherwise.
import type { IncidentKind, IncidentSeverity, Locale } from '@academy/contracts';

export interface ReportWords {
  /** Intl locale of dates and month names. */
  intl: string;
  title: (month: string) => string;
  employee: (name: string | null, employeeId: number) => string;
  note: (timeZone: string) => string;
  columns: { date: string; weekday: string; clockIn: string; clockOut: string; worked: string; dayTotal: string };
  weekdays: readonly string[];
  noRecords: string;
  continued: string;
  open: string;
  week: (from: string, to: string) => string;
  monthTotal: (month: string, worked: string, days: number) => string;
  incidents: (count: number) => string;
  none: string;
  kinds: Record<IncidentKind, string>;
  severities: Record<IncidentSeverity, string>;
  statuses: Record<'open' | 'closed', string>;
  confirm: string;
  employeeSignature: string;
  administratorSignature: string;
  name: string;
  date: string;
  generated: (at: string, timeZone: string) => string;
  page: (page: number, pages: number) => string;
}

export const REPORT_WORDS: Record<Locale, ReportWords> = {
  en: {
    intl: 'en-GB',
    title: (month) => `Monthly time record: ${month}`,
    employee: (name, employeeId) => (name ? `${name} (employee #${employeeId})` : `Employee #${employeeId}`),
    note: (timeZone) => `Times in ${timeZone}. Worked time as h:mm. A record that crosses midnight is split at midnight (cont.).`,
    columns: { date: 'Date', weekday: 'Day', clockIn: 'Clock-in', clockOut: 'Clock-out', worked: 'Worked', dayTotal: 'Day total' },
    weekdays: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
    noRecords: 'No time records this month.',
    continued: '(cont.)',
    open: 'open',
    week: (from, to) => `Week ${from} – ${to}`,
    monthTotal: (month, worked, days) => `Total worked in ${month}: ${worked} over ${days} ${days === 1 ? 'day' : 'days'}`,
    incidents: (count) => `Incidents of the month (${count})`,
    none: 'None.',
    kinds: {
      CLOCK_IN_WHILE_OPEN: 'Clock-in while a record was open',
      CLOCK_OUT_WITHOUT_OPEN: 'Clock-out with no open record',
      RECORD_OPEN_TOO_LONG: 'Record open too long',
      ABSENCE: 'Absence',
      LATE_CLOCK_IN: 'Late clock-in',
    },
    severities: { low: 'low', medium: 'medium', high: 'high' },
    statuses: { open: 'open', closed: 'closed' },
    confirm: 'I confirm that the records above are the hours worked in the month.',
    employeeSignature: 'Employee',
    administratorSignature: 'Administrator',
    name: 'Name:',
    date: 'Date:',
    generated: (at, timeZone) => `Generated ${at} (${timeZone})`,
    page: (page, pages) => `Page ${page} of ${pages}`,
  },
  es: {
    intl: 'es-ES',
    title: (month) => `Registro mensual de jornada: ${month}`,
    employee: (name, employeeId) => (name ? `${name} (empleado n.º ${employeeId})` : `Empleado n.º ${employeeId}`),
    note: (timeZone) => `Horas en ${timeZone}. Tiempo trabajado en h:mm. Un registro que pasa de la medianoche se divide en ella (cont.).`,
    columns: { date: 'Fecha', weekday: 'Día', clockIn: 'Entrada', clockOut: 'Salida', worked: 'Trabajado', dayTotal: 'Total del día' },
    weekdays: ['dom', 'lun', 'mar', 'mié', 'jue', 'vie', 'sáb'],
    noRecords: 'No hay registros de jornada este mes.',
    continued: '(cont.)',
    open: 'abierto',
    week: (from, to) => `Semana ${from} – ${to}`,
    monthTotal: (month, worked, days) => `Total trabajado en ${month}: ${worked} en ${days} ${days === 1 ? 'día' : 'días'}`,
    incidents: (count) => `Incidencias del mes (${count})`,
    none: 'Ninguna.',
    kinds: {
      CLOCK_IN_WHILE_OPEN: 'Entrada con un registro abierto',
      CLOCK_OUT_WITHOUT_OPEN: 'Salida sin registro abierto',
      RECORD_OPEN_TOO_LONG: 'Registro abierto demasiado tiempo',
      ABSENCE: 'Ausencia',
      LATE_CLOCK_IN: 'Entrada con retraso',
    },
    severities: { low: 'baja', medium: 'media', high: 'alta' },
    statuses: { open: 'abierta', closed: 'cerrada' },
    confirm: 'Confirmo que los registros anteriores son las horas trabajadas en el mes.',
    employeeSignature: 'Empleado',
    administratorSignature: 'Administrador',
    name: 'Nombre:',
    date: 'Fecha:',
    generated: (at, timeZone) => `Generado ${at} (${timeZone})`,
    page: (page, pages) => `Página ${page} de ${pages}`,
  },
};
