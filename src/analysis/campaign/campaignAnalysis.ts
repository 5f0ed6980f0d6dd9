/**
 * A campaign's analysis across the fleet: the counted rolls of every die on
 * every rig, the rig-effect analysis per die type (src/stats/rigEffects.ts),
 * and each session's stored verdicts, made RIG_SUSPECT when its rig is found
 * biased. Pure: the fleet store's rows in, the report's figures out.
 */
import { formatCountOf } from '../../core/format.js';
import { symbolProbabilities } from '../../dice/indexing.js';
import type { DieType } from '../../dice/types.js';
import { campaignErrorControl, type CampaignErrorControl } from './campaignErrorControl.js';
import { campaignDieVerdicts, type CampaignDieVerdict } from './campaignVerdicts.js';
import { decideDieTests, dieEffectGivenRig, findBiasedRigs, trustedDieTests, type AdjustedDieTest, type CampaignCounts, type FactorEffect, type RigFindings } from '../../stats/rigEffects.js';

export interface CampaignRollRow {
  readonly batchId: number;
  readonly rig: string;
  readonly label: string;
  readonly die: string;
  readonly symbol: string;
  readonly count: number;
}

/** Rolls of one die in one batch its reader left unresolved (declined, or the die not found) and nobody labelled. */
export interface CampaignUnresolvedRow {
  readonly batchId: number;
  readonly rig: string;
  readonly label: string;
  readonly count: number;
}

export interface CampaignSessionInput {
  readonly batchId: number;
  readonly rig: string;
  readonly sessionName: string;
  /** Fleet session id (null until synced). */
  readonly fleetSession: number | null;
  readonly state: string | null;
  readonly throwCount: number;
  /** The session's stored verdicts (SessionVerdicts JSON), when synced. */
  readonly verdictsJson: string | null;
}

export interface LegVerdict {
  readonly batchId: number;
  readonly rig: string;
  readonly fleetSession: number | null;
  readonly label: string;
  readonly rolls: number;
  /** The session's verdict for this die once it has finished, PENDING before, or RIG_SUSPECT when the campaign found its rig biased. */
  readonly kind: string;
  readonly sentence: string;
  /** The verdict the session itself stored, when it is overridden. */
  readonly sessionKind?: string;
}

export interface DieTypeAnalysis {
  readonly die: string;
  readonly counts: CampaignCounts;
  /** Rig effect given die: findings (CMH step-down) at the campaign's alpha split over die types. */
  readonly rigs: RigFindings;
  readonly dieEffectGivenRig: FactorEffect;
  /** Each die on the trusted rigs, Holm across all the campaign's dice (descriptive: the legs' budgets are fixed, but a session may stop early). */
  readonly dice: readonly AdjustedDieTest[];
}

export interface CampaignAnalysis {
  readonly alpha: number;
  /** What alpha covers: the rig decisions per die type, the dice's pooled verdicts together, the bound over both. */
  readonly errorControl: CampaignErrorControl;
  readonly types: readonly DieTypeAnalysis[];
  readonly biasedRigs: readonly { readonly rig: string; readonly die: string; readonly reason: string }[];
  /** Rigs whose read rolls differ from the others' but whose unresolved rolls could account for it: not flagged, to be reviewed. */
  readonly unclearRigs: readonly { readonly rig: string; readonly die: string; readonly reason: string }[];
  readonly legs: readonly LegVerdict[];
  /** Each die's one verdict for the campaign, in box order: its rolls on the trusted rigs pooled, its legs as detail. */
  readonly verdicts: readonly CampaignDieVerdict[];
}

interface StoredDieVerdict {
  readonly label: string;
  readonly kind: string;
  readonly sentence: string;
}

