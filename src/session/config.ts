/**
 * A session's configuration: which die sits in which channel, which rig and
 * camera, the calibration profile, the stopping rules. Read from YAML or JSON
 * and checked with a schema; every problem names the file, the key path and
 * (for YAML and JSON files) the line.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, ConfigProblems } from '../core/errors.js';
import { checkConfigMeaning } from './configMeaning.js';
import { yamlLineOf } from '../core/yamlLine.js';
import { parseYamlText, tooLarge } from '../core/yamlText.js';
import { getDieType } from '../dice/catalogue.js';
import { FIRMATA_BAUD_RATES, FIRMATA_RIG_NAME, FIRMATA_RIG_NAME_RULE, FIRMATA_SETTING_RANGES, type FirmataNumericKey } from '../rig/firmata/firmataSettings.js';
import { dieTypeSchema } from '../dice/dieTypeData.js';
import type { DieType } from '../dice/types.js';
import { withDiceFile } from './diceFile.js';
import { fileReadProblem } from '../core/fileReadProblem.js';
import { notUtf8, utf8Text } from '../core/utf8Text.js';

/** The longest die label or session name: a label is written on a die and printed in tables. */
export const MAX_LABEL_LENGTH = 200;

const probability = z.number().gt(0).lt(1);
const rate = z.number().min(0).max(1);

/** A loaded die for the simulated camera: this symbol (a D6's pip count, an X-Wing icon) comes up `factor` times as often. */
const loadSchema = z.strictObject({
  symbol: z.string().min(1),
  factor: z.number().positive().max(20),
});

const dieSchema = z.strictObject({
  /** The die's label or serial, unique in the roll store. */
  label: z.string().trim().min(1).max(MAX_LABEL_LENGTH, `a label is at most ${MAX_LABEL_LENGTH} characters`).regex(/^[^\r\n]+$/, 'a label is one line'),
  /** Die type id: red, green, d6, d3, direction. */
  type: z.string().min(1),
  set: z.string().optional(),
  notes: z.string().optional(),
  /** Simulated camera only: make this die loaded. */
  simulatedLoad: loadSchema.optional(),
  /** Simulated camera only, D6-faced dice: the face ('1'..'6', by its pips) this die shows as a logo instead of pips. */
  simulatedLogo: z.enum(['1', '2', '3', '4', '5', '6'], { message: 'a logo replaces the pips of one of a D6\'s faces: "1" to "6"' }).optional(),
});

const simTimingSchema = z.strictObject({
  flipMs: z.number().positive().optional(),
  jitterMs: z.number().min(0).optional(),
  homeMinMs: z.number().min(0).optional(),
  homeMaxMs: z.number().min(0).optional(),
  settleMedianMs: z.number().positive().optional(),
  settleSigma: z.number().min(0).optional(),
  settleMinMs: z.number().min(0).optional(),
  settleMaxMs: z.number().positive().optional(),
  commandMs: z.number().min(0).optional(),
  connectMs: z.number().min(0).optional(),
});

const simFaultsSchema = z.strictObject({
  jamRate: rate.optional(),
  resetRate: rate.optional(),
  dropLinkRate: rate.optional(),
  relinkMs: z.number().min(0).optional(),
});

/** A Firmata rig's setting, in the range the driver accepts (`firmataSettings.ts`). */
const firmataNumber = (key: FirmataNumericKey) => {
  const { min, max } = FIRMATA_SETTING_RANGES[key];
  const rule = `must be a whole number from ${min} to ${max}`;
  return z.number(rule).int(rule).min(min, rule).max(max, rule).optional();
};

/**
 * A stock StandardFirmata board keeps no settings: these, by our firmware's names, are the host's (defaults: our
 * firmware's). Our firmware keeps its own in the board (scripts/hardware/rigConfig.ts), so they apply to Firmata rigs only.
 */
