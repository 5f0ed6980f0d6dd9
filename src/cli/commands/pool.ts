import { Option, type Command } from 'commander';
import { analyzeDice } from '../../analysis/analyze.js';
import { resolveDieRolls } from '../../analysis/dieRolls.js';
import { InputError } from '../../errors.js';
import { mergeLogs } from '../../rolllog/mergeLogs.js';
import { selectPool } from '../../stats/pool.js';
import { formatCount } from '../../stats/verdict.js';
import { fixed, renderTable } from '../format/table.js';
import { loadDice } from '../loadDice.js';
import type { CliIo } from '../main.js';
import { positiveIntArg, probabilityArg, toJson } from '../options.js';
import { readLogs } from '../readLogs.js';

interface PoolFlags {
  size: number;
  colour?: string;
  die?: string;
  diceFile?: string;
  level: 'symbol' | 'face';
  alpha: number;
  json?: boolean;
}

export function registerPoolCommand(program: Command, io: CliIo): void {
  program
    .command('pool')
    .description('Pick the N fairest, best-balanced dice of one type for a shared tournament pool, with the pool’s certified delta.')
    .argument('<files...>', 'roll logs (as for analyze)')
    .requiredOption('--size <n>', 'dice in the pool', positiveIntArg)
    .option('--colour <type>', 'die type to pool (red, green, d6...); needed when the logs hold several types')
    .option('--die <type>', 'die type for rolls whose log does not name one')
    .option('--dice-file <file>', 'JSON/YAML file with user-defined dice')
    .addOption(new Option('--level <level>', 'rank by symbols or by physical faces').choices(['symbol', 'face']).default('symbol'))
    .option('--alpha <p>', 'error rate: dice rejected at this level (Holm over all dice) are excluded; intervals are simultaneous at it', probabilityArg, 0.05)
    .option('--json', 'print the pool as JSON')
    .action((files: string[], flags: PoolFlags) => {
      const dice = loadDice(flags.diceFile);
      const layouts = dice.map((d) => ({ typeId: d.id, symbols: d.symbols }));
      const rolls = mergeLogs(readLogs(files, layouts, flags.die)).map((log) => resolveDieRolls(log, dice, flags.die));
      const types = [...new Set(rolls.map((r) => r.die.id))];
      const colour = flags.colour ?? (types.length === 1 ? types[0] : undefined);
      if (colour === undefined) throw new InputError(`the logs hold several die types (${types.join(', ')}): choose one with --colour`);
      const ofType = rolls.filter((r) => r.die.id === colour);
      if (ofType.length === 0) throw new InputError(`no dice of type "${colour}" in the logs (found: ${types.join(', ')})`);
      const analysis = analyzeDice(ofType, { alpha: flags.alpha });
      // A die whose rolls failed the rig checks has no trustworthy estimate: keep it out and say why.
      const rigSuspect = analysis.dice.filter((d) => d.verdict.kind === 'RIG_SUSPECT').map((d) => ({ label: d.label, reason: 'rig checks failed (RIG_SUSPECT): its rolls may not be independent' }));
      const candidates = analysis.dice
        .filter((d) => d.verdict.kind !== 'RIG_SUSPECT')
        .map((d) => {
          const level = flags.level === 'face' ? d.face : d.symbol;
          if (level === undefined) throw new InputError(`die "${d.label}" has no face-level data (its log gives symbols, or its faces all differ): use --level symbol`);
          return { label: d.label, counts: [...level.counts], expected: [...level.expected], rejected: d.verdict.kind === 'UNFAIR', verdict: d.verdict.kind };
        });
      const picked = selectPool(candidates, { size: flags.size, alpha: flags.alpha });
      const selection = { ...picked, excluded: [...picked.excluded, ...rigSuspect] };
      if (flags.json) {
        io.out(`${toJson({ type: colour, level: flags.level, alpha: flags.alpha, ...selection, verdicts: Object.fromEntries(candidates.map((c) => [c.label, c.verdict])) })}\n`);
        return;
      }
      const names = flags.level === 'face' ? (dice.find((d) => d.id === colour)?.faces.map((f) => f.id) ?? []) : (dice.find((d) => d.id === colour)?.symbols ?? []);
      const out = [
        `Pool of ${flags.size} ${colour} dice from ${candidates.length}, ranked by the largest deviation any ${flags.level} could still have (${Math.round((1 - flags.alpha) * 100)}% simultaneous bound).`,
        `Certified: every pool die is within ±${fixed(selection.certifiedDelta)} of the expected odds on every ${flags.level}.`,
        '',
        renderTable(
          ['rank', 'die', 'rolls', 'certified ±', 'in pool'],
          selection.ranking.map((r, i) => [String(i + 1), r.label, formatCount(r.rolls), fixed(r.score), selection.pool.includes(r) ? 'yes' : '']),
          1,
          '  ',
        ).trimEnd(),
        '',
        'Balance of the pool (spread of the observed rates across its dice):',
        renderTable(
          [names.length > 0 ? 'face' : '', 'observed range', 'spread'],
          selection.balance.map((b) => [names[b.face] ?? String(b.face), `${fixed(b.min)}–${fixed(b.max)}`, fixed(b.spread)]),
          1,
          '  ',
        ).trimEnd(),
      ];
      if (selection.excluded.length > 0) out.push('', 'Excluded:', ...selection.excluded.map((e) => `  ${e.label}: ${e.reason}`));
      io.out(`${out.join('\n')}\n`);
    });
}
