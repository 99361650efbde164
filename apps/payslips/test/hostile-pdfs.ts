// Hostile PDFs, built here rather than committed as files, for the tests and apps/payslips/probe.

/** A PDF of `objects` (1-based object numbers, the first the catalog) with a correct cross-reference table. */
export function rawPdf(objects: string[]): Buffer {
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/**
 * A page tree `depth` levels deep whose every node names its one child twice: 2^depth pages declared
 * (26 levels: 67,108,864) in about 3 KB, for a reader that counts pages by walking the tree.
 */
export function pageTreeBomb(depth = 26): Buffer {
  // Object 1 the catalog, 2 … depth + 1 the page tree nodes (2 the root), depth + 2 the one page.
  const nodes = Array.from({ length: depth }, (_, level) => {
    const child = level + 3;
    const parent = level === 0 ? '' : ` /Parent ${level + 1} 0 R`;
    return `<< /Type /Pages /Kids [${child} 0 R ${child} 0 R] /Count ${2 ** (depth - level)}${parent} >>`;
  });
  const page = `<< /Type /Page /Parent ${depth + 1} 0 R /MediaBox [0 0 595 842] >>`;
  return rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', ...nodes, page]);
}

/** The first `fraction` of a PDF: it still starts with `%PDF`, and has lost its cross-reference table and trailer. */
export const truncatedPdf = (pdf: Buffer, fraction = 0.6) => pdf.subarray(0, Math.floor(pdf.length * fraction));
