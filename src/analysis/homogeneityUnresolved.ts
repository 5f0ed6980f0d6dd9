/**
 * "Are the dice alike?" made to hold whatever the dice's unresolved rolls were. One die whose logo its reader
 * cannot read shows that face less than the other dice of its type on its read rolls, and the homogeneity test on
 * read rolls calls the dice different when only the reader treats them differently. So where some of a group's rolls
 * are unresolved, "the dice differ" stands only if some die differs from the others whatever faces those rolls had:
 * each die against the rest, a face's test bounded over every assignment (src/stats/differenceWhateverUnresolved.ts),
 * at alpha split over the dice; otherwise the reading says the unresolved rolls could account for the difference.
 */
import { formatCount } from '../core/format.js';
import { differenceWhateverUnresolved } from '../stats/differenceWhateverUnresolved.js';
import type { HomogeneityGroup } from './analyze.js';

/** `groups` with each one's unresolved rolls taken into account (unchanged where its dice have none). */
export function homogeneityWhateverUnresolved(groups: readonly HomogeneityGroup[], unresolvedOf: (label: string) => number, alpha: number): HomogeneityGroup[] {
  return groups.map((g) => {
    const unresolved = g.dice.map(unresolvedOf);
    const rolls = unresolved.reduce((a, b) => a + b, 0);
    if (rolls === 0) return g;
    const differOnRead = g.test.pearson.p < alpha;
    const differ =
      differOnRead &&
      g.dice.some((_, i) => {
        const rest = g.labels.map((_, f) => g.counts.reduce((sum, row, j) => (j === i ? sum : sum + (row[f] as number)), 0));
        const stratum = { mine: g.counts[i] as readonly number[], rest, mineUnresolved: unresolved[i] as number, restUnresolved: rolls - (unresolved[i] as number) };
        return differenceWhateverUnresolved([stratum], g.labels.length, alpha / g.dice.length) !== undefined;
      });
    return { ...g, unresolved: { rolls, differ } };
  });
}

/** The reading of a group, in the report's words: alike, differ, or differ only on read rolls. */
export function homogeneityReading(g: HomogeneityGroup, alpha: number): string {
  // Not rejecting is not evidence the dice are alike: said as what it is.
  if (g.test.pearson.p >= alpha) return `no difference found at α = ${alpha}`;
  if (g.unresolved === undefined) return 'the dice differ';
  const rolls = g.unresolved.rolls === 1 ? 'one unresolved roll' : `${formatCount(g.unresolved.rolls)} unresolved rolls`;
  if (g.unresolved.differ) return `the dice differ whatever their ${rolls} ${g.unresolved.rolls === 1 ? 'was' : 'were'}`;
  return `they differ on their read rolls, but their ${rolls} could account for it: review ${g.unresolved.rolls === 1 ? 'it' : 'them'}`;
}
