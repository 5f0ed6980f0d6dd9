/**
 * What a campaign's error rate covers, said once: the rig decisions spend alpha split over the die types, the dice's
 * pooled verdicts spend alpha again (Holm over every die of the box), so with no rig biased the chance of any wrong
 * finding in the report is at most twice alpha. Each leg's verdict is its session's own, at that session's alpha:
 * over a box of legs some are wrong by chance, which is why the pooled verdict, not a leg, is the campaign's.
 */
import { listWords } from '../../core/format.js';

export interface CampaignErrorControl {
  readonly alpha: number;
  readonly dieTypes: number;
  /** The level of each type's rig decisions (alpha over the types); the step-down flags a rig while p × rigs still compared is at most this. */
  readonly rigAlphaPerType: number;
  /** Dice in the family of the pooled verdicts (every die of the box, all types together). */
  readonly dice: number;
  /** With no rig biased: the most the chance of any wrong finding can be (a rig set aside, or a fair die called UNFAIR). */
  readonly bound: number;
  /** The statement, a sentence or two a line: alpha, the rigs, the dice, the bound over both, the legs. */
  readonly lines: readonly string[];
  readonly statement: string;
}

/** A threshold as printed: three significant figures, so that the number shown is the one used to that precision. */
export function thresholdWords(x: number): string {
  return String(Number(x.toPrecision(3)));
}

export function campaignErrorControl(alpha: number, dieTypes: readonly string[], dice: number): CampaignErrorControl {
  const types = Math.max(1, dieTypes.length);
  const rigAlphaPerType = alpha / types;
  const bound = Math.min(1, 2 * alpha);
  const a = thresholdWords(alpha);
  const share = types === 1 ? `${a}` : `${thresholdWords(rigAlphaPerType)} for each of the ${types} die types (${listWords(dieTypes)}: α = ${a} split over them)`;
  const lines = [
    `α = ${a}, spent on the rigs and again on the dice.`,
    `Rigs: a rig is set aside while its p × the rigs still compared is at most ${share}; with no rig biased, one is set aside wrongly with chance at most ${a}.`,
    `Dice: each die's campaign verdict pools its rolls on the trusted rigs (G test against its odds), Holm over all ${dice} dice of the box at ${a} (descriptive where a session stopped a die before its budget); on fair rigs, the chance that any fair die is called UNFAIR is at most ${a}. They certify no FAIR_WITHIN: a die not shown unfair is INCONCLUSIVE across rigs.`,
    `In all: with no rig biased, the chance of any wrong finding in this report (a rig set aside, or a fair die called UNFAIR) is at most ${thresholdWords(bound)}.`,
    `Legs: each leg's verdict is its session's own, made at that session's α for the dice it rolled together; over many legs some are wrong by chance, so a leg is detail and the campaign's verdict for a die is the pooled one.`,
  ];
  return { alpha, dieTypes: types, rigAlphaPerType, dice, bound, lines, statement: lines.join(' ') };
}
