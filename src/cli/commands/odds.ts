import { InvalidArgumentError, Option } from 'commander';
import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { wholeNumberArg } from '../options.js';
import type { Distribution } from '../../odds/distribution.js';
import { formatCountOf, formatDecimal } from '../../core/format.js';
import { exactJson, formatExact } from '../format/exact.js';
import { renderTable } from '../../core/textTable.js';
import type { Rational } from '../../core/rational.js';
import { attackAverages, defenseAverages } from '../../odds/seed-tables.js';
import { atLeast, d3, MAX_T9A_DICE, rollTotal } from '../../odds/t9a.js';
import type { RerollRule, RollSpec } from '../../odds/t9a.js';
import { attackVsDefense, damageOnShip, hitProbability } from '../../odds/xwing-combat.js';
import { ATTACK_MODIFIERS, DEFENSE_MODIFIERS, MAX_POOL } from '../../odds/xwing-dice.js';
import type { AttackModifier, AttackResult, DefenseModifier } from '../../odds/xwing-dice.js';
import { fumbleDirectionOdds, rugbyPassOdds } from '../../odds/xwing-rugby.js';

/** Parses `--excluded-directions 1,2`: D6 sides, each once, not all six. */
function directionList(value: string): number[] {
  const parts = value.split(',').map((p) => p.trim());
  const sides = parts.map((p) => (/^[1-6]$/.test(p) ? Number(p) : NaN));
  const bad = parts.find((_, i) => Number.isNaN(sides[i]));
  if (bad !== undefined) throw new InvalidArgumentError(`--excluded-directions takes D6 sides 1 to 6 separated by commas; "${bad.slice(0, 20)}" is not one.`);
  if (new Set(sides).size === 6) throw new InvalidArgumentError('--excluded-directions excludes all six directions: the ball could never land inside the play area.');
  return [...new Set(sides)].sort((a, b) => a - b);
}

function wantsJson(cmd: Command): boolean {
  return Boolean((cmd.optsWithGlobals() as { json?: boolean }).json);
}

