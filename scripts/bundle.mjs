// Bundles the compiled CLI (dist/src/cli/main.js, from tsc) into a few ES module files in dist/cli/, which
// bin/dicerig.js runs. Loading the CLI from ~500 compiled files and ~900 files of packages took most of a command's
// start (0.9 s of CPU for `dicerig --help`); one file per command, loaded when that command runs, takes a fraction.
// The tsc output stays: the benches and the tests' child scripts import dist/src directly.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'cli');

// Packages that stay in node_modules, loaded by Node at run time: native add-ons (.node files found through
// bindings, node-gyp-build or per-platform packages), packages that require files by computed names or read their
// own folders, and development-only packages the CLI loads only when present.
const EXTERNAL = [
  'better-sqlite3', // native add-on (bindings)
  'sharp', // native add-on in a per-platform package (@img/sharp-*)
  '@napi-rs/canvas', // native add-on in a per-platform package
  'serialport', // @serialport/bindings-cpp: native add-on (node-gyp-build)
  'pg', // requires the optional pg-native by name
  'johnny-five', // requires its optional IO plugins and board files by computed names
  'firmata-io', // loads serialport transports by name
  'avrgirl-arduino', // development dependency: only its StandardFirmata hex is read
  'playwright-core', // development dependency; reads its own browser registry files
];

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { main: join(root, 'dist', 'src', 'cli', 'main.js') },
  outdir,
  bundle: true,
  // Each command's file stays a chunk of its own, imported when the command runs (src/cli/commands/index.ts).
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  // CommonJS packages bundled into an ES module still call require() for Node's own modules: give them one.
  banner: { js: "import { createRequire as __dicerigCreateRequire } from 'node:module'; const require = __dicerigCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
