/**
 * The end of a session in words and as JSON: each die's verdict, how the rig
 * did (throws, re-tumbles, voids, the cocked rate, rolls per hour), the rig
 * check, and where to go next (the report command).
 *
 * The verdicts are the sequential monitors' (anytime-valid: right however the
 * session was stopped). A fixed-sample analysis of the same rolls (`dicerig
 * analyze`) would assume the number of rolls was fixed in advance, which a
 * session that stops at a verdict does not satisfy.
 */
import { misreadLines } from '../stats/dieVerdict.js';
import { median } from '../stats/median.js';
import { roundToTwoFigures } from '../stats/verdict.js';
import { formatCount, formatCountOf, percentFigures } from '../core/format.js';
import { formatDuration } from './progress.js';
import { RETIRED_NOTE, type SessionResult } from './runner.js';
import type { DieOutcome } from './monitorSet.js';

export interface SummaryContext {
  /** The roll store file, for the follow-up commands. */
  readonly db: string;
  /** Whether the rolls are simulated (a simulated rig or camera): they never count as real fairness data. */
  readonly simulated: boolean;
  /**
   * Whether the session ran on a simulated clock (the simulated rig and camera), so its rig time is not wall time;
   * an emulated board or a real camera runs in real time, simulated rolls or not. Default: as `simulated`.
   */
  readonly simulatedClock?: boolean;
  /** Host wall-clock milliseconds the run took (the demo prints it). */
  readonly wallMs?: number;
  /** The session's decision rules, passed on to the report so its verdicts use the same ones; its budgets size a raise. */
  readonly rules?: { readonly alpha: number; readonly delta: number; readonly budgetRolls?: number; readonly budgetHours?: number };
  /** How to continue a session that did not finish (default: `dicerig run --resume ID --db DB`, which runs it with its stored config). */
  readonly resumeCommand?: string;
  /** Whether `--resume ID --more-rolls N` may raise its budget (not for a campaign's leg, whose budget is the campaign's). */
  readonly canRollOn?: boolean;
}

/** The command that writes the session's report (the report command is another part of dicerig). */
export function reportCommand(sessionId: number, ctx: SummaryContext): string {
  const db = /\s/.test(ctx.db) ? JSON.stringify(ctx.db) : ctx.db;
  const rules = ctx.rules ? ` --alpha ${ctx.rules.alpha} --delta ${ctx.rules.delta}` : '';
  return `dicerig report ${sessionId} --db ${db}${rules}`;
}

/** The median, or undefined with nothing measured. */
function medianOrNone(xs: readonly number[]): number | undefined {
  return xs.length === 0 ? undefined : median(xs);
}

/** Rolls (all dice) per hour and throws per hour of session clock in this run. */
export function runRates(result: SessionResult): { throwsPerHour?: number; rollsPerHour?: number } {
  const hours = result.clock.elapsedMs / 3_600_000;
  if (!(hours > 0)) return {};
  return { throwsPerHour: result.clock.runThrows / hours, rollsPerHour: result.clock.runRolls / hours };
}

/** Dice found cocked per die seen, over all throws of the session (a rig-health figure). */
export function cockedRate(result: SessionResult): number | undefined {
  return result.totals.rolls > 0 ? result.totals.cocked / result.totals.rolls : undefined;
}

/**
 * The re-read resolutions by the symbol read, most first (which faces the reader declines at first): `71 read as
 * blank, 3 as hit; `; nothing when some have no symbol (runs stored before it was recorded), as a part would mislead.
 */
