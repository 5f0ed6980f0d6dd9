/**
 * Reads or changes the dicerig firmware's settings (kept in the board's EEPROM; see
 * firmware/PROTOCOL.md), e.g. for the stepper build:
 *   npx tsx scripts/hardware/rigConfig.ts --port /dev/ttyACM0 tumbler=stepper steps=400 step_rate=120
 * With no key=value it prints the settings. `--rig emulated` talks to the emulated board.
 * A Firmata rig's settings live in the session config (`rig.firmata`), not in the board: `--rig firmata` says so.
 */
import { rigFactories } from '../../src/rig/factory.js';
import { settingProblems } from '../../src/rig/protocol/configCheck.js';
import type { SerialRigDriver } from '../../src/rig/serial/serialDriver.js';

function parseArgs(argv: readonly string[]): { rig: string; port?: string; settings: Record<string, string> } {
  let rig = 'serial';
  let port: string | undefined;
  const settings: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--rig' || a === '--port') {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      if (a === '--rig') rig = v;
      else port = v;
    } else if (/^[a-z_]+=\S+$/.test(a)) {
      const [k, v] = a.split('=') as [string, string];
      settings[k] = v;
    } else throw new Error(`not a setting: "${a}" (expected key=value, --rig NAME or --port PATH)`);
  }
  return { rig, ...(port !== undefined ? { port } : {}), settings };
}

async function main(): Promise<void> {
  const { rig, port, settings } = parseArgs(process.argv.slice(2));
  if (/firmata/.test(rig)) {
    // StandardFirmata keeps no settings: the Firmata driver's live in the host, in the session config.
    const pairs = Object.entries(settings).length > 0 ? Object.entries(settings) : [['flip_us', '2350']];
    throw new Error(
      'a StandardFirmata board keeps no settings, so there is nothing to change in it: put them in the session config under rig.firmata ' +
        `(rig: { driver: firmata, firmata: { ${pairs.map(([k, v]) => `${k}: ${v}`).join(', ')} } }) and try them first with ` +
        `dicerig rig check --rig ${rig} ${pairs.map(([k, v]) => `--set ${k}=${v}`).join(' ')}`,
    );
  }
  if (rig !== 'serial' && rig !== 'emulated') throw new Error(`--rig must be serial or emulated (firmware settings live in the dicerig firmware), not "${rig}"`);
  // Checked against the firmware's own table before any board is opened (the board would say only "bad_argument").
  const problems = settingProblems(settings);
  if (problems.length > 0) throw new Error(`${problems.join('; ')}; nothing was sent to the board`);
  const driver = (await rigFactories.get(rig).create(port !== undefined ? { port } : {})) as SerialRigDriver;
  try {
    await driver.connect();
    if (Object.keys(settings).length > 0) console.log(`cfg=${await driver.configure(settings)}`);
    const cfg = await driver.readConfig();
    console.log(Object.entries(cfg).map(([k, v]) => `${k}=${v}`).join(' '));
  } finally {
    await driver.close();
  }
}

main().catch((e: unknown) => {
  console.error(`rigConfig: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
