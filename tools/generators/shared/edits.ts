// Small, anchored edits of the workspace's shared files (route table, compose, kustomizations…). Each
// edit finds its anchor or stops the generator naming the file and what it looked for: a file whose
// shape changed fails loudly instead of being edited in the wrong place.
import type { Tree } from '@nx/devkit';

export function readText(tree: Tree, file: string): string {
  const text = tree.read(file, 'utf-8');
  if (text === null) throw new Error(`${file} is missing: the generator edits it`);
  return text;
}

function anchorMissing(file: string, anchor: RegExp | string): Error {
  return new Error(`${file}: found no ${String(anchor)} to edit; the file changed shape, update tools/generators`);
}

/** Replaces the first match of `anchor` in `file` by `replace(match)`. */
export function editMatch(tree: Tree, file: string, anchor: RegExp, replace: (match: RegExpExecArray) => string): void {
  const text = readText(tree, file);
  const match = anchor.exec(text);
  if (!match) throw anchorMissing(file, anchor);
  tree.write(file, text.slice(0, match.index) + replace(match) + text.slice(match.index + match[0].length));
}

/** Inserts `lines` after the last line of `file` that matches `anchor` (a pattern for one whole line); `lines` may be made from that line (its indentation). */
export function insertAfterLastLine(tree: Tree, file: string, anchor: RegExp, lines: string | string[] | ((anchorLine: string) => string | string[])): void {
  const text = readText(tree, file);
  const all = text.split('\n');
  const index = all.findLastIndex((line) => anchor.test(line));
  if (index < 0) throw anchorMissing(file, anchor);
  all.splice(index + 1, 0, ...[typeof lines === 'function' ? lines(all[index]) : lines].flat());
  tree.write(file, all.join('\n'));
}

/** Inserts `lines` before the first line matching `anchor` at or after the first line matching `after` (when given). */
export function insertBeforeLine(tree: Tree, file: string, anchor: RegExp, lines: string | string[], after?: RegExp): void {
  const text = readText(tree, file);
  const all = text.split('\n');
  const start = after ? all.findIndex((line) => after.test(line)) : 0;
  if (start < 0) throw anchorMissing(file, after!);
  const index = all.findIndex((line, i) => i >= start && anchor.test(line));
  if (index < 0) throw anchorMissing(file, anchor);
  all.splice(index, 0, ...[lines].flat());
  tree.write(file, all.join('\n'));
}

/** Adds an `import` line after the file's last import (or names to an existing import from `from`). */
export function addImport(tree: Tree, file: string, names: string[], from: string, options: { typeOnly?: boolean } = {}): void {
  const text = readText(tree, file);
  const existing = new RegExp(`^import (type )?\\{([^}]*)\\} from '${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}';$`, 'm').exec(text);
  if (existing && Boolean(existing[1]) === Boolean(options.typeOnly)) {
    const present = existing[2].split(',').map((name) => name.trim()).filter(Boolean);
    const merged = [...present, ...names.filter((name) => !present.includes(name))];
    tree.write(file, text.replace(existing[0], `import ${existing[1] ?? ''}{ ${merged.join(', ')} } from '${from}';`));
    return;
  }
  const line = `import ${options.typeOnly ? 'type ' : ''}{ ${names.join(', ')} } from '${from}';`;
  if (/^import .* from '[^']+';$/m.test(text)) insertAfterLastLine(tree, file, /^import .* from '[^']+';$/, line);
  else tree.write(file, `${line}\n\n${text}`);
}

/** Adds `item` to the array literal `const <name>… = [ … ]` of `file`: at the end of its line, or on a line of its own when it has one item a line. */
export function appendToArray(tree: Tree, file: string, declaration: RegExp, item: string): void {
  editMatch(tree, file, new RegExp(`(${declaration.source}[^=]*= \\[)([^\\]]*)(\\])`), (match) => {
    if (match[2].includes('\n')) {
      const body = match[2].trimEnd();
      const indent = /\n([ \t]*)\S/.exec(match[2])?.[1] ?? '  ';
      return `${match[1]}${body}${body.endsWith(',') ? '' : ','}\n${indent}${item},\n${match[3]}`;
    }
    const items = match[2].trim();
    return `${match[1]}${items ? `${items}, ${item}` : item}${match[3]}`;
  });
}

/** `demo-probe` → `demo_probe` (databases, tables, migration names). */
export const snakeCase = (name: string) => name.replace(/-/g, '_');

/** `demo-probe` → `Demo probe` (titles, OpenAPI tags). */
export const titleOf = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/-/g, ' ');

/** Kebab-case, starting with a letter: a folder, an Nx project and a Kubernetes name at once. */
export function checkName(kind: string, name: string | undefined): string {
  if (!name || !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) throw new Error(`${kind} name "${name ?? ''}": use kebab-case letters and digits, starting with a letter (e.g. payslips, time-off)`);
  return name;
}

/** A migration class's timestamp, `yyyyMMddHHmmss` in UTC, as the migration CLI writes them. */
export const migrationTimestamp = (instant: Date) => instant.toISOString().replace(/[-:T]/g, '').slice(0, 14);
