/**
 * What a client may ask the rig to roll, checked with zod. A request is one of:
 * plain dice (`{"dice": "3 red"}`), an X-Wing attack with its defense, a 9th
 * Age roll, or the X-Wing Rugby fumble (a direction roll rerolled until the
 * ball lands inside the play area). Every problem is one line naming the field.
 */
import { z } from 'zod';
import { MAX_DICE, parseDiceText, type DiceGroup } from './diceText.js';
import { shownName } from './shownName.js';

const instances = z.union([z.boolean().transform((b) => (b ? 1 : 0)), z.number().int().min(0).max(4)]);

const attackSchema = z.strictObject({
  red: z.number().int().min(1).max(30),
  focus: z.boolean().default(false),
  lock: z.boolean().default(false),
  force: z.boolean().default(false),
});
const defenseSchema = z.strictObject({
  green: z.number().int().min(0).max(30),
  focus: z.boolean().default(false),
  force: z.boolean().default(false),
});

const t9aSchema = z.strictObject({
  /** Separate rolls of one die each (or, with `total`, dice added into one roll). */
  dice: z.number().int().min(1).max(12),
  /** "4+": a roll succeeds at this value or more. */
  target: z
    .string()
    .regex(/^\d{1,2}\+$/, 'a target is written like "4+"')
    .transform((t) => Number(t.slice(0, -1)))
    .optional(),
  reroll: z.enum(['none', 'failures', 'successes', 'ones']).default('none'),
  maximised: instances.default(0),
  minimised: instances.default(0),
  /** One roll adding all the dice (2D6 for a Leadership test) instead of one roll per die. */
  total: z.boolean().default(false),
  /** D3 rolls (a D6 halved, rounded up). */
  d3: z.boolean().default(false),
});

const fumbleSchema = z.strictObject({
  /** Directions (1..6) that would put the ball outside the play area: rolled again until another comes up. */
  exclude: z.array(z.number().int().min(1).max(6)).max(5, 'at least one direction must stay allowed').default([]),
});

// A name is shown on the overlay and in chat: only what shownName keeps of it.
const common = {
  by: z
    .string()
    .transform((s) => shownName(s, Number.MAX_SAFE_INTEGER))
    .pipe(z.string().min(1).max(40))
    .optional(),
};

/** One schema per kind of request, chosen by the body's key, so a problem is reported against the kind the client meant. */
const BRANCHES = {
  dice: z.strictObject({ dice: z.string().trim().min(1, 'say which dice, e.g. "3 red" or "2d6"').max(100, 'at most 100 characters'), ...common }),
  attack: z.strictObject({ attack: attackSchema, defense: defenseSchema.optional(), ...common }),
  t9a: z.strictObject({ t9a: t9aSchema, ...common }),
  fumble: z.strictObject({ fumble: fumbleSchema, ...common }),
} as const;
type Branch = keyof typeof BRANCHES;

export type AttackInput = z.infer<typeof attackSchema>;
export type DefenseInput = z.infer<typeof defenseSchema>;
export type T9aInput = z.infer<typeof t9aSchema>;

/** A checked request. */
export type RollSpec =
  | { readonly kind: 'dice'; readonly groups: readonly DiceGroup[]; readonly by?: string }
  | { readonly kind: 'attack'; readonly attack: AttackInput; readonly defense?: DefenseInput; readonly by?: string }
  | { readonly kind: 't9a'; readonly t9a: T9aInput; readonly by?: string }
  | { readonly kind: 'fumble'; readonly exclude: readonly number[]; readonly by?: string };

export class RollRequestError extends Error {
  override readonly name = 'RollRequestError';
}

function problemOf(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = (issue?.path ?? []).map(String).join('.');
  if (issue?.code === 'unrecognized_keys') return `${issue.keys.map((k) => `"${path ? `${path}.` : ''}${k}"`).join(', ')} is not a field here`;
  return `${path || 'body'}: ${issue?.message ?? 'not valid'}`;
}

/** Checks a request body; throws RollRequestError naming the problem. */
export function parseRollRequest(body: unknown): RollSpec {
  const keys = body !== null && typeof body === 'object' && !Array.isArray(body) ? (Object.keys(BRANCHES) as Branch[]).filter((k) => k in body) : [];
  if (keys.length === 0) throw new RollRequestError('a roll needs one of "dice", "attack", "t9a" or "fumble"');
  if (keys.length > 1) throw new RollRequestError(`a roll is one of "dice", "attack", "t9a" or "fumble", not ${keys.map((k) => `"${k}"`).join(' and ')} together`);
  const parsed = BRANCHES[keys[0] as Branch].safeParse(body);
  if (!parsed.success) throw new RollRequestError(problemOf(parsed.error));
  const r = parsed.data as z.infer<(typeof BRANCHES)[Branch]>;
  const by = r.by !== undefined ? { by: r.by } : {};
  if ('dice' in r) {
    try {
      return { kind: 'dice', groups: parseDiceText(r.dice), ...by };
    } catch (e) {
      throw new RollRequestError(`dice: ${(e as Error).message}`);
    }
  }
  if ('attack' in r) {
    if (r.attack.force && (r.attack.focus || r.attack.lock)) throw new RollRequestError('attack: a force charge is spent alone here (not with focus or lock)');
    // The same cap as plain dice: the red and green dice of one attack are one roll.
    const both = r.attack.red + (r.defense?.green ?? 0);
    if (both > MAX_DICE) throw new RollRequestError(`attack: ${both} dice (red and green) is more than the ${MAX_DICE} one roll may ask for`);
    if (r.defense?.force && r.defense.focus) throw new RollRequestError('defense: spend focus or a force charge, not both');
    return { kind: 'attack', attack: r.attack, ...(r.defense !== undefined ? { defense: r.defense } : {}), ...by };
  }
  if ('t9a' in r) {
    const t = r.t9a;
    if ((t.reroll === 'failures' || t.reroll === 'successes') && t.target === undefined) throw new RollRequestError(`t9a.target: rerolling ${t.reroll} needs a target such as "4+"`);
    if (t.reroll === 'ones' && t.total && t.dice > 1) throw new RollRequestError('t9a.reroll: rerolling ones applies to single-die rolls');
    if (t.d3 && (t.total || t.maximised > 0 || t.minimised > 0)) throw new RollRequestError('t9a.d3: D3 rolls are rolled one die each, without Maximised or Minimised Roll');
    if (t.target !== undefined) {
      // A target every roll meets, or none can, gives a fixed answer: refused before the rig moves.
      const size = t.total ? t.dice : 1;
      const [low, high] = [size + 1, size * (t.d3 ? 3 : 6)];
      const what = t.total ? `a ${size}${t.d3 ? 'D3' : 'D6'} total` : `one ${t.d3 ? 'D3' : 'D6'}`;
      if (t.target < low || t.target > high) throw new RollRequestError(`t9a.target: ${t.target}+ on ${what} always ${t.target < low ? 'succeeds' : 'fails'}; give ${low}+ to ${high}+`);
    }
    const rolled = (t.total ? t.dice : 1) + Math.abs(t.maximised - t.minimised);
    const perRoll = t.total ? 1 : t.dice;
    if (rolled * perRoll > MAX_DICE) throw new RollRequestError(`t9a: ${rolled * perRoll} dice is more than one roll may ask for (${MAX_DICE})`);
    return { kind: 't9a', t9a: t, ...by };
  }
  return { kind: 'fumble', exclude: [...new Set(r.fumble.exclude)].sort(), ...by };
}
