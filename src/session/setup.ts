/**
 * The I/O shell around the throw loop: from a checked config to a connected
 * rig, a camera, the vision pipeline, an open roll store and a session row
 * (new, or reopened with `--resume`), ready for `runSession`.
 */
import { dirname, join, resolve } from 'node:path';
import { cameraFactories } from '../camera/cameraFactory.js';
import { randomDieStyle } from '../camera/sim/simulatedCamera.js';
import { SimulatedClock, systemClock, type Clock } from '../core/clock.js';
import { sessionLevel } from '../analysis/testedLevels.js';
import type { DieType } from '../dice/types.js';
import { cameraProblem } from './cameraCheck.js';
import { checkFrameSize } from '../camera/platformFit.js';
import { refuseStreamResume } from './streamSession.js';
import { ConfigError } from '../core/errors.js';
import type { RigDriver, RigIdentity } from '../rig/driver.js';
import { RigError } from '../rig/errors.js';
import { rigFactories, type RigFactoryOptions } from '../rig/factory.js';
import { seededRandom } from '../stats/random.js';
import { decliningReader } from './decliningReader.js';
import { sameFrameReads } from './sameFrameReads.js';
import { misreadingReader } from './misreadingReader.js';
import { misreadMeasure } from './misreadMeasure.js';
import { D6_CHECK_COMMAND, requireD6CheckDieSize, sessionD6Check } from './d6CheckChoice.js';
import type { D6Check } from '../vision/calibration/d6Check.js';
import { misreadReachNotice } from './misreadReachNotice.js';
import type { SessionRecord } from '../store/records.js';
import { openStoreForWriting } from '../store/openStore.js';
import { takeOverNotice } from '../store/sessionLocks.js';
import type { RollStore } from '../store/rollStore.js';
import { chooseReader, type ChosenReader } from '../vision-io/readerChoice.js';
import { frameKeeper, type KeptThrowsManifest } from '../vision-io/keptThrows.js';
import { simDieClass } from '../camera/sim/writeLabelledFolder.js';
import type { FaceReader } from '../vision/faceRead.js';
import type { RgbImage } from '../core/image.js';
import { readFrame } from '../vision/pipeline.js';
import { narrowingCommand } from '../vision/calibration/checkedDice.js';
import { sessionPipeline } from './sessionPipeline.js';
import { configDieTypes, type SessionConfig } from './config.js';
import { folderEvidence, sessionEvidenceFolder, type EvidenceSink } from './evidence.js';
import type { RunnerDeps, RunnerPlan, SettleRule } from './runner.js';
import { faceNotice, faceSeen, topFaceReader, type FaceSeen } from './faceSeen.js';
import { countedCategories, type ReadLevel, type SessionDie } from './sessionDie.js';
import { BUDGET_RAISED, HOURS_RAISED, requireUndecidedDie, resumedHours, storedSessionConfig } from './budgetRaise.js';
import { formatHours, storedRollingMs } from './rollingTime.js';
import { refuseImported } from './importedSession.js';
import { resumedConfigNotice } from './resumedConfigNotice.js';
import { addressesOf, HARDWARE_MOVED, movedNotice, withGivenAddresses, type MovedAddresses } from './resumedAddresses.js';
import { requireSameRig } from './resumedRig.js';
import { requireSameCalibration } from './resumedCalibration.js';
import { requireSameDice } from './resumedDice.js';
import { readerFamily } from './readerRule.js';
import { SimThrowCamera } from './simThrowCamera.js';
import { SimulatedDice, simDieKind } from './simulatedDice.js';
import { streamThrowCamera, type ThrowCamera } from './throwCamera.js';

