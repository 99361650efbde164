// Entry point of the worker threads (piscina; bundled beside main.js by tools/build.ts): every PDF parse, text extraction and split happens here, never
// on the service's event loop. Each task answers a plain result; expected failures are results too.
import { EncryptedPDFError, PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef } from '@cantoo/pdf-lib';
import type * as Pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { parentPort, threadId } from 'node:worker_threads';
import { findSpanishTaxIds } from '@academy/contracts';

// pdf.js is imported on first use: its module has a top-level await, and piscina first tries to
// `require` this file, which Node refuses (and then fails to import) for a graph with one.
let pdfjs: Promise<typeof Pdfjs> | undefined;
const loadPdfjs = () => (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));
// Loaded as the thread starts, not on its first upload's clock (that check has a time limit).
loadPdfjs().catch(() => {
  pdfjs = undefined;
});

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

/** Deeper page trees than this are refused: real ones are a few levels deep (a balanced tree of 1,000 pages needs 3 or 4). */
const MAX_TREE_DEPTH = 32;

/**
 * The page count of the document's page tree, walked without trusting it: its declared `/Count` over
 * `maxPages` refuses it before any walk; a node reached twice (a page tree is a tree: 26 levels naming
 * their child twice declare 67 million pages in 3 KB), deeper than `MAX_TREE_DEPTH`, or leaves that do
 * not add up to the declared count make it unreadable. Every node is visited once, so the walk is
 * bounded by `maxPages` leaves and the interior nodes above them.
 */
export function boundedPageCount(document: PDFDocument, maxPages: number): { ok: true; pageCount: number } | { ok: false; problem: PdfProblem } {
  const unreadable = { ok: false, problem: 'PDF_UNREADABLE' } as const;
  const rootRef = document.catalog.get(PDFName.of('Pages'));
  const root = document.catalog.lookupMaybe(PDFName.of('Pages'), PDFDict);
  if (!root) return unreadable;
  const declared = root.lookupMaybe(PDFName.of('Count'), PDFNumber)?.asNumber();
  if (declared === undefined || !Number.isInteger(declared) || declared <= 0) return unreadable;
  if (declared > maxPages) return { ok: false, problem: 'TOO_MANY_PAGES' };
  const seen = new Set<PDFRef | PDFDict>([rootRef instanceof PDFRef ? rootRef : root]);
  const stack: { node: PDFDict; depth: number }[] = [{ node: root, depth: 0 }];
  let leaves = 0;
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (node.lookupMaybe(PDFName.of('Type'), PDFName) === PDFName.of('Page')) {
      if (++leaves > declared) return unreadable;
      continue;
    }
    if (depth >= MAX_TREE_DEPTH) return unreadable;
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    if (!kids) return unreadable;
    for (let index = 0; index < kids.size(); index++) {
      const ref = kids.get(index);
      const kid = ref instanceof PDFRef ? document.context.lookupMaybe(ref, PDFDict) : ref instanceof PDFDict ? ref : undefined;
      if (!kid || seen.has(ref instanceof PDFRef ? ref : kid)) return unreadable;
      seen.add(ref instanceof PDFRef ? ref : kid);
      // A tree's nodes are at most its leaves plus one interior node above each: more is not a tree of `declared` pages.
      if (seen.size > 2 * declared + MAX_TREE_DEPTH) return unreadable;
      stack.push({ node: kid, depth: depth + 1 });
    }
  }
  return leaves === declared ? { ok: true, pageCount: leaves } : unreadable;
}

/**
 * Whether the PDF opens, unencrypted, within the page limit (bounded before its page tree is walked),
 * and reads with pdf.js, the strict reader of a batch: a single payslip has every page read (a truncated
 * PDF, which pdf-lib repairs silently, fails there); a combined PDF has its first pages read for text
 * (every page is read right after, off the request path, and a page that fails fails the batch).
 */
export async function inspect(task: InspectTask): Promise<Inspection> {
  let pageCount: number;
  try {
    const document = await PDFDocument.load(task.pdf, { updateMetadata: false, throwOnInvalidObject: true });
    const counted = boundedPageCount(document, task.maxPages);
    if (!counted.ok) return counted;
    pageCount = counted.pageCount;
  } catch (error) {
    return { ok: false, problem: error instanceof EncryptedPDFError ? 'PDF_ENCRYPTED' : 'PDF_UNREADABLE' };
  }
  let document: TextDocument | undefined;
  try {
    document = await openText(task.pdf);
    if (document.numPages !== pageCount) return { ok: false, problem: 'PDF_UNREADABLE' };
    if (!task.requireText) {
      for (let page = 1; page <= pageCount; page++) await pageText(document, page);
      return { ok: true, pageCount };
    }
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

/** The message a thread posts once its module is loaded (see `PdfPool.close`). */
export const LOADED = 'pdfWorkerLoaded' as const;
// Posted as the module's last statement, so after Node has instantiated it: the pool stops no thread
// before this (Node 22 aborts the whole process when a thread is stopped while `require` instantiates its module).
parentPort?.postMessage({ [LOADED]: threadId });
