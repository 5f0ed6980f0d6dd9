import { readFileSync, readdirSync, statSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { channelRectsPx } from '../../scripts/hardware/designFigures.js';
import { loadPresets } from '../../scripts/hardware/rigDesign.js';
import { checkSessionConfig } from '../../src/session/config.js';
import { runCli } from '../cli/runCli.js';

const GUIDES = ['assembly.md', 'camera-and-lighting.md', 'first-run.md', 'design-figures.md', 'design-checks.md'];
const read = (path: string): string => readFileSync(path, 'utf8');

describe('the hardware guides', () => {
  it('are linked from the README and from hardware/README.md', () => {
    for (const guide of GUIDES) {
      expect(read('README.md')).toContain(`(hardware/${guide})`);
      expect(read('hardware/README.md')).toContain(`(${guide})`);
    }
  });

  it('show every part\'s preview and the wiring diagram in hardware/README.md', () => {
    const parts = readdirSync('hardware/parts').filter((f) => f.endsWith('.scad') && !['params.scad', 'presets.scad'].includes(f));
    for (const f of parts) {
      const png = f.replace('.scad', '.png');
      expect(read('hardware/README.md')).toContain(`(previews/${png})`);
      // A committed picture, so a fresh clone shows it (build.sh draws it again into build/).
      expect(statSync(`hardware/previews/${png}`).size, png).toBeGreaterThan(1000);
    }
    expect(read('hardware/README.md')).toContain('![wiring diagram](wiring.svg)');
  });

  it('use only commands and flags the CLI has', async () => {
    const text = GUIDES.map((g) => read(`hardware/${g}`)).join('\n');
    const lines = [...text.matchAll(/node bin\/dicerig\.js ([^\n`]+)/g)].map((m) => (m[1] as string).split('#')[0]?.trim() ?? '');
    expect(lines.length).toBeGreaterThanOrEqual(6);
    const checked = new Set<string>();
    for (const line of lines) {
      const words = line.split(/\s+/);
      const command = words.slice(0, words.findIndex((w) => w.startsWith('-') || /[./]/.test(w)) >>> 0).filter((w) => /^[a-z]+$/.test(w));
      const key = command.join(' ');
      const { out, code } = await runCli(...command, '--help');
      expect({ key, code }).toEqual({ key, code: 0 });
      for (const flag of words.filter((w) => w.startsWith('--'))) expect({ key, flag, known: out.includes(flag) }).toEqual({ key, flag, known: true });
      checked.add(key);
    }
    expect([...checked]).toEqual(expect.arrayContaining(['rig list', 'rig check', 'calibrate', 'plan', 'run', 'report']));
  });

  it('give a first-run session config that dicerig accepts, with the channels the design computes', () => {
    const guide = read('hardware/first-run.md');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(guide)?.[1];
    if (yaml === undefined) throw new Error('no yaml block in first-run.md');
    const config = checkSessionConfig(parse(yaml));
    expect(config.dice).toHaveLength(4);
    const d6 = loadPresets()['d6-16mm'];
    if (!d6) throw new Error('missing preset');
    // The camera sits under the clear platform: the session records the face on top, not the one it sees.
    expect(config.camera).toMatchObject({ source: 'device', face: 'bottom', dieSizePx: 72, channels: channelRectsPx(d6) });
    // So does the tower's D6 example session.
    const example = checkSessionConfig(parse(read('examples/sessions/rig-d6.yaml')));
    expect(example.camera).toMatchObject({ source: 'device', face: 'bottom', dieSizePx: 72, channels: channelRectsPx(d6) });
  });
});
