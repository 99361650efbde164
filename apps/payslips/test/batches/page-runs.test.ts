import { describe, expect, test } from '@jest/globals';
import { ambiguousPages, pageRuns, unmatchedPages, type BatchPage } from '../../src/batches/page-runs.ts';

const page = (n: number, candidateIds: number[], assignedEmployeeId: number | null = null): BatchPage => ({ page: n, candidateIds, assignedEmployeeId, excerpt: `text ${n}`, payslipId: null, duplicateOfPayslipId: null });

describe('pageRuns', () => {
  test('consecutive pages of one employee are one run; the same employee later starts another', () => {
    const pages = [page(1, [7]), page(2, [7]), page(3, [8]), page(4, [7])];
    expect(pageRuns(pages).map(({ employeeId, fromPage, toPage }) => [employeeId, fromPage, toPage])).toEqual([
      [7, 1, 2],
      [8, 3, 3],
      [7, 4, 4],
    ]);
  });

  test('pages naming nobody or several employees break runs and are listed apart, until assigned by hand', () => {
    const pages = [page(3, [7]), page(1, [7]), page(2, []), page(4, [7, 8])];
    expect(pageRuns(pages).map(({ fromPage, toPage }) => [fromPage, toPage])).toEqual([
      [1, 1],
      [3, 3],
    ]);
    expect(unmatchedPages(pages)).toEqual([{ page: 2, excerpt: 'text 2' }]);
    expect(ambiguousPages(pages)).toEqual([{ page: 4, employeeIds: [7, 8] }]);
    const fixed = [page(1, [7]), page(2, [], 7), page(3, [7]), page(4, [7, 8], 8)];
    expect(pageRuns(fixed).map(({ employeeId, fromPage, toPage }) => [employeeId, fromPage, toPage])).toEqual([
      [7, 1, 3],
      [8, 4, 4],
    ]);
    expect(unmatchedPages(fixed)).toEqual([]);
    expect(ambiguousPages(fixed)).toEqual([]);
  });

  test('a page assigned by hand wins over what it names', () => {
    expect(pageRuns([page(1, [7], 9)])[0]!.employeeId).toBe(9);
  });
});
