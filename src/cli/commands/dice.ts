import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { allDice, builtInDice, getDieType, symbolProbabilities } from '../../dice/catalogue.js';
import { readDieDefinitions } from '../loadDice.js';
import type { DieType } from '../../dice/types.js';
import { formatDecimal } from '../../core/format.js';
import { renderTable } from '../../core/textTable.js';
import { Rational } from '../../core/rational.js';

/** Where a listed die comes from. */
type Source = 'built-in' | 'override' | 'user';

/** Registers `dicerig dice`: lists the dice (faces, symbols, probabilities, opposites), built-in and from a file. */
export function registerDiceCommand(program: Command, io: CliIo): void {
  program
    .command('dice')
    .summary('list the known dice: faces, symbols, expected odds, opposite faces')
    .description(
      'Lists the built-in dice and any defined in a JSON or YAML file: each face with its symbol and expected probability, ' +
        'the face on the other side, and the odds per symbol. A file may add dice, derive one from a built-in ("extends"), ' +
        'or set the opposite-face layout of a built-in ("overrides"); see examples/dice/custom-d6.yaml.',
    )
    .argument('[id]', 'show only this die')
    .option('--file <path>', 'JSON or YAML file of die definitions')
    .option('--json', 'print JSON (exact fractions as text, plus decimals)')
    .action(async (id: string | undefined, opts: { file?: string; json?: boolean }) => {
      const extra = opts.file !== undefined ? readDieDefinitions(opts.file) : [];
      const dice = id !== undefined ? [getDieType(id, extra)] : allDice(extra);
      const builtInIds = new Set(builtInDice.map((d) => d.id));
      const extraIds = new Set(extra.map((d) => d.id));
      const sourceOf = (d: DieType): Source => (!extraIds.has(d.id) ? 'built-in' : builtInIds.has(d.id) ? 'override' : 'user');
      if (opts.json) io.out(`${JSON.stringify({ dice: dice.map((d) => dieJson(d, sourceOf(d))) }, null, 2)}\n`);
      else io.out(dice.map((d) => dieText(d, sourceOf(d), opts.file)).join('\n'));
    });
}

/** Exact text when the double is a simple fraction (1/8, 1/6), else the decimal. */
function probabilityText(p: number): string {
  const r = Rational.approximate(p);
  return r ? r.toString() : formatDecimal(p, 6);
}

function probabilityJson(p: number): { exact?: string; decimal: number } {
  const r = Rational.approximate(p);
  return r ? { exact: r.toString(), decimal: p } : { decimal: p };
}

function dieJson(d: DieType, source: Source) {
  const symbolP = symbolProbabilities(d);
  return {
    id: d.id,
    name: d.name,
    source,
    symbols: d.symbols.map((s, i) => ({ symbol: s, probability: probabilityJson(symbolP[i] ?? 0) })),
    faces: d.faces.map((f, i) => ({
      id: f.id,
      symbol: f.symbol,
      ...(f.value !== undefined ? { value: f.value } : {}),
      probability: probabilityJson(d.faceProbabilities[i] ?? 0),
      opposite: d.opposite[f.id],
    })),
    ...(d.notes !== undefined ? { notes: d.notes } : {}),
  };
}

function dieText(d: DieType, source: Source, file: string | undefined): string {
  const symbolP = symbolProbabilities(d);
  const origin = source === 'built-in' ? 'built-in' : source === 'override' ? `built-in, layout from ${file}` : `from ${file}`;
  const hasValues = d.faces.some((f) => f.value !== undefined);
  const header = ['face', 'symbol', ...(hasValues ? ['value'] : []), 'probability', 'opposite'];
  const rows = d.faces.map((f, i) => [
    f.id,
    f.symbol,
    ...(hasValues ? [f.value !== undefined ? String(f.value) : ''] : []),
    probabilityText(d.faceProbabilities[i] ?? 0),
    d.opposite[f.id] ?? '',
  ]);
  return (
    `${d.id}: ${d.name} (${origin})\n` +
    `symbols: ${d.symbols.map((s, i) => `${s} ${probabilityText(symbolP[i] ?? 0)}`).join(', ')}\n` +
    renderTable(header, rows, header.length) +
    (d.notes ? `notes: ${d.notes}\n` : '')
  );
}