const firmataSchema = z.strictObject({
  flip_us: firmataNumber('flip_us'),
  rest_us: firmataNumber('rest_us'),
  flip_ms: firmataNumber('flip_ms'),
  jam_ma: firmataNumber('jam_ma'),
  jam_ms: firmataNumber('jam_ms'),
  home_ms: firmataNumber('home_ms'),
  /** The rig's name, recorded with sessions. */
  rig: z.string().regex(FIRMATA_RIG_NAME, `must be ${FIRMATA_RIG_NAME_RULE}`).optional(),
  /** StandardFirmata's line speed, if the sketch was changed from 57600. */
  baud: z
    .number()
    .refine((b) => FIRMATA_BAUD_RATES.includes(b), `must be one of ${FIRMATA_BAUD_RATES.join(', ')}`)
    .optional(),
});

const rigSchema = z
  .strictObject({
    /** A rig factory name: sim, emulated, serial, firmata, emulated-firmata. */
    driver: z.string().min(1),
    /** Serial port of a real board (serial, firmata); default: the one Arduino plugged in. */
    port: z.string().min(1).optional(),
    /** Light level 0..255 during the session (restored after a board reset). */
    light: z.number().int().min(0).max(255).default(200),
    /** The simulated rig's timing and fault rates. */
    sim: z.strictObject({ timing: simTimingSchema.optional(), faults: simFaultsSchema.optional() }).optional(),
    /** The Firmata rig's tumble, jam and home settings, rig name and line speed (firmata, emulated-firmata). */
    firmata: firmataSchema.optional(),
  })
  .superRefine((rig, ctx) => {
    if (rig.firmata !== undefined && !/firmata/.test(rig.driver)) {
      ctx.addIssue({
        code: 'custom',
        path: ['firmata'],
        message:
          rig.driver === 'sim'
            ? 'applies to the firmata and emulated-firmata rigs only: the simulated rig has no board and no settings to set'
            : `applies to the firmata and emulated-firmata rigs only, not "${rig.driver}": dicerig's own firmware keeps its settings in the board (npx tsx scripts/hardware/rigConfig.ts --port PATH key=value)`,
      });
    }
  });

const rectSchema = z.strictObject({ x: z.number(), y: z.number(), width: z.number().positive(), height: z.number().positive() });

/**
 * Which face the camera sees: `top` (a camera above the dice) or `bottom` (under a clear platform, as the reference
 * rig's). From below, D6-faced dice are recorded by the face on top, the opposite of the one seen. X-Wing dice: the
 * calibration profile says (`dicerig calibrate --face`); given here, it must agree. Default: top, or the profile's.
 */
const faceSeen = z.enum(['top', 'bottom']).optional();

const simCameraSchema = z.strictObject({
  source: z.literal('sim'),
  face: faceSeen,
  lighting: z.string().default('studio'),
  /** Probability that a die comes to rest cocked. */
  cockedRate: rate.default(0.02),
  dieSizePx: z.number().positive().default(72),
  fps: z.number().positive().default(30),
  /**
   * `rest`: one rendered frame per throw, at rest, shown from the rig's settle time on (fast: the demo's default);
   * `all`: every frame of the throw, moving, settling and still, as a real camera would see it.
   */
  frames: z.enum(['rest', 'all']).default('rest'),
  /** Face-dependent declines of the simulated reader: a read of this face (or symbol) is declined with this probability. */
  declines: z.record(z.string(), rate).optional(),
  /** A simulated rig that favours one face (or symbol) on every die it rolls: `excess` more often than the die's odds say. */
  rigBias: z.strictObject({ symbol: z.string().min(1), excess: z.number().gt(-1).lt(1) }).optional(),
  /** Misreads of the simulated reader: `"6>5": 0.02` reads a 6 as a 5 with probability 0.02. */
  misreads: z.record(z.string().regex(/^[^>\s]+>[^>\s]+$/, 'a misread is named FACE>READ_AS, e.g. "6>5"'), z.number().min(0).lt(0.5)).optional(),
  /**
   * Held-back reads per face of the simulated calibration that measures the simulated reader's misreads
   * (default 2000); its upper bounds are what the verdicts allow for. 0: no calibration (misreads assumed 0).
   */
  misreadCalibration: z.number().int().nonnegative().optional(),
});

