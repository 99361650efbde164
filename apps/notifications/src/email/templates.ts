// The approval e-mails (spec, Events 1): HTML and plain text from the same wording; every value
// from an event is escaped in the HTML and kept on one line in the subject.

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
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
export type Part = string | { value: string } | { link: string };
export const v = (value: string | number): Part => ({ value: String(value) });

const partText = (part: Part) => (typeof part === 'string' ? part : 'link' in part ? part.link : oneLine(part.value));
const partHtml = (part: Part) =>
  typeof part === 'string' ? escapeHtml(part) : 'link' in part ? `<a href="${escapeHtml(part.link)}">${escapeHtml(part.link)}</a>` : `<strong>${escapeHtml(oneLine(part.value))}</strong>`;

/** A mail in the house style: greeting, paragraphs, signature; HTML and text from the same parts. */
export function render(subject: string, greeting: Part[], paragraphs: Part[][]): RenderedMail {
  const asText = (parts: Part[]) => parts.map(partText).join('');
  const asHtml = (parts: Part[]) => parts.map(partHtml).join('');
  const all = [greeting, ...paragraphs];
  return {
    subject: oneLine(subject),
    text: `${all.map(asText).join('\n\n')}\n\n— Academy\n`,
    html:
      '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">' +
      all.map((parts) => `<p>${asHtml(parts)}</p>`).join('') +
      '<p>— Academy</p></body></html>',
  };
}

const gradePart = (grade: number | null): Part[][] => (grade === null ? [] : [['Grade: ', v(grade), '.']]);

/** To the teacher: the block was approved; the next one is available, or the subject is complete. */
export function blockApprovedEmployeeTemplate(facts: BlockApprovedFacts & { teacherName: string }): RenderedMail {
  const outcome: Part[][] = facts.nextBlockName
    ? [['The next block, ', v(facts.nextBlockName), ', is now available to ', v(facts.studentName), '.']]
    : facts.subjectCompleted
      ? [['This was the last block: congratulations, ', v(facts.studentName), ' has completed ', v(facts.subjectName), '.']]
      : [];
  return render(
    `Block approved: ${facts.blockName} (${facts.studentName})`,
    ['Hello ', v(facts.teacherName), ','],
    [['The block ', v(facts.blockName), ' of ', v(facts.subjectName), ' completed by ', v(facts.studentName), ' has been approved.'], ...gradePart(facts.grade), ...outcome],
  );
}

/**
 * To the student, or to the guardian about the student: worded for who reads it ("your block" or
 * "<student>'s block").
 */
export function blockApprovedStudentTemplate(facts: BlockApprovedFacts & { audience: 'student' | 'guardian'; recipientName: string }): RenderedMail {
  const forStudent = facts.audience === 'student';
  const approved: Part[] = forStudent
    ? ['Your block ', v(facts.blockName), ' of ', v(facts.subjectName), ' has been approved.']
    : ['The block ', v(facts.blockName), ' of ', v(facts.subjectName), ' completed by ', v(facts.studentName), ' has been approved.'];
  const outcome: Part[][] = facts.nextBlockName
    ? [forStudent ? ['Your next block, ', v(facts.nextBlockName), ', is now available.'] : ['The next block, ', v(facts.nextBlockName), ', is now available to ', v(facts.studentName), '.']]
    : facts.subjectCompleted
      ? [forStudent ? ['Congratulations! You have completed ', v(facts.subjectName), '.'] : ['Congratulations! ', v(facts.studentName), ' has completed ', v(facts.subjectName), '.']]
      : [];
  return render(
    forStudent ? `Your block ${facts.blockName} has been approved` : `${facts.studentName}: block ${facts.blockName} approved`,
    ['Hello ', v(facts.recipientName), ','],
    [approved, ...gradePart(facts.grade), ...outcome],
  );
}
