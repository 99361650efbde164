// The approval digest to an administrator: how many blocks have waited too long for review, the
// oldest ten with how long each has waited, and a link to the review queue.
import type { EventData } from '@academy/contracts';
import { phrase, say, type Language } from '../shared/i18n.ts';
import { render, type Part, type RenderedMail } from './templates.ts';

const TAGS = { es: 'es-ES', en: 'en-GB' } as const;

/** 53 hours → "2 días y 5 horas" / "2 days and 5 hours" (Intl's units and list, in the reader's language). */
export function waited(lang: Language, hours: number): string {
  const tag = TAGS[lang.locale];
  const unit = (value: number, name: 'day' | 'hour') => new Intl.NumberFormat(tag, { style: 'unit', unit: name, unitDisplay: 'long' }).format(value);
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  const parts = [...(days ? [unit(days, 'day')] : []), ...(rest || !days ? [unit(rest, 'hour')] : [])];
  return new Intl.ListFormat(tag, { type: 'conjunction' }).format(parts);
}

export function approvalDigestTemplate(lang: Language, data: EventData<'blocks.pending-digest'>, link: string): RenderedMail {
  const more = data.count - data.oldest.length;
  const lines: Part[][] = data.oldest.map((block) =>
    phrase(lang, 'approvalDigest.line', { student: block.studentName, block: block.blockName, subject: block.subjectName, waited: waited(lang, block.waitingHours) }),
  );
  return render(lang, say(lang, 'approvalDigest.subject', { count: data.count }), data.admin.name, [
    phrase(lang, 'approvalDigest.intro', { hours: data.thresholdHours }, data.count),
    ...lines,
    ...(more > 0 ? [phrase(lang, 'approvalDigest.more', {}, more)] : []),
    phrase(lang, 'approvalDigest.link', { link: { link } }),
  ]);
}
