import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A child script of the tests (a TypeScript file under test/, and the test files it imports) as plain JavaScript,
 * importing our sources from the compiled dist/ (which globalSetup brings up to date) instead of through tsx: a
 * process started with tsx spends about half a second of CPU more on start-up (the loader, transforming each source
 * file), and the crash tests start one per kill. Only the listed files are transpiled (types stripped, nothing
 * checked: tsc checks them with the rest); their imports of src/ are pointed at dist/src/. Returns the entry's path.
 */
export function compiledChild(files: readonly string[]): string {
  const out = mkdtempSync(join(tmpdir(), 'dicerig-child-'));
  const written: string[] = [];
  for (const file of files) {
    const rel = relative(root, file);
    if (rel.startsWith('..') || !rel.startsWith('test/')) throw new Error(`compiledChild: ${file} is not a test file of this repository`);
    const target = join(out, rel.replace(/\.ts$/, '.js'));
    const source = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
      fileName: file,
    }).outputText;
    // `../../src/x.js` from test/a/b.ts is src/x.js of the repository: its compiled twin is dist/src/x.js.
    const pointed = source.replace(/(from\s+|import\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g, (whole, head: string, quote: string, spec: string) => {
      const resolved = relative(root, join(dirname(file), spec));
      return resolved.startsWith('src/') ? `${head}${quote}${join(root, 'dist', resolved)}${quote}` : whole;
    });
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, pointed);
    written.push(target);
  }
  // ES modules: the folder is outside the package, so say so.
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  return written[0] as string;
}
