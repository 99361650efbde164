import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import ts from 'typescript';

// `router.types.ts` marks each deliberately wrong handler with `@ts-expect-error`, and `nx typecheck
// service` fails if one of them compiles. A marker is satisfied by ANY error on its line, though: this
// compiles the fixture with the markers taken out and checks that each wrong line fails for the reason
// its marker names (a missing handler as missing, a wrong status as the status), and nothing else fails.
const fixturePath = path.join(import.meta.dirname, 'router.types.ts');
const MARKER = '// @ts-expect-error';

/** The reason each marker names, in the fixture's order, and what the compiler must say on the line under it. */
const EXPECTED: [reason: string, says: RegExp][] = [
  ['a missing handler (`health`)', /Property 'health' is missing/],
  ['an extra handler, for a route the contract does not declare', /'remove' does not exist/],
  ['a body its schema refuses (`name` missing)', /Property 'name' is missing/],
  ['a status the route does not declare (201 only)', /Type '200' is not assignable to type '201'/],
  ['an input the route does not have (`read` declares no body)', /'body' is of type 'unknown'/],
  ['a public route has no caller', /Type 'null' is not assignable to type 'Actor'/],
];

/** The fixture's errors (line, message), compiled with the service's own compiler options. */
function compile(text: string): { line: number; message: string }[] {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(import.meta.dirname, '../tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  })!;
  const host = ts.createCompilerHost(config.options);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    path.resolve(fileName) === fixturePath ? ts.createSourceFile(fileName, text, languageVersion) : readSource(fileName, languageVersion, ...rest);
  const program = ts.createProgram([fixturePath], config.options, host);
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(fixturePath)).map((diagnostic) => ({
    line: diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start!).line,
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  }));
}

describe('the typed router refuses a deliberately wrong implementation (test/router.types.ts)', () => {
  test('each wrong handler of the fixture is a compile error for the reason it names, and the right one compiles', () => {
    const lines = readFileSync(fixturePath, 'utf8').split('\n');
    const markers = lines.flatMap((line, index) => (line.includes(MARKER) ? [{ line: index, reason: line.slice(line.indexOf(MARKER) + MARKER.length).trim() }] : []));
    expect(markers.map((marker) => marker.reason)).toEqual(EXPECTED.map(([reason]) => reason));

    // The markers become plain comments (same lines), so the compiler reports what they hid.
    const errors = compile(lines.map((line) => line.replace(MARKER, '// expected:')).join('\n'));
    const hidden = markers.map((marker, index) => {
      const onItsLine = errors.filter((error) => error.line === marker.line + 1);
      return { reason: marker.reason, matches: onItsLine.some((error) => EXPECTED[index]![1].test(error.message)), said: onItsLine.map((error) => error.message.split('\n').slice(-2).join(' | ')) };
    });
    expect(hidden.filter((marker) => !marker.matches)).toEqual([]);
    // Nothing fails but the marked lines: the right shape, and every other handler of the wrong ones, compile.
    expect(errors.filter((error) => !markers.some((marker) => error.line === marker.line + 1))).toEqual([]);
  }, 600_000); // one TypeScript program over the fixture and its libraries: about a minute, several on a loaded machine
});
