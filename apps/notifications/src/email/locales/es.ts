import type { en } from './en.ts';

// Spanish wording of every notification (the academy's own language and the default); the same keys as English.
export const es: typeof en = {
  common: {
    greeting: 'Hola, {{name}}:',
    signature: '— La academia',
    grade: 'Nota: {{grade}}.',
    periodRange: 'del {{start}} al {{end}}',
  },
  blockApproved: {
    subjectTeacher: 'Bloque aprobado: {{block}} ({{student}})',
    subjectStudent: 'Tu bloque {{block}} ha sido aprobado',
    subjectGuardian: '{{student}}: bloque {{block}} aprobado',
    approved: 'El bloque {{block}} de {{subject}} completado por {{student}} ha sido aprobado.',
    approvedStudent: 'Tu bloque {{block}} de {{subject}} ha sido aprobado.',
    next: 'El siguiente bloque, {{next}}, ya está disponible para {{student}}.',
    nextStudent: 'Tu siguiente bloque, {{next}}, ya está disponible.',
    lastTeacher: 'Era el último bloque: enhorabuena, {{student}} ha completado {{subject}}.',
    completedStudent: '¡Enhorabuena! Has completado {{subject}}.',
    completedGuardian: '¡Enhorabuena! {{student}} ha completado {{subject}}.',
  },
  payslip: {
    subjectPublished: 'Tienes una nueva nómina',
    subjectCorrected: 'Tienes una nómina corregida',
    published: 'Tienes una nueva nómina: {{label}}, {{period}}.',
    corrected: 'Tienes una nómina corregida: {{label}}, {{period}}. Sustituye a la anterior, que ya no se muestra.',
    issued: 'Emitida el {{date}}.',
    link: 'Consúltala y descárgala en la aplicación: {{link}}',
    pushBody: '{{label}}, {{period}}',
  },
  attendanceMissing: {
    subject_one: 'Asistencia por pasar: {{count}} clase',
    subject_other: 'Asistencia por pasar: {{count}} clases',
    title: 'Asistencia por pasar',
    intro_one: 'Una de tus clases aún no tiene la asistencia pasada:',
    intro_other: '{{count}} de tus clases aún no tienen la asistencia pasada:',
    line: '· {{subject}} en {{center}}: {{time}}',
    more: '…y {{count}} más.',
    link: 'Pásala en la aplicación: {{link}}',
    pushOne: '{{subject}}, {{time}}',
    pushMany: '{{count}} clases, la más antigua {{subject}}, {{time}}',
  },
  attendanceWarning: {
    subject: 'Asistencia por debajo del {{threshold}}: {{student}} ({{subject}})',
    guardian: 'La asistencia de {{student}} en {{subject}} ha bajado al {{percentage}}, por debajo del {{threshold}} que pide la academia, en {{sessions}} sesiones.',
    admin: 'La asistencia de {{student}} en {{subject}} ha bajado al {{percentage}}, por debajo del {{threshold}} que pide la academia, en {{sessions}} sesiones.',
    guardianClosing: 'Por favor, ponte en contacto con la academia si hay algo que debamos saber.',
    adminClosing: 'También se ha avisado al tutor, cuando el alumno tiene uno con dirección.',
  },
  incidentReply: {
    title: 'Nueva respuesta a tu incidencia',
    body: 'Un administrador ha respondido: {{message}}',
    bodyEmpty: 'Un administrador ha respondido a tu incidencia n.º {{incidentId}}.',
  },
};