function writeJson(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

const ATTACK_MOD_HELP = 'none: as rolled; focus: every focus -> hit; force: one focus -> hit; lock: reroll blanks and focus; focus+lock: reroll blanks, then every focus -> hit';
const DEFENSE_MOD_HELP = 'none: as rolled; focus: every focus -> evade; force: one focus -> evade';

/** Registers `dicerig odds` and its subcommands `attack`, `t9a` and `rugby`. */
export function registerOddsCommand(program: Command, io: CliIo): void {
  const odds = program
    .command('odds')
    .summary('exact game odds: X-Wing attack and defense, T9A D6 rolls, X-Wing Rugby passes')
    .description(
      'Exact game odds, computed with fractions (no simulation).\n' +
        'Without a subcommand, prints the average hits + crits of 1..N red dice and evades of 1..N green dice per modifier.',
    )
    .option('--json', 'print JSON (exact fractions as text, plus decimals)')
    .option('--max-dice <n>', `largest number of dice in the tables (1..${MAX_POOL})`, wholeNumberArg('--max-dice', 1, MAX_POOL), 8)
    .action((opts: { maxDice: number }, cmd: Command) => printAverages(io, opts.maxDice, wantsJson(cmd)));

  odds
    .command('attack')
    .description(
      'Uncanceled hits and crits when N red dice meet M green dice (evades cancel hits first, then crits); ' +
        'with --hull, the effect on a ship (hits are applied before crits, each removing a shield first; past the shields ' +
        'a hit deals a facedown card and a crit a faceup card; the ship is destroyed when its cards reach its hull).',
    )
    .requiredOption('--red <n>', `attack dice (0..${MAX_POOL})`, wholeNumberArg('--red', 0, MAX_POOL))
    .option('--green <m>', `defense dice (0..${MAX_POOL})`, wholeNumberArg('--green', 0, MAX_POOL), 0)
    .addOption(new Option('--attack-mod <mod>', ATTACK_MOD_HELP).choices(ATTACK_MODIFIERS).default('none'))
    .addOption(new Option('--defense-mod <mod>', DEFENSE_MOD_HELP).choices(DEFENSE_MODIFIERS).default('none'))
    .option('--shields <s>', 'shields of the defending ship (needs --hull)', wholeNumberArg('--shields', 0, 1000))
    .option('--hull <h>', 'hull of the defending ship', wholeNumberArg('--hull', 1, 1000))
    .option('--json', 'print JSON (exact fractions as text, plus decimals)')
    .action((opts: AttackOptions, cmd: Command) => {
      if (opts.shields !== undefined && opts.hull === undefined) cmd.error('error: --shields needs --hull (the ship\'s hull value).');
      printAttack(io, opts, wantsJson(cmd));
    });

  odds
    .command('t9a')
    .description(
      'The Ninth Age D6 odds: N+ on one D6 with rerolls (a rerolled die keeps its second result) and with Maximised / Minimised Roll ' +
        '(roll an extra D6 per instance and discard the lowest / highest; one Maximised cancels one Minimised), the D3 (a D6 halved, ' +
        'rounded up), and totals of several dice. Without --dice: 2D6 and 3D6 totals, plain, maximised and minimised.',
    )
    .option('--dice <n>', `number of D6 added up (1..${MAX_T9A_DICE})`, wholeNumberArg('--dice', 1, MAX_T9A_DICE))
    .option('--maximised <k>', 'instances of Maximised Roll on the total', wholeNumberArg('--maximised', 0, MAX_T9A_DICE), 0)
    .option('--minimised <k>', 'instances of Minimised Roll on the total', wholeNumberArg('--minimised', 0, MAX_T9A_DICE), 0)
    .option('--json', 'print JSON (exact fractions as text, plus decimals)')
    .action((opts: T9aOptions, cmd: Command) => {
      const rolled = (opts.dice ?? 1) + Math.abs(opts.maximised - opts.minimised);
      if (rolled > MAX_T9A_DICE) cmd.error(`error: --dice with --maximised/--minimised would roll ${rolled} dice; at most ${MAX_T9A_DICE} are supported.`);
      printT9a(io, opts, wantsJson(cmd));
    });

  odds
    .command('rugby')
    .description(
      'X-Wing Rugby pass: the passer rolls red dice equal to its attack value against 1, 2 or 3 green dice by range ' +
        '(+1 when obstructed; agility is not used). Caught: hits + crits > evades. Otherwise the pass misses and the ' +
        'receiver fumbles, except that an obstructed pass whose evades outnumber its hits + crits is intercepted by the ' +
        'obstructing ship closest to the receiver (a tie is still a fumble). An unobstructed pass is never intercepted. ' +
        'The three outcomes add up to 1. A fumbled ball scatters by a D6 read against the variant\'s diagram, rerolled ' +
        'until it lands inside the play area: --excluded-directions names the sides that would put it outside.',
    )
    .requiredOption('--attack <n>', `the passer's attack value (0..${MAX_POOL})`, wholeNumberArg('--attack', 0, MAX_POOL))
    .option('--obstructed', 'the pass is obstructed (one more defense die, and an interception is possible)')
    .option('--excluded-directions <sides>', 'fumble directions (D6 sides 1-6, comma-separated) that would put the ball outside the play area, e.g. near an edge', directionList)
    .addOption(new Option('--attack-mod <mod>', ATTACK_MOD_HELP).choices(ATTACK_MODIFIERS).default('none'))
    .addOption(new Option('--defense-mod <mod>', DEFENSE_MOD_HELP).choices(DEFENSE_MODIFIERS).default('none'))
    .option('--json', 'print JSON (exact fractions as text, plus decimals)')
    .action((opts: RugbyOptions, cmd: Command) => printRugby(io, opts, wantsJson(cmd)));
}

interface AttackOptions {
  red: number;
  green: number;
  attackMod: AttackModifier;
  defenseMod: DefenseModifier;
  shields?: number;
  hull?: number;
}

interface T9aOptions {
  dice?: number;
  maximised: number;
  minimised: number;
}

interface RugbyOptions {
  attack: number;
  obstructed?: boolean;
  excludedDirections?: number[];
  attackMod: AttackModifier;
  defenseMod: DefenseModifier;
}

function printAverages(io: CliIo, maxDice: number, json: boolean): void {
  const attack = attackAverages(maxDice);
  const defense = defenseAverages(maxDice);
  if (json) {
    const rows = <M extends string>(r: { dice: number; byModifier: Record<M, Rational> }[]) =>
      r.map((row) => ({ dice: row.dice, ...Object.fromEntries(Object.entries<Rational>(row.byModifier).map(([m, v]) => [m, exactJson(v)])) }));
    writeJson(io, {
      attack: { measure: 'expected hits + crits', rows: rows(attack) },
      defense: { measure: 'expected evades', rows: rows(defense) },
    });
    return;
  }
  io.out('Expected hits + crits, X-Wing red attack dice\n');
  io.out(renderTable(['dice', ...ATTACK_MODIFIERS], attack.map((r) => [String(r.dice), ...ATTACK_MODIFIERS.map((m) => formatDecimal(r.byModifier[m]))])));
  io.out('Per die: 1/2 plain, 3/4 with focus or lock, 15/16 with focus + lock (two dice: 15/8 = 1.875; a widely shared table prints 1.86, an erratum).\n\n');
  io.out('Expected evades, X-Wing green defense dice\n');
  io.out(renderTable(['dice', ...DEFENSE_MODIFIERS], defense.map((r) => [String(r.dice), ...DEFENSE_MODIFIERS.map((m) => formatDecimal(r.byModifier[m]))])));
  io.out('Per die: 3/8 plain, 5/8 with focus. Force converts one focus per roll. Exact fractions: --json.\n');
}

function byTotalThenCrits(a: AttackResult, b: AttackResult): number {
  return a.hits + a.crits - (b.hits + b.crits) || a.crits - b.crits;
}

function printAttack(io: CliIo, opts: AttackOptions, json: boolean): void {
  const uncanceled = attackVsDefense({ red: opts.red, green: opts.green, attackModifier: opts.attackMod, defenseModifier: opts.defenseMod });
  const totals = uncanceled.map((r) => r.hits + r.crits, String);
  const maxTotal = Math.max(0, ...totals.support.map((e) => e.outcome));
  const totalRows = Array.from({ length: maxTotal + 1 }, (_, k) => ({
    damage: k,
    probability: totals.probabilityOf(k),
    atLeast: totals.probability((t) => t >= k),
  }));
  const ship = opts.hull !== undefined ? damageOnShip(uncanceled, { shields: opts.shields ?? 0, hull: opts.hull }) : undefined;
  const expectedHits = uncanceled.expectation((r) => r.hits);
  const expectedCrits = uncanceled.expectation((r) => r.crits);
  const pHit = hitProbability(uncanceled);

  if (json) {
    writeJson(io, {
      red: opts.red,
      green: opts.green,
      attackModifier: opts.attackMod,
      defenseModifier: opts.defenseMod,
      hitProbability: exactJson(pHit),
      expectedHits: exactJson(expectedHits),
      expectedCrits: exactJson(expectedCrits),
      uncanceled: uncanceled.sorted(byTotalThenCrits).map((e) => ({ hits: e.outcome.hits, crits: e.outcome.crits, probability: exactJson(e.probability) })),
      damage: totalRows.map((r) => ({ damage: r.damage, probability: exactJson(r.probability), atLeast: exactJson(r.atLeast) })),
      ...(ship
        ? {
            ship: {
              shields: opts.shields ?? 0,
              hull: opts.hull,
              destroyed: exactJson(ship.destroyed),
              expectedShieldsLost: exactJson(ship.expectedShieldsLost),
              expectedFacedown: exactJson(ship.expectedFacedown),
              expectedFaceup: exactJson(ship.expectedFaceup),
            },
          }
        : {}),
    });
    return;
  }
  io.out(`${diceCount(opts.red, 'red')} (${opts.attackMod}) against ${diceCount(opts.green, 'green')} (${opts.defenseMod})\n`);
  io.out(`P(at least one uncanceled result) = ${formatExact(pHit)}\n`);
  io.out(`Expected uncanceled hits = ${formatExact(expectedHits)}, crits = ${formatExact(expectedCrits)}\n\n`);
  io.out(renderTable(['damage', 'P(= damage)', 'P(>= damage)'], totalRows.map((r) => [String(r.damage), formatDecimal(r.probability), formatDecimal(r.atLeast)])));
  io.out('\n');
  io.out(renderTable(['hits', 'crits', 'probability', 'exact'], uncanceled.sorted(byTotalThenCrits).map((e) => [String(e.outcome.hits), String(e.outcome.crits), formatDecimal(e.probability), e.probability.toString()])));
  if (ship) {
    io.out(`\nShip with ${formatCountOf(opts.shields ?? 0, 'shield')} and ${opts.hull} hull:\n`);
    io.out(`P(destroyed) = ${formatExact(ship.destroyed)}\n`);
    io.out(`Expected shields lost = ${formatExact(ship.expectedShieldsLost)}\n`);
    io.out(`Expected facedown cards = ${formatExact(ship.expectedFacedown)}, faceup cards = ${formatExact(ship.expectedFaceup)}\n`);
  }
}

interface NPlusColumn {
  readonly name: string;
  readonly json: string;
  readonly spec: RollSpec;
  readonly reroll: RerollRule;
}

const N_PLUS_COLUMNS: readonly NPlusColumn[] = [
  { name: 'plain', json: 'plain', spec: {}, reroll: 'none' },
  { name: 'reroll fails', json: 'rerollFailures', spec: {}, reroll: 'failures' },
  { name: "reroll 1s", json: 'rerollOnes', spec: {}, reroll: 'ones' },
  { name: 'maximised', json: 'maximised', spec: { maximised: 1 }, reroll: 'none' },
  { name: 'max + reroll fails', json: 'maximisedRerollFailures', spec: { maximised: 1 }, reroll: 'failures' },
  { name: 'minimised', json: 'minimised', spec: { minimised: 1 }, reroll: 'none' },
  { name: 'min + reroll fails', json: 'minimisedRerollFailures', spec: { minimised: 1 }, reroll: 'failures' },
];

interface TotalTable {
  readonly spec: Required<RollSpec>;
  readonly dist: Distribution<number>;
}

function totalTable(spec: Required<RollSpec>): TotalTable {
  return { spec, dist: rollTotal(spec) };
}

function specName(s: Required<RollSpec>): string {
  const parts = [`${s.dice}D6`];
  if (s.maximised > 0) parts.push(`Maximised x${s.maximised}`);
  if (s.minimised > 0) parts.push(`Minimised x${s.minimised}`);
  return parts.join(', ');
}

function printT9a(io: CliIo, opts: T9aOptions, json: boolean): void {
  const targets = [2, 3, 4, 5, 6];
  const nPlus = targets.map((t) => ({ target: t, cells: N_PLUS_COLUMNS.map((c) => atLeast(t, c.spec, c.reroll)) }));
  const d3Dist = d3();
  const custom = opts.dice !== undefined || opts.maximised > 0 || opts.minimised > 0;
  const tables: TotalTable[] = custom
    ? [totalTable({ dice: opts.dice ?? 1, maximised: opts.maximised, minimised: opts.minimised })]
    : [2, 3].flatMap((dice) => [totalTable({ dice, maximised: 0, minimised: 0 }), totalTable({ dice, maximised: 1, minimised: 0 }), totalTable({ dice, maximised: 0, minimised: 1 })]);
  const rowsOf = (t: TotalTable) =>
    t.dist
      .sorted((a, b) => a - b)
      .map((e) => ({ total: e.outcome, probability: e.probability, atMost: t.dist.probability((v) => v <= e.outcome), atLeast: t.dist.probability((v) => v >= e.outcome) }));

  if (json) {
    writeJson(io, {
      nPlus: nPlus.map((r) => ({ target: r.target, ...Object.fromEntries(N_PLUS_COLUMNS.map((c, i) => [c.json, exactJson(r.cells[i] as Rational)])) })),
      d3: d3Dist.sorted((a, b) => a - b).map((e) => ({ value: e.outcome, probability: exactJson(e.probability) })),
      totals: tables.map((t) => ({
        ...t.spec,
        mean: exactJson(t.dist.expectation((v) => v)),
        distribution: rowsOf(t).map((r) => ({ total: r.total, probability: exactJson(r.probability), atMost: exactJson(r.atMost), atLeast: exactJson(r.atLeast) })),
      })),
    });
    return;
  }
  io.out('T9A: probability of N+ on one D6 (a rerolled die keeps its second result; maximised / minimised: roll 2 D6, keep the highest / lowest)\n');
  io.out(renderTable(['N+', ...N_PLUS_COLUMNS.map((c) => c.name)], nPlus.map((r) => [`${r.target}+`, ...r.cells.map((c) => formatDecimal(c))])));
  io.out(`\nD3 (a D6 halved, rounded up): ${d3Dist.sorted((a, b) => a - b).map((e) => `${e.outcome}: ${e.probability}`).join(', ')}\n`);
  if (custom) {
    const t = tables[0] as TotalTable;
    io.out(`\n${specName(t.spec)}: total (mean ${formatExact(t.dist.expectation((v) => v))})\n`);
    io.out(renderTable(['total', 'P(= total)', 'P(<= total)', 'P(>= total)', 'exact'], rowsOf(t).map((r) => [String(r.total), formatDecimal(r.probability), formatDecimal(r.atMost), formatDecimal(r.atLeast), r.probability.toString()])));
    return;
  }
  for (const dice of [2, 3]) {
    const group = tables.filter((t) => t.spec.dice === dice);
    io.out(`\n${dice}D6 total: plain, maximised (roll ${dice + 1}, drop the lowest), minimised (roll ${dice + 1}, drop the highest)\n`);
    io.out(`mean: ${group.map((t) => formatExact(t.dist.expectation((v) => v))).join(' | ')}\n`);
    const totals = Array.from({ length: 5 * dice + 1 }, (_, i) => dice + i);
    io.out(
      renderTable(
        ['total', 'plain =', 'plain <=', 'plain >=', 'max <=', 'max >=', 'min <=', 'min >='],
        totals.map((s) => {
          const [plain, max, min] = group.map((t) => t.dist) as [Distribution<number>, Distribution<number>, Distribution<number>];
          const le = (d: Distribution<number>) => formatDecimal(d.probability((v) => v <= s));
          const ge = (d: Distribution<number>) => formatDecimal(d.probability((v) => v >= s));
          return [String(s), formatDecimal(plain.probabilityOf(s)), le(plain), ge(plain), le(max), ge(max), le(min), ge(min)];
        }),
      ),
    );
  }
}

function printRugby(io: CliIo, opts: RugbyOptions, json: boolean): void {
  const rows = ([1, 2, 3] as const).map((range) => ({
    range,
    odds: rugbyPassOdds({ attack: opts.attack, range, obstructed: Boolean(opts.obstructed), attackModifier: opts.attackMod, defenseModifier: opts.defenseMod }),
  }));
  const excluded = opts.excludedDirections ?? [];
  const directions = fumbleDirectionOdds(excluded);
  if (json) {
    writeJson(io, {
      attack: opts.attack,
      obstructed: Boolean(opts.obstructed),
      fumbleDirections: { excluded, odds: directions.map((d) => ({ direction: d.direction, probability: exactJson(d.probability) })) },
      attackModifier: opts.attackMod,
      defenseModifier: opts.defenseMod,
      ranges: rows.map((r) => ({
        range: r.range,
        defenseDice: r.odds.defenseDice,
        caught: exactJson(r.odds.caught),
        fumble: exactJson(r.odds.fumble),
        interception: exactJson(r.odds.interception),
      })),
    });
    return;
  }
  io.out(`X-Wing Rugby pass: ${diceCount(opts.attack, 'attack')} (${opts.attackMod})${opts.obstructed ? ', obstructed' : ''}; defense (${opts.defenseMod})\n`);
  io.out(
    renderTable(
      ['range', 'defense dice', 'caught', 'fumble', 'interception'],
      rows.map((r) => [String(r.range), String(r.odds.defenseDice), formatExact(r.odds.caught), formatExact(r.odds.fumble), formatExact(r.odds.interception)]),
    ),
  );
  io.out(
    opts.obstructed
      ? 'Caught: hits + crits > evades. Interception: evades > hits + crits (the obstructing ship closest to the receiver takes the ball). Fumble: equal.\n'
      : 'Caught: hits + crits > evades. Fumble: otherwise (the pass misses; nothing obstructs it, so nobody can intercept).\n',
  );
  io.out(`\nA fumble's direction (D6, rerolled until the ball lands in play${excluded.length > 0 ? `; excluded: ${excluded.join(', ')}` : ''}):\n`);
  io.out(renderTable(['direction', 'probability'], directions.map((d) => [String(d.direction), formatExact(d.probability)])));
}

/** "1 red die", "3 red dice". */
function diceCount(n: number, kind: string): string {
  return `${n} ${kind} ${n === 1 ? 'die' : 'dice'}`;
}
