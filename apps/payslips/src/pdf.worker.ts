// Entry point of the worker threads (piscina; bundled beside main.js by tools/build.ts): every PDF parse, text extraction and split happens here, never
// on the service's event loop. Each task answers a plain result; expected failures are results too.
import { EncryptedPDFError, PDFDocument } from '@cantoo/pdf-lib';
import type * as Pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { findSpanishTaxIds } from '@academy/contracts';

// pdf.js is imported on first use: its module has a top-level await, and piscina first tries to
// `require` this file, which Node refuses (and then fails to import) for a graph with one.
let pdfjs: Promise<typeof Pdfjs> | undefined;
const loadPdfjs = () => (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

export type PdfProblem = 'PDF_ENCRYPTED' | 'PDF_UNREADABLE' | 'TOO_MANY_PAGES' | 'SCANNED_PDF';
export type Inspection = { ok: true; pageCount: number } | { ok: false; problem: PdfProblem };

export interface InspectTask {
  pdf: Uint8Array;
  maxPages: number;
  /** A combined PDF must have a text layer to be matched: its first pages are read to see. */
  requireText: boolean;
}

export interface ReadTask {
  pdf: Uint8Array;
  matchBy: 'taxId' | 'payrollCode';
  /** The payroll codes of the directory (upper case), when matching by them. */
  payrollCodes: string[];
}

export interface PageReading {
  /** Identifiers found on the page: valid tax ids, or known payroll codes (upper case). */
  found: string[];
  /** The start of the page's text, whitespace collapsed. */
  excerpt: string;
}

export interface SplitTask {
  pdf: Uint8Array;
  /** Page runs, 1-based and inclusive: one output PDF each. */
  runs: { fromPage: number; toPage: number }[];
}

const EXCERPT_CHARS = 160;
const TEXT_PROBE_PAGES = 3;

async function openText(pdf: Uint8Array) {
  const { getDocument } = await loadPdfjs();
  // pdf.js takes ownership of the bytes it is given: it gets a copy.
  return getDocument({ data: pdf.slice(), disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
}

type TextDocument = Awaited<ReturnType<typeof openText>>;

async function pageText(document: TextDocument, pageNumber: number): Promise<string> {
  const page = await document.getPage(pageNumber);
  try {
    const content = await page.getTextContent();
    return content.items
      .map((item) => ('str' in item ? item.str : ''))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
  } finally {
    page.cleanup();
  }
}

/** Whether the PDF opens, unencrypted, within the page limit, and (when asked) has text to match. */
export async function inspect(task: InspectTask): Promise<Inspection> {
  let pageCount: number;
  try {
    const document = await PDFDocument.load(task.pdf, { updateMetadata: false });
    pageCount = document.getPageCount();
  } catch (error) {
    return { ok: false, problem: error instanceof EncryptedPDFError ? 'PDF_ENCRYPTED' : 'PDF_UNREADABLE' };
  }
  if (pageCount === 0) return { ok: false, problem: 'PDF_UNREADABLE' };
  if (pageCount > task.maxPages) return { ok: false, problem: 'TOO_MANY_PAGES' };
  if (!task.requireText) return { ok: true, pageCount };
  let document: TextDocument | undefined;
  try {
    document = await openText(task.pdf);
    for (let page = 1; page <= Math.min(pageCount, TEXT_PROBE_PAGES); page++) if ((await pageText(document, page)).length > 0) return { ok: true, pageCount };
    return { ok: false, problem: 'SCANNED_PDF' };
  } catch (error) {
    return { ok: false, problem: (error as Error).name === 'PasswordException' ? 'PDF_ENCRYPTED' : 'PDF_UNREADABLE' };
  } finally {
    await document?.destroy();
  }
}

/** Upper-case words of a page (letters, digits and the separators codes use), for payroll codes. */
function words(text: string): Set<string> {
  return new Set(text.toUpperCase().match(/[A-Z0-9](?:[A-Z0-9_\-/.]*[A-Z0-9])?/g) ?? []);
}

/** Every page's identifiers and excerpt, in page order. */
export async function read(task: ReadTask): Promise<PageReading[]> {
  const document = await openText(task.pdf);
  try {
    const codes = new Set(task.payrollCodes);
    const pages: PageReading[] = [];
    for (let page = 1; page <= document.numPages; page++) {
      const text = await pageText(document, page);
      const found = task.matchBy === 'taxId' ? findSpanishTaxIds(text) : [...words(text)].filter((word) => codes.has(word));
      pages.push({ found, excerpt: text.slice(0, EXCERPT_CHARS) });
    }
    return pages;
  } finally {
    await document.destroy();
  }
}

/** One PDF per run of pages, copied from the combined PDF. */
export async function split(task: SplitTask): Promise<Uint8Array[]> {
  const source = await PDFDocument.load(task.pdf, { updateMetadata: false });
  const outputs: Uint8Array[] = [];
  for (const run of task.runs) {
    const output = await PDFDocument.create({ updateMetadata: false });
    const indices = Array.from({ length: run.toPage - run.fromPage + 1 }, (_, i) => run.fromPage - 1 + i);
    for (const page of await output.copyPages(source, indices)) output.addPage(page);
    outputs.push(await output.save());
  }
  return outputs;
}