/** A real camera or a recording: the platform is described by calibration (channels, empty-platform reference). */
const realCameraFields = {
  face: faceSeen,
  width: z.number().int().positive().default(1280),
  height: z.number().int().positive().default(720),
  fps: z.number().positive().default(30),
  /** Image of the empty platform (default: the calibration profile's reference). */
  reference: z.string().min(1).optional(),
  /** Channel rectangles in frame pixels, in die order (default: the calibration profile's channels). */
  channels: z.array(rectSchema).min(1).optional(),
  /** D6 side or d8 across-corners size in pixels (default: the calibration profile's). */
  dieSizePx: z.number().positive().optional(),
};

// exposure and gain in the camera's own units (`v4l2-ctl -d DEVICE --list-ctrls` gives their ranges).
const deviceCameraSchema = z.strictObject({ source: z.literal('device'), device: z.string().min(1), exposure: z.number().positive().optional(), gain: z.number().int().min(0).optional(), ...realCameraFields });
const replayCameraSchema = z.strictObject({ source: z.literal('replay'), folder: z.string().min(1), ...realCameraFields });

const cameraSchema = z.discriminatedUnion('source', [simCameraSchema, deviceCameraSchema, replayCameraSchema]);

const settleSchema = z.strictObject({
  /** `detect`: watch frames until the dice are still; `fixed`: wait a fixed time, then read. */
  mode: z.enum(['detect', 'fixed']).default('detect'),
  /** Fixed mode: how long to wait after the motion. */
  waitMs: z.number().positive().default(2000),
  /** Detect mode: a throw whose dice are not still this long after the motion is re-tumbled. */
  timeoutMs: z.number().positive().default(5000),
});

const stoppingSchema = z.strictObject({
  /** Error rate of each per-die decision. */
  alpha: probability.default(0.01),
  /** FAIR_WITHIN margin: every face within expected ± delta. */
  delta: probability.default(0.05),
  /** Per-die budget in counted rolls: reaching it undecided gives INCONCLUSIVE with the rolls still needed. */
  budgetRolls: z.number().int().positive().default(3000),
  /** Time budget of the session, in hours of rolling over all its runs (`rollingTime.ts`): a resume gets what is left; `run --resume ID --more-hours H` raises it. */
  budgetHours: z.number().positive().optional(),
  /** Run the rig checks (serial tests over every die) every this many counted throws. */
  rigCheckEvery: z.number().int().positive().default(250),
  /** Family-wise error rate of the rig checks over the whole session. */
  rigCheckAlpha: probability.default(0.01),
  stopOnRigSuspect: z.boolean().default(true),
  /** Faults in a row (each voids its throw) before the session gives up. */
  maxConsecutiveFaults: z.number().int().positive().default(3),
  /** Throws in a row without a counted result (rerolled or void) before the session gives up. */
  maxConsecutiveRerolls: z.number().int().positive().default(25),
  /** Throws in a row a die may be not found on its own in its channel (missing, or joined by its hard shadow; each kept as an unresolved roll) before the session stops. */
  maxConsecutiveMissing: z.number().int().positive().default(3),
  /** Throws in a row in which no die was read (every one declined, kept unresolved, or called cocked) before the session stops: a calibration that reads nothing. */
  maxConsecutiveUnread: z.number().int().positive().default(25),
});

