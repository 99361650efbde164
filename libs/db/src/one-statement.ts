import { AsyncLocalStorage } from 'node:async_hooks';

// A request whose write is one statement can have that statement widened by whoever opened the
// request (`@academy/service` records an `Idempotency-Key` in the same statement: one round trip,
// the effect and the key committed together). `Sql.query` hands its statement, outside any
// transaction, to the wrapper of the current request when there is one.

/** Runs a statement on the connection `Sql` would have used. */
export type RunStatement = <R>(text: string, values: unknown[]) => Promise<R[]>;

/** Takes the place of running `text` (placeholders `$1…`) as is; returns the rows the caller gets. */
export type StatementWrapper = <T>(text: string, values: unknown[], run: RunStatement) => Promise<T[]>;

const wrappers = new AsyncLocalStorage<StatementWrapper>();

/** Runs `work` (and what it starts) with `wrapper` in the place of running its statements directly. */
export function runWithStatementWrapper<T>(wrapper: StatementWrapper, work: () => T): T {
  return wrappers.run(wrapper, work);
}

export function currentStatementWrapper(): StatementWrapper | undefined {
  return wrappers.getStore();
}

/**
 * A statement split into its WITH list (without the `with` word; null when it has none) and its
 * main statement, so that more common table expressions can be added and the main statement made
 * one of them: `with <ctes>, answer as (<main>), … select … from answer`. The main statement is the
 * first SELECT, INSERT, UPDATE, DELETE or VALUES outside parentheses after the WITH list (a CTE's
 * body is always in parentheses); quoted text and comments are skipped.
 */
export function splitWithClause(text: string): { ctes: string | null; main: string } {
  const keyword = /[a-z_]/i;
  let depth = 0;
  let start = -1;
  let sawWith = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) break;
      i = end;
      continue;
    }
    if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (c === '$' && /[$a-z_]/i.test(text[i + 1] ?? '')) {
      // A dollar-quoted body ($$…$$, $tag$…$tag$); `$1` placeholders are not.
      const tagEnd = text.indexOf('$', i + 1);
      const tag = text.slice(i, tagEnd + 1);
      if (/^\$[a-z_]*\$$/i.test(tag)) {
        const end = text.indexOf(tag, tagEnd + 1);
        i = end < 0 ? text.length : end + tag.length - 1;
        continue;
      }
    }
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && keyword.test(c) && (i === 0 || !/[\w$]/.test(text[i - 1]))) {
      const word = /^[a-z_]+/i.exec(text.slice(i))![0].toLowerCase();
      if (!sawWith && word === 'with') {
        sawWith = true;
        start = i + word.length;
      } else if (['select', 'insert', 'update', 'delete', 'values'].includes(word)) {
        return sawWith ? { ctes: text.slice(start, i).trim().replace(/,$/, ''), main: text.slice(i).trim() } : { ctes: null, main: text.trim() };
      }
      i += word.length - 1;
    }
  }
  throw new Error('a one-statement write must be a SELECT, INSERT, UPDATE, DELETE or VALUES, with or without a WITH list');
}
