// The notification e-mails: HTML and plain text from the same wording (i18n.ts: in the recipient's
// language); every value from an event is escaped in the HTML and kept on one line in the subject.
import { number, phrase, say, type Language, type Part } from '../shared/i18n.ts';

export type { Part };

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  /** The unsubscribe link of the footer, when there is one: the mail's `List-Unsubscribe` header too. */
  unsubscribe?: string;
}

export interface BlockApprovedFacts {
  studentName: string;
  blockName: string;
  subjectName: string;
  grade: number | null;
  /** The block now available, or null when this was the last one. */
  nextBlockName: string | null;
  subjectCompleted: boolean;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
/** A header value on one line (a newline in a name must not start a new header or line). */
const oneLine = (value: string): string => value.replace(/[\r\n\t]+/g, ' ').trim();

/** A paragraph: parts are literal text, values to escape, or links (the address shown in the text). */
export const v = (value: string | number): Part => ({ value: String(value) });

const partText = (part: Part) => (typeof part === 'string' ? part : 'link' in part ? part.link : oneLine(part.value));
const partHtml = (part: Part) =>
  typeof part === 'string' ? escapeHtml(part) : 'link' in part ? `<a href="${escapeHtml(part.link)}">${escapeHtml(part.link)}</a>` : `<strong>${escapeHtml(oneLine(part.value))}</strong>`;

/**
 * A mail in the house style: greeting, paragraphs, signature, and the footer (the unsubscribe link of
 * a guardian's mail, `unsubscribe`); HTML and text from the same parts.
 */
export function render(lang: Language, subject: string, recipientName: string, paragraphs: Part[][], footer: { unsubscribe?: string } = {}): RenderedMail {
  const asText = (parts: Part[]) => parts.map(partText).join('');
  const asHtml = (parts: Part[]) => parts.map(partHtml).join('');
  const all = [phrase(lang, 'common.greeting', { name: recipientName }), ...paragraphs];
  const signature = say(lang, 'common.signature');
  const unsubscribe = footer.unsubscribe ? phrase(lang, 'unsubscribe.footer', { link: { link: footer.unsubscribe } }) : null;
  return {
    ...(footer.unsubscribe ? { unsubscribe: footer.unsubscribe } : {}),
    subject: oneLine(subject),
    text: `${all.map(asText).join('\n\n')}\n\n${signature}\n${unsubscribe ? `\n-- \n${asText(unsubscribe)}\n` : ''}`,
    html:
      `<!doctype html><html lang="${lang.locale}"><body style="font-family: sans-serif; line-height: 1.5">` +
      all.map((parts) => `<p>${asHtml(parts)}</p>`).join('') +
      `<p>${escapeHtml(signature)}</p>` +
      (unsubscribe ? `<p style="font-size: smaller; color: #666">${asHtml(unsubscribe)}</p>` : '') +
      `</body></html>`,
  };
}

const gradePart = (lang: Language, grade: number | null): Part[][] => (grade === null ? [] : [phrase(lang, 'common.grade', { grade: number(lang, grade) })]);

/** To the teacher: the block was approved; the next one is available, or the subject is complete. */
export function blockApprovedEmployeeTemplate(lang: Language, facts: BlockApprovedFacts & { teacherName: string }): RenderedMail {
  const names = { block: facts.blockName, subject: facts.subjectName, student: facts.studentName };
  const outcome: Part[][] = facts.nextBlockName
    ? [phrase(lang, 'blockApproved.next', { next: facts.nextBlockName, student: facts.studentName })]
    : facts.subjectCompleted
      ? [phrase(lang, 'blockApproved.lastTeacher', { student: facts.studentName, subject: facts.subjectName })]
      : [];
  return render(lang, say(lang, 'blockApproved.subjectTeacher', names), facts.teacherName, [phrase(lang, 'blockApproved.approved', names), ...gradePart(lang, facts.grade), ...outcome]);
}

/**
 * To the student, or to the guardian about the student: worded for who reads it ("your block" or
 * "<student>'s block").
 */
export function blockApprovedStudentTemplate(lang: Language, facts: BlockApprovedFacts & { audience: 'student' | 'guardian'; recipientName: string; unsubscribe?: string }): RenderedMail {
  const forStudent = facts.audience === 'student';
  const names = { block: facts.blockName, subject: facts.subjectName, student: facts.studentName };
  const approved = phrase(lang, forStudent ? 'blockApproved.approvedStudent' : 'blockApproved.approved', names);
  const outcome: Part[][] = facts.nextBlockName
    ? [phrase(lang, forStudent ? 'blockApproved.nextStudent' : 'blockApproved.next', { next: facts.nextBlockName, student: facts.studentName })]
    : facts.subjectCompleted
      ? [phrase(lang, forStudent ? 'blockApproved.completedStudent' : 'blockApproved.completedGuardian', { student: facts.studentName, subject: facts.subjectName })]
      : [];
  return render(lang, say(lang, forStudent ? 'blockApproved.subjectStudent' : 'blockApproved.subjectGuardian', names), facts.recipientName, [approved, ...gradePart(lang, facts.grade), ...outcome], {
    unsubscribe: facts.unsubscribe,
  });
}
