/** What a batch knows of one page. */
export interface BatchPage {
  page: number;
  /** Employees whose identifier the page names. */
  candidateIds: number[];
  assignedEmployeeId: number | null;
  excerpt: string;
  payslipId: number | null;
  /** The employee's visible payslip that already is this page's run (the same file). */
  duplicateOfPayslipId: number | null;
}

/** A run of consecutive pages of one employee: one payslip. */
export interface PageRun {
  employeeId: number;
  fromPage: number;
  toPage: number;
  payslipId: number | null;
  /** Already published as this payslip of the employee (the same file): publish leaves the run out. */
  duplicateOfPayslipId: number | null;
}

/** The employee a page belongs to: the one assigned by hand, else the only one it names, else nobody. */
export function ownerOf(page: BatchPage): number | null {
  if (page.assignedEmployeeId !== null) return page.assignedEmployeeId;
  return page.candidateIds.length === 1 ? page.candidateIds[0]! : null;
}

/** Consecutive pages of one employee, in page order (an employee found again later starts a new run). */
export function pageRuns(pages: readonly BatchPage[]): PageRun[] {
  const runs: PageRun[] = [];
  for (const page of [...pages].sort((a, b) => a.page - b.page)) {
    const owner = ownerOf(page);
    const last = runs.at(-1);
    if (owner === null) continue;
    if (last && last.employeeId === owner && last.toPage === page.page - 1) last.toPage = page.page;
    else runs.push({ employeeId: owner, fromPage: page.page, toPage: page.page, payslipId: page.payslipId, duplicateOfPayslipId: page.duplicateOfPayslipId });
  }
  return runs;
}

/** Pages that name nobody and were not assigned. */
export const unmatchedPages = (pages: readonly BatchPage[]) =>
  pages.filter((page) => page.assignedEmployeeId === null && page.candidateIds.length === 0).map(({ page, excerpt }) => ({ page, excerpt }));

/** Pages that name several employees and were not assigned. */
export const ambiguousPages = (pages: readonly BatchPage[]) =>
  pages.filter((page) => page.assignedEmployeeId === null && page.candidateIds.length > 1).map(({ page, candidateIds }) => ({ page, employeeIds: candidateIds }));