export interface OpenSessionOptions {
  /** The config of a new session; with `resume`, optional (the session runs with its stored config) and only checked against it. */
  readonly config?: SessionConfig;
  /** Roll store file, or ':memory:'. */
  readonly dbPath: string;
  /** Session id or name to continue. */
  readonly resume?: string;
  /** With `resume`: raise the session's roll budget by this many rolls a die (its undecided dice are rolled on). */
  readonly moreRolls?: number;
  /** With `resume`: raise the session's time budget (over all its runs) by this many hours. */
  readonly moreHours?: number;
  /** With `resume`: take over a claim on the session held on another host, whose process the user says is gone. */
  readonly takeOver?: boolean;
  /** Wall-clock epoch milliseconds (Date.now): the simulated clock starts at it. */
  readonly wallNow: () => number;
  readonly log?: (message: string) => void;
  /**
   * A new or empty folder to keep every frame the session reads a throw from in, with the empty platform, as kept
   * throws a guided calibration or D6 check names (`calibrate --camera DIR`): the rig throws the dice, not a hand.
   */
  readonly keepFrames?: string;
  /**
   * A live camera must give a frame before the session's row is written (run: a camera missing or refused leaves no
   * session that never rolled). serve leaves it out: it starts anyway and says so, and each roll opens the camera again.
   */
  readonly cameraMustAnswer?: boolean;
}

export interface OpenedSession {
  /** The config the session runs with (on resume: the one stored with the session). */
  readonly config: SessionConfig;
  readonly session: SessionRecord;
  readonly identity: RigIdentity;
  readonly store: RollStore;
  readonly rig: RigDriver;
  readonly camera: ThrowCamera;
  /** The simulated camera, when there is one (its last throw's truth). */
  readonly simCamera?: SimThrowCamera;
  readonly clock: Clock;
  readonly timeOrigin: number;
  readonly readThrow: (image: RgbImage) => ReturnType<typeof readFrame>;
  readonly reader: FaceReader;
  readonly evidence?: EvidenceSink;
  /** Keeps a settled frame in the `keepFrames` folder (with the simulated camera's truth), when one was given. */
  readonly keepFrame?: (image: RgbImage) => Promise<void>;
  /** The evidence folder of another session on the same rig (serve's stream session, a fresh fairness session), when evidence is kept. */
  readonly evidenceFor?: (sessionId: number) => EvidenceSink;
  readonly plan: RunnerPlan;
  /** Whether the rolls are simulated (a simulated rig or camera). */
  readonly simulated: boolean;
  /** Whether the session runs on a simulated clock (its rig time is not wall time). */
  readonly simulatedClock: boolean;
  /** Closes the camera, the rig and the store. */
  close(): Promise<void>;
}

/** The throw loop's parts from an opened session, plus the caller's own event sink, stop signal and stopwatch. */
export function runnerDeps(opened: OpenedSession, own: Pick<RunnerDeps, 'onEvent' | 'onStored' | 'diceOnDemand' | 'signal' | 'stopwatch'> = {}): RunnerDeps {
  return {
    rig: opened.rig,
    camera: opened.camera,
    readThrow: opened.readThrow,
    store: opened.store,
    clock: opened.clock,
    timeOrigin: opened.timeOrigin,
    ...own,
    ...(opened.evidence ? { evidence: opened.evidence, evidenceMode: opened.config.evidence } : {}),
    ...(opened.keepFrame ? { keepFrame: opened.keepFrame } : {}),
  };
}

/** The dice kept frames are of, as `calibrate --die` names them. */
function keptDice(family: 'pips' | 'xwing', types: readonly DieType[]): string {
  if (family === 'pips') return 'd6';
  const ids = new Set(types.map((t) => t.id));
  return ids.size === 1 ? ([...ids][0] as string) : 'xwing';
}

/** Starts the `keepFrames` folder; returns how a frame is kept in it (with the simulated camera's truth of its throw). */
async function keptFrames(dir: string, manifest: KeptThrowsManifest, reference: RgbImage, simCamera: SimThrowCamera | undefined, resumed: boolean, log: (m: string) => void): Promise<(image: RgbImage) => Promise<void>> {
  const keeper = await frameKeeper(dir, manifest, reference, resumed);
  const after = keeper.kept > 0 ? ` (after the ${keeper.kept} an earlier run of this session kept)` : '';
  log(`every frame a throw is read from is kept in ${dir}${after}, with the empty platform: calibrate --die ${manifest.dice}${manifest.face === 'bottom' ? ' --face bottom' : ''} --camera ${dir} groups their dice for you to name`);
  return (image) => keeper.keep(image, simCamera?.lastTruth?.dice.map((d) => ({ center: d.center, label: simDieClass(d) })));
}