function storedVerdicts(json: string | null): StoredDieVerdict[] {
  if (json === null) return [];
  try {
    const v = JSON.parse(json) as { dice?: unknown };
    return Array.isArray(v.dice) ? (v.dice as StoredDieVerdict[]).filter((d) => typeof d?.label === 'string' && typeof d?.kind === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Why a leg has no verdict yet. A session's verdicts are stored whenever it ends, so one stopped by Ctrl-C and resumed
 * still has those of its stop ("undecided after 14 rolls") while it rolls on: they are said as of then, never as its verdict.
 */
function pendingSentence(s: CampaignSessionInput, v: StoredDieVerdict | undefined): string {
  if (s.fleetSession === null) return 'not synced yet';
  const earlier = v === undefined ? '' : ` (when it last ended it said: ${v.sentence.replace(/\.$/, '')})`;
  const throws = formatCountOf(s.throwCount, 'throw');
  if (s.state === 'running') return `the session is still running (${throws} so far); its verdict comes when it finishes${earlier}`;
  const ended = s.state === 'never-started' ? 'never started' : `was ${s.state ?? 'not started'} after ${throws}`;
  return `the session ${ended}; its leg is not done: \`dicerig campaign run\` on its rig's host resumes it${earlier}`;
}

/** The campaign's die × rig × symbol tables, one per die type, in box order, with each die's unresolved rolls per rig. */
export function campaignTables(
  rows: readonly CampaignRollRow[],
  rigs: readonly string[],
  box: readonly { label: string; die: string }[],
  types: ReadonlyMap<string, DieType>,
  unresolvedRows: readonly CampaignUnresolvedRow[] = [],
): Map<string, CampaignCounts> {
  const out = new Map<string, CampaignCounts>();
  for (const typeId of [...new Set(box.map((d) => d.die))]) {
    const type = types.get(typeId);
    if (type === undefined) continue;
    const dice = box.filter((d) => d.die === typeId).map((d) => d.label);
    const counts = dice.map(() => rigs.map(() => type.symbols.map(() => 0)));
    for (const r of rows) {
      const d = dice.indexOf(r.label);
      const g = rigs.indexOf(r.rig);
      const s = type.symbols.indexOf(r.symbol);
      if (d < 0 || g < 0 || s < 0) continue;
      counts[d]![g]![s]! += r.count;
    }
    const unresolved = dice.map(() => rigs.map(() => 0));
    for (const u of unresolvedRows) {
      const d = dice.indexOf(u.label);
      const g = rigs.indexOf(u.rig);
      if (d >= 0 && g >= 0) unresolved[d]![g]! += u.count;
    }
    out.set(typeId, { dice, rigs, faces: [...type.symbols], counts, unresolved });
  }
  return out;
}

export function analyseCampaign(input: {
  readonly alpha: number;
  readonly rigs: readonly string[];
  readonly box: readonly { label: string; die: string }[];
  readonly types: ReadonlyMap<string, DieType>;
  readonly rows: readonly CampaignRollRow[];
  /** Unresolved rolls per batch and die (none when absent). */
  readonly unresolved?: readonly CampaignUnresolvedRow[];
  readonly sessions: readonly CampaignSessionInput[];
}): CampaignAnalysis {
  const tables = campaignTables(input.rows, input.rigs, input.box, input.types, input.unresolved);
  // One rig-effect decision per die type: Bonferroni over the types keeps alpha for the campaign.
  const alphaPerType = input.alpha / Math.max(1, tables.size);
  const biasedRigs: { rig: string; die: string; reason: string }[] = [];
  const unclearRigs: { rig: string; die: string; reason: string }[] = [];
  const judged = [...tables].map(([die, counts]) => {
    const rigs = findBiasedRigs(counts, alphaPerType);
    for (const b of rigs.biased) biasedRigs.push({ rig: b.rig, die, reason: b.reason });
    for (const u of rigs.unclear) unclearRigs.push({ rig: u.rig, die, reason: u.reason });
    return { die, counts, rigs };
  });
  // A rig found biased on one die type is set aside for every type, as its sessions' verdicts are (RIG_SUSPECT
  // whatever dice they rolled): a tray that favours a face does not favour it on D6s only.
  const flagged = [...new Set(biasedRigs.map((b) => b.rig))];
  const found = judged.map((j) => ({ ...j, tests: trustedDieTests(j.counts, symbolProbabilities(input.types.get(j.die) as DieType), flagged) }));
  // The dice of every type are one family (Holm across all of them): Holm within each type at alpha would let a
  // campaign of three types call up to 3 alpha worth of fair dice unfair.
  const decided = decideDieTests(found.flatMap((f) => f.tests), input.alpha);
  let next = 0;
  const types: DieTypeAnalysis[] = found.map(({ die, counts, rigs, tests }) => ({ die, counts, rigs, dieEffectGivenRig: dieEffectGivenRig(counts), dice: decided.slice(next, (next += tests.length)) }));
  const suspect = new Map<string, string>();
  for (const b of biasedRigs) if (!suspect.has(b.rig)) suspect.set(b.rig, b.reason);
  const rollsOf = new Map<string, number>();
  for (const r of input.rows) rollsOf.set(`${r.batchId} ${r.label}`, (rollsOf.get(`${r.batchId} ${r.label}`) ?? 0) + r.count);
  const legs: LegVerdict[] = [];
  for (const s of input.sessions) {
    const verdicts = storedVerdicts(s.verdictsJson);
    const labels = [...new Set([...verdicts.map((v) => v.label), ...input.rows.filter((r) => r.batchId === s.batchId).map((r) => r.label)])];
    for (const label of labels) {
      const v = verdicts.find((x) => x.label === label);
      const rolls = rollsOf.get(`${s.batchId} ${label}`) ?? 0;
      const base = { batchId: s.batchId, rig: s.rig, fleetSession: s.fleetSession, label, rolls };
      const reason = suspect.get(s.rig);
      if (reason !== undefined) {
        legs.push({ ...base, kind: 'RIG_SUSPECT', sentence: `RIG_SUSPECT: ${reason}; no per-die verdict from this rig's sessions.`, ...(v ? { sessionKind: v.kind } : {}) });
      } else if (v !== undefined && s.state === 'finished') {
        legs.push({ ...base, kind: v.kind, sentence: v.sentence });
      } else {
        legs.push({ ...base, kind: 'PENDING', sentence: pendingSentence(s, v) });
      }
    }
  }
  const made = { alpha: input.alpha, errorControl: campaignErrorControl(input.alpha, types.map((t) => t.die), decided.length), types, biasedRigs, unclearRigs, legs };
  return { ...made, verdicts: campaignDieVerdicts(made, input.types) };
}