export const sessionConfigSchema = z.strictObject({
  /** Session name, unique in the store (optional). */
  name: z.string().trim().min(1).max(MAX_LABEL_LENGTH, `a name is at most ${MAX_LABEL_LENGTH} characters`).optional(),
  /** One die per channel, in channel order. */
  dice: z.array(dieSchema).min(1).max(16),
  rig: rigSchema,
  camera: cameraSchema.default({ source: 'sim', lighting: 'studio', cockedRate: 0.02, dieSizePx: 72, fps: 30, frames: 'rest' }),
  /** Calibration profile for X-Wing dice (default: the shipped default for the dice in the session, made on the simulated camera; a real camera needs one made on your dice); for D6-faced dice, a D6 check that bounds the pip reader's misreads (`calibrate --die d6`). */
  calibration: z.string().min(1).optional(),
  settle: settleSchema.default({ mode: 'detect', waitMs: 2000, timeoutMs: 5000 }),
  stopping: stoppingSchema.default({
    alpha: 0.01,
    delta: 0.05,
    budgetRolls: 3000,
    rigCheckEvery: 250,
    rigCheckAlpha: 0.01,
    stopOnRigSuspect: true,
    maxConsecutiveFaults: 3,
    maxConsecutiveRerolls: 25,
    maxConsecutiveMissing: 3,
    maxConsecutiveUnread: 25,
  }),
  /** The campaign this session rolls for (`dicerig campaign run`): its name, and the campaign's rig id. */
  campaign: z.string().trim().min(1).max(MAX_LABEL_LENGTH).optional(),
  campaignRig: z.string().trim().min(1).max(MAX_LABEL_LENGTH).optional(),
  /**
   * The campaign's own id in its fleet store, and the batch this session rolls: a campaign's name is reused (another
   * fleet database, one made again) and batch ids restart with it, so a local store is matched to a batch on these.
   */
  campaignUid: z.string().min(1).max(64).optional(),
  campaignBatch: z.number().int().positive().optional(),
  /**
   * A dice file (`dicerig dice --file`) defining dice of your own for `dice[].type`: read when the config is loaded
   * (`run --dice-file` wins), its definitions of the config's dice kept in `dieTypes`.
   */
  diceFile: z.string().min(1).optional(),
  /**
   * The definitions of the session's dice that are not built in (or that change a built-in's layout), in the
   * catalogue's shape (`DieType`): written from `diceFile`, or by hand. Stored with the session, so a resumed run,
   * `report`, `analyze` and a review judge its dice by the definitions it ran with, with no dice file at hand.
   */
  dieTypes: z.array(dieTypeSchema).optional(),
  /** Roll store file (the command line's --db wins). Paths in a config file are relative to its folder. */
  db: z.string().min(1).optional(),
  /** Seed of every simulated part (rig timing and faults, camera, dice). */
  seed: z.number().int().min(0).max(0xffffffff).default(1),
  /** `simulated`: a discrete-event clock (thousands of throws in minutes); `auto`: simulated when rig and camera both are. */
  clock: z.enum(['auto', 'simulated', 'system']).default('auto'),
  /** Which die crops to keep as PNG evidence beside the database. */
  evidence: z.enum(['rerolls', 'all', 'none']).default('rerolls'),
});

export type SessionConfig = z.infer<typeof sessionConfigSchema>;
/** What a config file holds before defaults are applied (what a demo builds). */
export type SessionConfigInput = z.input<typeof sessionConfigSchema>;
export type CameraConfig = SessionConfig['camera'];
export type StoppingConfig = SessionConfig['stopping'];
export type SettleConfig = SessionConfig['settle'];
export type DieConfig = SessionConfig['dice'][number];

type Path = readonly (string | number)[];

/** `['dice', 0, 'type']` -> `dice[0].type`. */
export function formatKeyPath(path: Path): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? p : `.${p}`;
  return out || '(top level)';
}

/**
 * Checks a parsed config (plain data) and applies the defaults. Beyond the schema: die types and the rig driver must
 * exist, labels must be unique (`checkConfigMeaning`). Every problem found is reported at once, each with its key path
 * and, where `lineOf` knows it, its line: one ConfigError for a single problem, a ConfigProblems listing them for more.
 */
export function checkSessionConfig(value: unknown, file?: string, lineOf?: (path: Path) => number | undefined): SessionConfig {
  const problems: { key: string; problem: string; line: number }[] = [];
  const seen = new Set<string>();
  const add = (path: Path, problem: string): void => {
    const line = lineOf?.(path);
    const key = formatKeyPath(path);
    const text = `${problem}${line !== undefined ? ` (line ${line})` : ''}`;
    if (seen.has(`${key}\n${text}`)) return;
    seen.add(`${key}\n${text}`);
    problems.push({ key, problem: text, line: line ?? Infinity });
  };
  const parsed = sessionConfigSchema.safeParse(value);
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    // An unknown key is reported at the object holding it; name the key itself.
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    if (keys.length > 0) for (const k of keys) add([...path, k], 'is not a setting here');
    else add(path, issue.message);
  }
  checkConfigMeaning(value, add);
  // In file order, as the user reads and fixes them.
  problems.sort((a, b) => a.line - b.line);
  const [first] = problems;
  if (first !== undefined) throw problems.length === 1 ? new ConfigError(first.key, first.problem, file) : new ConfigProblems(problems, file);
  return parsed.data as SessionConfig;
}

