import type { Analysis, DieAnalysis } from '../analysis/analyze.js';
import { sessionLevel } from '../analysis/testedLevels.js';
import { faceNames } from '../dice/faceNames.js';
import { unbiasedReading } from '../analysis/fixedSampleSentence.js';
import { confidenceLabel, formatCount, formatLogScientific, formatProbability, percentFigures, signedPercent } from '../core/format.js';
import { sentenceNames, type DieVerdict } from '../stats/dieVerdict.js';
import { inPlayWords } from './unresolvedRange.js';
import { shareWords, type FaceEstimate } from '../stats/verdict.js';

/** What of a session's own verdict the plain words use. */
export type SessionMade = Pick<DieVerdict, 'alphaPerDie' | 'adjustedAnytimeP' | 'errorControl'>;

/**
 * What a die's verdict means for a player, in plain words: a few sentences,
 * each a complete thought, with the numbers that back it. Never says "fair"
 * without the margin it was certified to. `session`: the session's own verdict of the die, when it made one (its
 * level and its anytime-valid chance stand in for the fixed-size figures).
 */
export function verdictMeaning(d: DieAnalysis, a: Analysis, unresolved = 0, session?: SessionMade): string[] {
  const v = d.verdict;
  // A session counts a D6-faced die face by face: its verdict names a D3's face "6" as "face 6 (reads 3)", and so do these words.
  const faceName = session !== undefined && sessionLevel(d.die) === 'face' ? sentenceNames(d.die.faces.map((f) => f.id), faceNames(d.die)) : undefined;
  const named = (label: string): string => faceName?.get(label) ?? label;
  // A session's verdict is made at the die's share of the session's α: its confidence is that one's.
  const confidence = session ? confidenceLabel(session.alphaPerDie) : percentFigures(1 - a.alpha);
  const play = d.game[0];
  // With unresolved rolls, the interval that holds whatever they were (declines may depend on the face), as the table gives it.
  const inPlay = play ? `In play, ${inPlayWords(play, a.alpha)}.` : undefined;
  // A face's share as the verdict's sentence gives it: with unresolved rolls, the range it spans whatever they were.
  const share = (f: FaceEstimate): string => shareWords(f, v.n, unresolved);
  switch (v.kind) {
    case 'UNFAIR': {
      const lead = v.drivers[0];
      const out = [
        'This die does not roll its published odds.',
        lead
          ? `${named(lead.label)} comes up ${share(lead)} of the time instead of ${formatProbability(lead.expected)}` +
            (unresolved > 0 ? `, whatever its ${formatCount(unresolved)} unresolved ${unresolved === 1 ? 'roll was' : 'rolls were'}.` : lead.expected > 0 ? ` (${signedPercent(lead.observed / lead.expected - 1)}).` : '.')
          : '',
        session
          ? // The session stopped when the evidence was enough: only its anytime-valid figure says what chance had to do with it.
            `A fair die would have built up this much evidence against its odds at any point of its rolling with probability ${formatProbability(session.adjustedAnytimeP)} at most, ` +
            `after allowing for the session's ${session.errorControl.dice} ${session.errorControl.dice === 1 ? 'die' : 'dice'}.`
          : `A fair die would show a difference this large by chance with probability ${formatLogScientific(v.evidence.logP)} at most, ` +
            `after allowing for the ${a.family} test${a.family === 1 ? '' : 's'} in this report.`,
      ];
      // The analysis's own verdict by face, with nothing found by symbol: what the game reads shows no bias.
      const reading = session === undefined && d.decidedBy === undefined && d.across === undefined ? unbiasedReading(v, d.adjusted, a.alpha) : undefined;
      if (reading !== undefined) {
        out.push(`By what it reads (${reading.analysis.labels.join(', ')}) no bias was found (p = ${formatLogScientific(reading.adjustedLogP)}): the bias is between faces that read alike.`);
      }
      if (inPlay) out.push(inPlay);
      out.push('Keep it out of games where fairness matters.');
      return out.filter((s) => s !== '');
    }
    case 'FAIR_WITHIN':
      return [
        `Every ${d.face ? 'face and symbol' : 'face'} of this die comes up within ±${formatProbability(v.delta)} of its published odds, ` +
          `with ${confidence} confidence for all of them at once; the largest deviation still possible is ${formatProbability(v.certifiedDelta)}.`,
        ...(inPlay ? [inPlay] : []),
        'That is as close to "fair" as rolling can show: no number of rolls proves a die perfect, only that any bias is smaller than this margin.',
      ];
    case 'INCONCLUSIVE': {
      const out = [`${formatCount(v.n)} rolls are not enough to decide either way. This is not a finding that the die is fair.`];
      const more = (n: number) => (roughly(n) === 1 ? 'About 1 more roll' : `About ${formatCount(roughly(n))} more rolls`);
      if (v.rollsNeeded !== null && v.target === 'FAIR_WITHIN') {
        out.push(`${more(v.rollsNeeded)} would certify it within ±${formatProbability(v.delta)}, if the proportions seen so far hold.`);
      } else if (v.rollsNeeded !== null && v.target === 'UNFAIR') {
        const lead = v.leadingDeviation;
        const holds = lead ? ` if ${named(lead.label)} keeps coming up ${share(lead)} of the time instead of ${formatProbability(lead.expected)}` : '';
        out.push(`${more(v.rollsNeeded)} would show it unfair${holds}.`);
      } else {
        out.push('If the proportions seen so far hold, no practical number of rolls would decide it.');
      }
      if (inPlay) out.push(inPlay);
      return out;
    }
    case 'RIG_SUSPECT':
      if (v.campaign !== undefined) {
        return [
          `Campaign ${v.campaign.name} rolled the same dice on several rigs and found rig ${v.campaign.rig}, where this session ran, biased: ${v.campaign.reason}.`,
          'What this session shows is the rig as much as the die, so no verdict on the die can be drawn from it; the figures below are for diagnosis only.',
          `The campaign's verdict for each die, on the rigs it trusts: dicerig campaign report ${v.campaign.name}.`,
        ];
      }
      return [
        'The rolls of this die depend on the roll before, which independent tumbles never do: the rig may not be tumbling it properly.',
        `Failed check${v.failedChecks.length === 1 ? '' : 's'}: ${v.failedChecks.map((c) => `${c.name} (${c.detail})`).join('; ')}.`,
        'No verdict on the die itself can be trusted until the rig is fixed and the die re-rolled; the figures below are for diagnosis only.',
      ];
  }
}

/** A projection to two significant figures: it rests on an assumption, so more digits would claim too much. */
function roughly(n: number): number {
  return n < 100 ? Math.ceil(n) : Number(n.toPrecision(2));
}
