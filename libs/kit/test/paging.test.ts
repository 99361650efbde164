import { describe, expect, test } from '@jest/globals';
import { PageMeta } from '@academy/contracts';
import { pageMeta } from '../src/index.ts';

describe('pageMeta', () => {
  test('totalPages is totalItems / pageSize rounded up', () => {
    expect(pageMeta(6, 1, 4)).toEqual({ totalItems: 6, totalPages: 2, currentPage: 1, pageSize: 4 });
    expect(pageMeta(8, 2, 4)).toEqual({ totalItems: 8, totalPages: 2, currentPage: 2, pageSize: 4 });
  });

  test('an empty list is one empty page: totalPages 1 (the spec rule of the student listing)', () => {
    expect(pageMeta(0, 1, 20)).toEqual({ totalItems: 0, totalPages: 1, currentPage: 1, pageSize: 20 });
  });

  test('a page past the end keeps its number', () => {
    expect(pageMeta(6, 9, 4)).toEqual({ totalItems: 6, totalPages: 2, currentPage: 9, pageSize: 4 });
  });

  test('its result passes the PageMeta contract', () => {
    expect(PageMeta.parse(pageMeta(3, 1, 2))).toEqual(pageMeta(3, 1, 2));
  });
});