/** A session config is a page of settings; the cap keeps a hostile file from costing time and memory. */
export const MAX_CONFIG_BYTES = 256 * 1024;

/** A config file's plain value, and the line of a key path in it (for errors). */
export interface ConfigDocument {
  readonly value: unknown;
  readonly lineOf: (path: Path) => number | undefined;
}

/** Parses config text (YAML or JSON; JSON is YAML) with the size cap, the alias cap and the one-pass duplicate-key check. */
export function parseConfigText(text: string, file: string): ConfigDocument {
  const parsed = parseYamlText(text, MAX_CONFIG_BYTES, 'session config');
  if ('problem' in parsed) throw new ConfigError('', `${parsed.problem}${parsed.line !== undefined ? ` (line ${parsed.line})` : ''}`, file);
  return { value: parsed.value, lineOf: (path) => yamlLineOf(parsed.doc, parsed.lines, path) };
}

/** Parses a config from YAML or JSON text (JSON is YAML); `file` names it in errors. */
export function parseSessionConfig(text: string, file: string): SessionConfig {
  const { value, lineOf } = parseConfigText(text, file);
  return checkSessionConfig(value, file, lineOf);
}

/** Reads a config file (a huge one is refused before it is read) and parses it as `parseConfigText` does. */
export async function readConfigFile(file: string): Promise<ConfigDocument> {
  let text: string;
  try {
    // Checked before reading: a huge file is refused without loading it.
    const { size } = await stat(file);
    if (size > MAX_CONFIG_BYTES) throw new ConfigError('', tooLarge('session config', size, MAX_CONFIG_BYTES), file);
    const decoded = utf8Text(await readFile(file));
    if (!decoded.ok) throw new ConfigError('', notUtf8('session config', decoded.line), file);
    text = decoded.text;
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    const why = fileReadProblem(e);
    throw new ConfigError('', `cannot read the session config: ${why}`, file);
  }
  // YAML reads an empty file as null, which the schema would call "(top level): expected object, received null".
  if (text.trim() === '') throw new ConfigError('', 'the session config is empty: it names at least the dice and the rig (see examples/sessions/)', file);
  return parseConfigText(text, file);
}

/** Reads and checks a session config file, with its dice file (`diceFile`, or `options.diceFile`, the command line's, which wins). */
export async function loadSessionConfig(file: string, options: { readonly diceFile?: string } = {}): Promise<SessionConfig> {
  const { value, lineOf } = await readConfigFile(file);
  const dir = dirname(resolve(file));
  // One file serves `run` and `serve`: a run leaves serve's section out.
  const { session } = splitServerSection(value);
  return withPathsFrom(dir, checkSessionConfig(withDiceFile(session, dir, file, options.diceFile), file, lineOf));
}

/**
 * A config file's value as the session config and `dicerig serve`'s `server:` section (serveConfig.ts checks it):
 * the session config never holds that section, so its tokens are never stored with a session. A value that is not a
 * mapping is left whole, for the session check to refuse.
 */
export function splitServerSection(value: unknown): { session: unknown; server: unknown } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { session: value, server: undefined };
  const { server, ...session } = value as Record<string, unknown>;
  return { session, server };
}

/** The die type of each of the config's dice, channel by channel: its own definitions (`dieTypes`) first, then the built-in dice. */
export function configDieTypes(config: Pick<SessionConfig, 'dice' | 'dieTypes'>): DieType[] {
  return config.dice.map((d) => getDieType(d.type, config.dieTypes ?? []));
}

/** Resolves the config's file paths (db, calibration, camera reference and folder) against `dir`, the config file's folder. */
export function withPathsFrom(dir: string, config: SessionConfig): SessionConfig {
  const at = (p: string): string => resolve(dir, p);
  const camera = config.camera;
  return {
    ...config,
    ...(config.db !== undefined ? { db: at(config.db) } : {}),
    ...(config.calibration !== undefined ? { calibration: at(config.calibration) } : {}),
    camera:
      camera.source === 'sim'
        ? camera
        : {
            ...camera,
            ...(camera.reference !== undefined ? { reference: at(camera.reference) } : {}),
            ...(camera.source === 'replay' ? { folder: at(camera.folder) } : {}),
          },
  };
}