/** Mixes a session seed with a part number and the throw a run starts after, so each part and each resumed run draws fresh numbers. */
export function partSeed(seed: number, part: number, startAfter: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(part + 1, 0xc2b2ae35) ^ Math.imul(startAfter + 1, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return (h ^ (h >>> 13)) >>> 0;
}

// Asked by the server's review and the CLI's plan from here, where it was first written.
export { readerFamily } from './readerRule.js';

function checkRigDriver(config: SessionConfig): void {
  if (!rigFactories.has(config.rig.driver)) throw new ConfigError('rig.driver', `there is no rig driver "${config.rig.driver}"; choose one of ${rigFactories.names().join(', ')}`);
}

/**
 * X-Wing dice before a real camera need a profile made on the user's own dice: the default one was made on the
 * simulated camera, and on real dice it declines nearly every die, so the session would only re-tumble.
 */
function checkCalibration(config: SessionConfig): void {
  if (config.camera.source !== 'device' || config.calibration !== undefined) return;
  if (readerFamily(configDieTypes(config)) === 'pips') return;
  throw new ConfigError(
    'calibration',
    'X-Wing dice seen by a real camera are read with a calibration profile made on your own dice: run dicerig calibrate (--camera DEVICE on the rig, or --from-labelled DIR) and give its file here; the default profile was made on the simulated camera and declines nearly every real die',
  );
}

/** Whether the session runs on a simulated clock; one asked for with a real rig or camera is refused. */
function simulatedClockFor(config: SessionConfig): boolean {
  const simRig = config.rig.driver === 'sim';
  const simCamera = config.camera.source === 'sim';
  const simulated = config.clock === 'simulated' || (config.clock === 'auto' && simRig && simCamera);
  if (simulated && !simRig) throw new ConfigError('clock', `a simulated clock needs the simulated rig; the "${config.rig.driver}" rig runs in real time`);
  if (simulated && !simCamera) throw new ConfigError('clock', 'a simulated clock needs the simulated camera; a real camera runs in real time');
  return simulated;
}

/** How a session's dice are read: the reader family, the chosen reader and profile, and the face the camera sees. */
interface SessionReading {
  readonly types: DieType[];
  readonly family: 'pips' | 'xwing';
  readonly chosen: ChosenReader;
  readonly face: FaceSeen;
  /** The chosen reader, reporting the face on top when the camera sees the bottom one. */
  readonly reader: FaceReader;
  /** D6-faced dice: the check of the reader on the user's dice that bounds its misreads (`calibration`). */
  readonly d6Check?: D6Check;
}

/** The reader a config asks for; a bad profile or a face the camera cannot see is refused here. */
async function sessionReading(config: SessionConfig): Promise<SessionReading> {
  const types = configDieTypes(config);
  const family = readerFamily(types);
  // X-Wing dice: a calibration profile reads the dice and may describe the platform; D6s are read by their pips, and a
  // D6 check (given as calibration) bounds their misreads.
  const colours = [...new Set(types.map((t) => t.id))];
  const readerDice = family === 'pips' ? 'd6' : colours.length === 2 ? 'xwing' : (colours[0] as 'red' | 'green');
  const chosen = await chooseReader(readerDice, family === 'pips' ? { d6: 'pips' } : { calibration: config.calibration });
  // From below (a clear platform), D6-faced dice are recorded by the face on top; an X-Wing profile maps its own reads.
  const face = faceSeen({ family, cameraSource: config.camera.source, configured: config.camera.face, profileFace: chosen.profile?.face, profileFile: chosen.profilePath });
  if (family === 'xwing') return { types, family, chosen, face, reader: chosen.reader };
  const { check: d6Check, reader } = await sessionD6Check(config.calibration, chosen.reader, face);
  // D6 sessions have no profile: their die size is the camera's, known before anything is opened.
  if (d6Check !== undefined && config.camera.dieSizePx !== undefined) requireD6CheckDieSize(d6Check, config.calibration as string, config.camera.dieSizePx);
  return { types, family, chosen: { ...chosen, reader }, face, reader: topFaceReader(reader, types, face), ...(d6Check ? { d6Check } : {}) };
}

/** A new session's config: one must be given (only a resumed session has one stored). */
function newSessionConfig(options: OpenSessionOptions): SessionConfig {
  if (options.config === undefined) throw new ConfigError('', 'a new session needs a session config; only a resumed session (--resume) runs with the config stored with it');
  return options.config;
}

/** Opens everything a session needs. On failure, whatever was opened is closed again. */
export async function openSession(options: OpenSessionOptions): Promise<OpenedSession> {
  const log = options.log ?? (() => undefined);
  // Check what the config alone can tell before a store is created or touched (a resumed session's config is the
  // stored one: its reading is checked once the store has given it).
  if (options.config !== undefined) {
    checkRigDriver(options.config);
    checkCalibration(options.config);
    simulatedClockFor(options.config);
  }
  const fresh = options.resume === undefined ? await sessionReading(newSessionConfig(options)) : undefined;
  const store = openStoreForWriting(options.dbPath, { create: options.resume === undefined });
  const closers: (() => Promise<void> | void)[] = [() => store.close()];
  const closeAll = async (): Promise<void> => {
    for (const c of closers.reverse().splice(0)) await c();
  };
  try {
    let config: SessionConfig;
    let stored: SessionRecord | undefined;
    // Where a config given with --resume says the hardware is now: stored once the board has answered as the session's rig.
    let movedTo: MovedAddresses | undefined;
    if (options.resume === undefined) config = newSessionConfig(options);
    else {
      stored = store.findSession(options.resume);
      // Before it is claimed: an imported session has no rig run to go on with.
      refuseImported(stored, 'resume');
      refuseStreamResume(stored);
      // Before the rig is touched: a second process must not tumble the dice under a live run, nor write its throws.
      const claim = store.claimSession(stored.id, { takeOver: options.takeOver === true });
      if (claim !== undefined) log(takeOverNotice(stored.id, claim));
      config = storedSessionConfig(store, stored);
      if (options.config !== undefined) {
        requireSameDice(stored.id, options.config, config);
        const { config: moved, moved: what } = withGivenAddresses(config, options.config);
        if (what.length > 0) {
          log(movedNotice(stored.id, what));
          movedTo = addressesOf(moved);
        }
        config = moved;
      }
      const unused = options.config === undefined ? undefined : resumedConfigNotice(stored.id, options.config, config, options.moreRolls !== undefined, options.moreHours !== undefined);
      if (unused !== undefined) log(unused);
      checkCalibration(config);
    }
    const raise = stored !== undefined && options.moreRolls !== undefined ? { from: config.stopping.budgetRolls, to: config.stopping.budgetRolls + options.moreRolls } : undefined;
    if (raise !== undefined) config = { ...config, stopping: { ...config.stopping, budgetRolls: raise.to } };
    // Its time budget counts all its runs: one finished on it is refused unless raised (`resumedHours`).
    const raiseHours = stored === undefined ? undefined : resumedHours(stored, config.stopping.budgetHours, storedRollingMs(store, stored.id), store.events(stored.id), options.moreHours);
    if (raiseHours !== undefined) config = { ...config, stopping: { ...config.stopping, budgetHours: raiseHours.to } };
    const startAfter = stored ? store.lastThrowIndex(stored.id) : 0;
    const { types, family, chosen: choice, face, reader: seenFromAbove, d6Check } = fresh ?? (await sessionReading(config));
    const { profile, profilePath: profileFile, pipelineCrop } = choice;
    // A file given, or the shipped default profile read without one: either must be the one the session started with.
    const calibrationFile = config.calibration ?? profileFile;
    if (stored !== undefined && calibrationFile !== undefined) {
      const startedWith = stored.rigId !== null ? (store.getRig(stored.rigId)?.calibrationHash ?? '') : '';
      requireSameCalibration({ sessionId: stored.id, file: calibrationFile, startedWith, now: profile?.hash ?? d6Check?.hash ?? '', shippedDefault: config.calibration === undefined });
    }
    const notice = faceNotice(family, config.camera.source, face);
    if (notice !== undefined) log(notice);
    // Real D6s read with nothing measured: the verdicts will say "misreads assumed 0"; say it before the first throw.
    if (family === 'pips' && config.camera.source === 'device' && d6Check === undefined) {
      log(`the pip reader's misreads on your dice are not measured, so the verdicts assume there are none: make a D6 check of your dice as this camera sees them (${D6_CHECK_COMMAND}) and give it as calibration`);
    }
    // Said once: a face the pip counter cannot count is read only because the check learned it.
    if (d6Check?.head !== undefined) log(`reading the dice with the pip counter and the faces D6 check "${d6Check.name}" learned on your dice (${choice.reader.classifierVersion})`);
    // One family per session (readerFamily), so every die is counted at the level its first one is.
    const level: ReadLevel = sessionLevel(types[0] as DieType);

    const simRig = config.rig.driver === 'sim';
    const simulatedClock = simulatedClockFor(config);
    const clock: Clock = simulatedClock ? new SimulatedClock(0) : systemClock;
    // A simulated clock runs ahead of the wall clock: a resumed session continues from its own stored time.
    const resumedAt = stored !== undefined && simulatedClock ? store.latestTime(stored.id) : -Infinity;
    const timeOrigin = Math.max(options.wallNow(), resumedAt) - clock.now();

    // The simulated camera's reader may misread some faces as others (camera.misreads) and decline some faces more
    // than others (camera.declines), drawn from the session's seed.
    const simCam = config.camera.source === 'sim' ? config.camera : undefined;
    const misreads = simCam?.misreads;
    const misreadRandom = seededRandom(partSeed(config.seed, 6, startAfter));
    const declineRandom = seededRandom(partSeed(config.seed, 5, startAfter));
    const simulatedReader = (inner: FaceReader): FaceReader => {
      const misreading = misreads ? misreadingReader(inner, misreads, misreadRandom) : inner;
      return simCam?.declines ? decliningReader(misreading, simCam.declines, declineRandom) : misreading;
    };
    const reader = simulatedReader(seenFromAbove);
    // What the verdicts allow for: the simulated reader's simulated calibration (the same in every run of the
    // session), the profile's held-back dice, or nothing measured.
    const misreadOf = misreadMeasure({
      level,
      ...(profile ? { profile } : {}),
      ...(d6Check ? { d6Check } : {}),
      ...(misreads ? { simulated: { misreads, ...(simCam?.misreadCalibration !== undefined ? { reads: simCam.misreadCalibration } : {}), ...(simCam?.declines ? { declines: simCam.declines } : {}), random: seededRandom(partSeed(config.seed, 7, 0)) } } : {}),
    });
    // A calibration too thin to bound a face's misreads is refused before the rig is touched; one too thin for the
    // session's margin is said.
    const narrow = misreads
      ? 'give the simulated calibration more reads (camera.misreadCalibration)'
      : d6Check
        ? `check more of your dice and make the check again (${D6_CHECK_COMMAND})`
        : `check the profile on new rolls (${narrowingCommand(config.calibration, config.camera.source === 'device' ? config.camera.device : undefined)}) and run with the profile it writes`;
    for (const t of new Map(types.map((t) => [t.id, t])).values()) {
      const notice = misreadReachNotice(t, level === 'face' ? 'faces' : 'symbols', countedCategories({ type: t, level }).expected, misreadOf(t), config.stopping.delta, narrow);
      if (notice !== undefined) log(notice);
    }

    // Before the rig is touched and anything stored: a raise that no die would roll on is refused.
    if ((raise !== undefined || raiseHours !== undefined) && stored !== undefined) {
      const known = config.dice.map((d, i) => ({ channel: i, record: store.findDie(d.label), type: types[i] as DieType, level, misreads: misreadOf(types[i] as DieType) }));
      const asked = { ...(options.moreRolls !== undefined ? { moreRolls: options.moreRolls } : {}), ...(options.moreHours !== undefined ? { moreHours: options.moreHours } : {}) };
      if (known.every((d): d is SessionDie & typeof d => d.record !== undefined)) requireUndecidedDie(store, stored.id, known, config.stopping, asked);
    }

    // The rig.
    checkRigDriver(config);
    const rigOptions: RigFactoryOptions = {
      ...(config.rig.port !== undefined ? { port: config.rig.port } : {}),
      ...(simRig ? { clock, seed: partSeed(config.seed, 1, startAfter) } : {}),
      ...(config.rig.sim?.timing ? { timing: config.rig.sim.timing } : {}),
      ...(config.rig.sim?.faults ? { faults: config.rig.sim.faults } : {}),
      ...(config.rig.firmata ? { firmata: config.rig.firmata } : {}),
      log,
    };
    const rig = await rigFactories.create(config.rig.driver, rigOptions);
    closers.push(() => rig.close());
    const identity = await rig.connect();
    log(`rig ${identity.rigId} (${identity.driver}, firmware ${identity.firmware}) connected`);
    if (stored !== undefined) requireSameRig(stored, stored.rigId !== null ? store.getRig(stored.rigId) : undefined, identity);

    // The camera, the platform's channels and the empty-platform reference.
    const cam = config.camera;
    // The simulated dice decide each throw's faces; the simulated camera draws them. They look the same
    // in every run of the session; only the throws are drawn afresh.
    const simDice =
      cam.source === 'sim'
        ? new SimulatedDice(
            config.dice.map((d, i) => ({ type: types[i] as DieType, ...(d.simulatedLoad ? { load: d.simulatedLoad } : {}) })),
            seededRandom(partSeed(config.seed, 3, startAfter)),
            cam.rigBias,
            face,
          )
        : undefined;
    const styleRandom = seededRandom(partSeed(config.seed, 4, 0));
    const opened = await cameraFactories.open(cam.source, {
      dice: config.dice.length,
      fps: cam.fps,
      ...(cam.source === 'sim'
        ? {
            seed: partSeed(config.seed, 2, startAfter),
            lighting: cam.lighting,
            cockedRate: cam.cockedRate,
            dieSizePx: cam.dieSizePx,
            dieKinds: simDice?.kinds(),
            // A logo is added after each die's look is drawn, so it changes no other die's look.
            styles: types.map((t, i) => {
              const style = randomDieStyle(simDieKind(t), styleRandom);
              const logoFace = config.dice[i]?.simulatedLogo;
              return logoFace !== undefined ? { ...style, logoFace } : style;
            }),
          }
        : {
            width: cam.width,
            height: cam.height,
            ...(cam.dieSizePx !== undefined ? { dieSizePx: cam.dieSizePx } : {}),
            ...(cam.channels ? { channels: cam.channels } : {}),
            ...(cam.reference !== undefined ? { referenceFile: cam.reference } : {}),
            ...(cam.source === 'device' ? { device: cam.device, ...(cam.exposure !== undefined ? { exposure: cam.exposure } : {}), ...(cam.gain !== undefined ? { gain: cam.gain } : {}) } : { folder: cam.folder }),
            profile: {
              ...(profile?.channels ? { channels: profile.channels } : {}),
              ...(profile?.reference && profileFile ? { referenceFile: join(dirname(resolve(profileFile)), profile.reference.file) } : {}),
              ...(profile?.dieSizePx !== undefined ? { dieSizePx: profile.dieSizePx } : {}),
            },
          }),
    });
    // The session's own simulated camera: released when the session closes (every way out, after its last frame), so the
    // next session in this process (a campaign host's next batch, a test's next command) takes its 38 MB sensor memory.
    const simulatedCamera = opened.simulated;
    if (simulatedCamera) closers.push(() => simulatedCamera.release());
    const { channels, reference, dieSizePx } = opened;
    if (opened.controls !== undefined && cam.source === 'device') log(`camera ${cam.device}: ${opened.controls}`);
    const simCamera = opened.simulated && simDice ? new SimThrowCamera({ camera: opened.simulated, dice: simDice, clock, frames: cam.source === 'sim' ? cam.frames : 'rest' }) : undefined;
    let camera: ThrowCamera;
    if (simCamera) camera = simCamera;
    else if (opened.frames) camera = streamThrowCamera(opened.frames, clock, { replay: opened.replay });
    else throw new ConfigError('camera.source', `the "${cam.source}" camera gave no frames`);
    closers.push(() => camera.close());
    if (options.cameraMustAnswer === true && cam.source === 'device') {
      const problem = await cameraProblem(camera, clock);
      if (problem !== undefined) throw new ConfigError('camera.device', `${problem.replace(/\.?\s*$/, '')}; no session was written`);
    }
    // A learned profile's reader looks at the top face: the crop is centred where perspective puts it, as at calibration.
    const pipeline = sessionPipeline(family, dieSizePx, pipelineCrop?.(reference, dieSizePx));
    // The same frame read again (a re-read of the simulated camera's rest frame) is not located nor read again.
    const readImage = sameFrameReads((image, r) => readFrame(image, reference, channels, r, pipeline), seenFromAbove, simulatedReader);
    const readThrow = (image: RgbImage): ReturnType<typeof readFrame> => {
      checkFrameSize(image, reference, camera.description);
      return readImage(image);
    };

    // The store's rows: rig, dice, session.
    const simulated = rig.isSimulated || cam.source === 'sim';
    // Before the session's row: a folder refused leaves no empty session behind.
    const keepFrame = options.keepFrames === undefined ? undefined : await keptFrames(options.keepFrames, { camera: camera.description, channels: channels.length, dicePerChannel: 1, dieSizePx, simulated, seed: config.seed, dice: keptDice(family, types), face }, reference, simCamera, stored !== undefined, log);
    const rigRow = store.registerRig(identity, profile?.hash ?? d6Check?.hash ?? '');
    const records = config.dice.map((d) =>
      store.registerDie({ label: d.label, typeId: d.type, ...(d.set !== undefined ? { set: d.set } : {}), ...(d.notes !== undefined ? { notes: d.notes } : {}) }),
    );
    const session = stored
      ? store.resumeSession(stored.id, timeOrigin + clock.now()).session
      : store.createSession({ ...(config.name !== undefined ? { name: config.name } : {}), config, simulated, rigId: rigRow.id, startedAt: timeOrigin + clock.now() });
    if (movedTo !== undefined) store.recordEvent(session.id, { at: timeOrigin + clock.now(), kind: HARDWARE_MOVED, detail: { ...movedTo } });
    if (raise !== undefined) {
      store.recordEvent(session.id, { at: timeOrigin + clock.now(), kind: BUDGET_RAISED, detail: { from: raise.from, to: raise.to } });
      log(`session ${session.id}: roll budget raised from ${raise.from} to ${raise.to} rolls a die; its undecided dice are rolled on, on the same evidence`);
    }
    if (raiseHours !== undefined) {
      store.recordEvent(session.id, { at: timeOrigin + clock.now(), kind: HOURS_RAISED, detail: { from: raiseHours.from, to: raiseHours.to } });
      log(`session ${session.id}: time budget raised from ${formatHours(raiseHours.from)} to ${formatHours(raiseHours.to)} of rolling over all its runs; its undecided dice are rolled on, on the same evidence`);
    }
    const dice: SessionDie[] = config.dice.map((_, i) => ({ channel: i, record: records[i] as SessionDie['record'], type: types[i] as DieType, level, misreads: misreadOf(types[i] as DieType) }));

    const settle: SettleRule = config.settle.mode === 'fixed' ? { mode: 'fixed', waitMs: config.settle.waitMs } : { mode: 'detect', timeoutMs: config.settle.timeoutMs };
    const plan: RunnerPlan = {
      sessionId: session.id,
      dice,
      stopping: config.stopping,
      settle,
      light: config.rig.light,
      resumed: stored !== undefined,
      simulated,
    };
    // Each session its own folder, per store: file names are unique only within a session (throw and channel).
    const evidenceFor =
      config.evidence === 'none' || options.dbPath === ':memory:' || options.dbPath === ''
        ? undefined
        : (id: number): EvidenceSink => {
            const { dir, base } = sessionEvidenceFolder(options.dbPath, id);
            return folderEvidence(dir, base);
          };
    const evidence = evidenceFor?.(session.id);
    return {
      config,
      session,
      identity,
      store,
      rig,
      camera,
      ...(simCamera ? { simCamera } : {}),
      clock,
      timeOrigin,
      readThrow,
      reader,
      ...(evidence ? { evidence } : {}),
      ...(keepFrame ? { keepFrame } : {}),
      ...(evidenceFor ? { evidenceFor } : {}),
      plan,
      simulated,
      simulatedClock,
      close: closeAll,
    };
  } catch (e) {
    await closeAll();
    if (e instanceof RigError && /no rig driver/i.test(e.message)) throw new ConfigError('rig.driver', e.message);
    throw e;
  }
}