function bySymbol(counts: Readonly<Record<string, number>> | undefined, resolved: number): string {
  const each = Object.entries(counts ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (each.length === 0 || each.reduce((n, [, c]) => n + c, 0) !== resolved) return '';
  return `${each.map(([s, n], i) => `${formatCount(n)} ${i === 0 ? 'read ' : ''}as ${s}`).join(', ')}; `;
}

/** The session's end as text. */
export function formatSessionSummary(result: SessionResult, ctx: SummaryContext): string {
  const t = result.totals;
  const lines: string[] = [];
  lines.push(`Session ${result.sessionId} ${result.state}: ${result.reason}`);
  lines.push('');
  const width = Math.max(...result.dice.map((d) => d.label.length));
  // The unresolved rolls said beside the count: report, analyze and export count only the rolls read.
  const rolls = (d: DieOutcome): string => `${formatCountOf(d.rolls, 'roll')}${(d.unresolved ?? 0) > 0 ? `, ${formatCount(d.unresolved ?? 0)} of them unresolved` : ''}`;
  for (const d of result.dice) lines.push(`  ${d.label.padEnd(width)}  (${d.type}, channel ${d.channel}, ${rolls(d)})  ${d.sentence}`);
  if (result.dice.some((d) => d.decidedAt !== null) && result.dice.length > 1) lines.push(`  A die with a verdict is ${RETIRED_NOTE}.`);
  lines.push(`  Error control: ${result.verdicts.errorControl.statement}`);
  for (const line of misreadLines(result.verdicts.dice, t)) lines.push(`  ${line}`);
  lines.push('');
  const rates = runRates(result);
  const cocked = cockedRate(result);
  lines.push(
    `Rig: ${formatCountOf(t.throws, 'throw')} (${formatCount(t.ok)} counted, ${formatCount(t.rerolled)} re-tumbled, ${formatCount(t.void)} void by faults)` +
      `${cocked !== undefined ? `; ${percentFigures(cocked)} of dice ${result.stop === 'unread' ? 'called cocked by a reader that read no die (a sign of the calibration, not of the rig)' : 'came to rest cocked'}` : ''}.`,
  );
  if ((t.declined ?? 0) > 0) {
    // Rolls a person looked at and could not tell stay unresolved but wait for nobody.
    const open = result.dice.reduce((n, d) => n + (d.unresolved ?? 0) - (d.cannotTell ?? 0), 0);
    lines.push(
      `Reader: ${formatCountOf(t.declined ?? 0, 'die', 'dice')} declined or not found at first; a re-read (further frames, light up and down) resolved ${formatCount(t.rereadResolved ?? 0)}` +
        // Misread bounds come from single reads: a re-read's read counts as one, which is an assumption, said.
        `${(t.rereadResolved ?? 0) > 0 ? ` (${bySymbol(t.rereadBySymbol, t.rereadResolved ?? 0)}counted as read, assumed to misread no more often than a first read: the misread bounds measure single reads)` : ''}; ` +
        `${formatCount(t.unresolved ?? 0)} kept as unresolved ${t.unresolved === 1 ? 'roll' : 'rolls'}${open > 0 ? ` (${formatCount(open)} still to review)` : ''}.`,
    );
  }
  const pace = rates.rollsPerHour !== undefined ? `${formatCount(rates.rollsPerHour)} die-rolls per hour (${formatCount(rates.throwsPerHour ?? 0)} throws/h)` : 'no pace measured';
  const settle = medianOrNone(result.settleMs);
  lines.push(
    `This run: ${formatCountOf(result.clock.runThrows, 'throw')} in ${formatDuration(result.clock.elapsedMs)} of ${(ctx.simulatedClock ?? ctx.simulated) ? 'simulated ' : ''}rig time, ${pace}` +
      `${settle !== undefined ? `; median settle ${Math.round(settle)} ms` : ''}${ctx.wallMs !== undefined ? `; ${formatDuration(ctx.wallMs)} wall time` : ''}.`,
  );
  const host = medianOrNone(result.hostMsPerThrow);
  if (host !== undefined) lines.push(`Host time per throw (settle detection, vision, store, statistics; rig and camera excluded): median ${host.toFixed(1)} ms.`);
  if (result.rigCheck) {
    const c = result.rigCheck;
    lines.push(
      c.suspect
        ? `Rig check ${c.look} (over ${formatCountOf(c.rolls, 'roll')}): SUSPECT; per-die verdicts are withheld.`
        : `Rig check ${c.look} (over ${formatCountOf(c.rolls, 'roll')}): no sign that the rig fails to tumble the dice independently.`,
    );
  }
  if (ctx.simulated) lines.push('These rolls are simulated: they are stored marked as such and never count as real fairness data.');
  lines.push('');
  const db = /\s/.test(ctx.db) ? JSON.stringify(ctx.db) : ctx.db;
  lines.push(`Report:  ${reportCommand(result.sessionId, ctx)}`);
  // Rolls waiting for a person: the command that shows them, beside the report's.
  const waiting = result.dice.reduce((n, d) => n + (d.unresolved ?? 0) - (d.cannotTell ?? 0), 0);
  if (waiting > 0) lines.push(`Review:  dicerig review ${result.sessionId} --db ${db}   (${formatCountOf(waiting, 'unresolved roll')} to label)`);
  if (result.state !== 'finished') lines.push(`Resume:  ${ctx.resumeCommand ?? `dicerig run --resume ${result.sessionId} --db ${db}`}`);
  const more = moreRollsNeeded(result);
  if (result.state === 'finished' && more !== undefined && ctx.canRollOn === true) {
    lines.push(`Roll on: ${ctx.resumeCommand ?? `dicerig run --resume ${result.sessionId} --db ${db}`} --more-rolls ${more}   (the same session: its undecided dice keep their evidence)`);
  }
  const hours = result.stop === 'time-budget' && ctx.canRollOn === true ? moreHoursNeeded(result, ctx.rules) : undefined;
  if (hours !== undefined) {
    // Its hours count over all its runs: a plain resume would roll nothing (it is refused); the raise is what rolls on.
    lines.push(`Roll on: ${ctx.resumeCommand ?? `dicerig run --resume ${result.sessionId} --db ${db}`} --more-hours ${hours.hours}   (the same session: its undecided dice keep their evidence; ${hours.why})`);
  }
  const far = result.state === 'finished' ? farPastBudget(result) : [];
  if (far.length > 0) {
    const perHour = runRates(result).throwsPerHour;
    // Each throw rolls every die once: a die's rolls take as many throws.
    // Rounded as the verdicts round the rolls still needed, so the two figures read alike.
    const each = far.map((d) => `${d.label} about ${formatCount(roundToTwoFigures(d.need))} more rolls${perHour !== undefined ? ` (${formatDuration((d.need / perHour) * 3_600_000)} at this run's pace)` : ''}`);
    lines.push(`Far past ${more !== undefined ? 'that' : 'this budget'} (over ten times the rolls ${far.length === 1 ? 'it has' : 'they have'} had, if the observed shares hold): ${each.join('; ')}; roll on for ${far.length === 1 ? 'it' : 'them'} only if that time is worth it.`);
  }
  return `${lines.join('\n')}\n`;
}

/** The session's end as a JSON-able object. */
export function sessionSummaryJson(result: SessionResult, ctx: SummaryContext): Record<string, unknown> {
  return {
    sessionId: result.sessionId,
    db: ctx.db,
    state: result.state,
    stop: result.stop,
    reason: result.reason,
    simulated: ctx.simulated,
    dice: result.dice,
    verdicts: result.verdicts,
    totals: result.totals,
    clock: result.clock,
    ...runRates(result),
    cockedRate: cockedRate(result) ?? null,
    medianSettleMs: medianOrNone(result.settleMs) ?? null,
    medianHostMsPerThrow: medianOrNone(result.hostMsPerThrow) ?? null,
    hostPhaseMsPerThrow: Object.fromEntries(Object.entries(result.hostPhaseMs).map(([k, v]) => [k, result.hostMsPerThrow.length > 0 ? v / result.hostMsPerThrow.length : null])),
    rigCheck: result.rigCheck,
    rigSuspect: result.rigSuspect,
    ...(ctx.wallMs !== undefined ? { wallMs: ctx.wallMs } : {}),
    reportCommand: reportCommand(result.sessionId, ctx),
  };
}

/** A die whose need is past this many times the rolls it has had is not what `--more-rolls` is sized for: said apart, with its machine time. */
const REACH = 10;

/** The dice the budget left INCONCLUSIVE with a known need of more rolls. */
function waitingDice(result: SessionResult): { label: string; rolls: number; need: number }[] {
  return result.verdicts.dice
    .filter((d) => d.kind === 'INCONCLUSIVE' && d.reason === 'budget spent' && d.rollsStillNeeded !== null && d.rollsStillNeeded > 0)
    .map((d) => ({ label: d.label, rolls: d.rolls, need: d.rollsStillNeeded as number }));
}

/**
 * The rolls a die the budget left INCONCLUSIVE still needs, the most of them (rounded up to a hundred) over the dice
 * in practical reach (a need at most ten times the rolls it has had): what `run --resume ID --more-rolls N` should ask
 * for. Undefined when no die in reach waits on the budget.
 */
export function moreRollsNeeded(result: SessionResult): number | undefined {
  const waiting = waitingDice(result).filter((d) => d.need <= REACH * Math.max(1, d.rolls));
  if (waiting.length === 0) return undefined;
  return Math.ceil(Math.max(...waiting.map((d) => d.need)) / 100) * 100;
}

/** The undecided dice far past their budget (a need of more than ten times the rolls they have had), with their need. */
export function farPastBudget(result: SessionResult): { label: string; need: number }[] {
  return waitingDice(result).filter((d) => d.need > REACH * Math.max(1, d.rolls));
}

/**
 * The hours `run --resume ID --more-hours H` should ask for after a session finished on its time budget: what the
 * undecided die needing the most rolls (in practical reach, and within its roll budget) takes at this run's pace of
 * counted throws, rounded up to a tenth of an hour; without a pace or a die in reach, the time budget again.
 */
export function moreHoursNeeded(result: SessionResult, rules: SummaryContext['rules']): { hours: number; why: string } | undefined {
  const undecided = result.verdicts.dice.filter((d) => d.kind === 'INCONCLUSIVE' && d.reason !== 'budget spent');
  if (undecided.length === 0) return undefined;
  // Hours as the time budget counts them (its rolling time), since the hours asked for raise that budget.
  const hoursRun = (result.clock.rollingMs ?? result.clock.elapsedMs) / 3_600_000;
  const okPerHour = hoursRun > 0 ? result.clock.runOkThrows / hoursRun : 0;
  // Each counted throw gives every die still counted one roll; a die stops at its roll budget.
  const rolls = undecided
    .filter((d) => d.rollsStillNeeded !== null && d.rollsStillNeeded > 0 && d.rollsStillNeeded <= REACH * Math.max(1, d.rolls))
    .map((d) => Math.min(d.rollsStillNeeded as number, rules?.budgetRolls !== undefined ? Math.max(0, rules.budgetRolls - d.rolls) : Infinity));
  const most = rolls.length > 0 ? Math.max(...rolls) : 0;
  if (okPerHour > 0 && most > 0) {
    const hours = Math.max(0.1, Math.ceil((most / okPerHour) * 10) / 10);
    return { hours, why: `about ${formatCount(roundToTwoFigures(most))} more rolls at this run's ${formatCount(okPerHour)} counted throws/h` };
  }
  if (rules?.budgetHours === undefined) return undefined;
  return { hours: rules.budgetHours, why: 'the budget again: no undecided die has a need in reach to size it by' };
}
