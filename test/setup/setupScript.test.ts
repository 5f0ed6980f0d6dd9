/**
 * `scripts/setup.sh` run in a copy of the project whose PATH puts small stand-ins before apt-get, dpkg-query, sudo,
 * npm and make (a test cannot install Debian packages). The stand-ins write what they are asked to an event log; an
 * apt-get install of the packages npm does not need waits until npm ci has started, so only a script that runs the
 * two side by side sees them overlap. Node, bash and the coreutils are the machine's own.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const STUBS: Record<string, string> = {
  'dpkg-query': `#!/bin/bash
pkg="\${@: -1}"
for p in $INSTALLED; do [ "$p" = "$pkg" ] && { printf 'install ok installed'; exit 0; }; done
exit 1
`,
  sudo: `#!/bin/bash
[ "$1" = -n ] && shift
exec "$@"
`,
  'apt-get': `#!/bin/bash
log() { echo "$*" >> "$EVENTS"; }
[ "$1" = update ] && { log "apt update"; exit 0; }
shift 4  # install -y -qq --no-install-recommends
log "apt install start $*"
case " $* " in
  *" g++ "*) ;;
  *)
    # The packages npm does not need: wait (20 s at most, for a loaded machine) for npm ci to start.
    for _ in $(seq 200); do grep -q '^npm ci start' "$EVENTS" && { log "apt saw npm ci running"; break; }; sleep 0.1; done
    sleep 0.3 ;;
esac
if [ -n "$APT_FAILS" ]; then echo "E: Unable to locate package $APT_FAILS" >&2; exit 100; fi
log "apt install end $*"
`,
  npm: `#!/bin/bash
log() { echo "$*" >> "$EVENTS"; }
if [ "$1" = ci ]; then
  log "npm ci start"
  [ -n "$NPM_FAILS" ] && { echo "npm error code E404" >&2; exit 1; }
  sleep 0.3; mkdir -p node_modules; log "npm ci end"; exit 0
fi
log "npm $*"
`,
  make: `#!/bin/bash
echo "make $*" >> "$EVENTS"
`,
};

/** A copy of the project's set-up script and package list, the stand-ins, and an empty event log. */
function project(): { dir: string; bin: string; events: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dicerig-setup-'));
  made.push(dir);
  mkdirSync(join(dir, 'scripts'));
  for (const f of ['setup.sh', 'apt-packages.txt']) copyFileSync(join('scripts', f), join(dir, 'scripts', f));
  writeFileSync(join(dir, 'package-lock.json'), '{}\n');
  const bin = join(dir, 'stubs');
  mkdirSync(bin);
  for (const [name, body] of Object.entries(STUBS)) {
    writeFileSync(join(bin, name), body);
    chmodSync(join(bin, name), 0o755);
  }
  return { dir, bin, events: join(dir, 'events.log') };
}

function setup(env: Record<string, string>): { code: number | null; stderr: string; events: string[] } {
  const p = project();
  writeFileSync(p.events, '');
  const run = spawnSync('bash', [join(p.dir, 'scripts', 'setup.sh')], {
    env: { ...process.env, PATH: `${p.bin}:${process.env.PATH ?? ''}`, EVENTS: p.events, INSTALLED: '', APT_FAILS: '', NPM_FAILS: '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, stderr: run.stderr, events: readFileSync(p.events, 'utf8').trim().split('\n') };
}

/** The packages of scripts/apt-packages.txt, and those marked for before npm ci. */
function listed(): { all: string[]; beforeNpm: string[] } {
  const lines = readFileSync('scripts/apt-packages.txt', 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
  const rows = lines.map((l) => l.trim().split(/\s+/));
  return { all: rows.map((r) => r[0] as string), beforeNpm: rows.filter((r) => r[1] === 'before-npm').map((r) => r[0] as string) };
}

describe('scripts/setup.sh on a machine missing Debian packages', () => {
  it('installs the compilers npm builds with before npm ci, and every other listed package while npm ci runs, then builds the firmware', () => {
    const { all, beforeNpm } = listed();
    expect(beforeNpm).toEqual(['g++', 'make', 'python3']);
    const r = setup({});
    expect(r.code, r.stderr).toBe(0);
    const at = (line: string): number => r.events.indexOf(line);
    const rest = all.filter((p) => !beforeNpm.includes(p));
    expect(at(`apt install end ${beforeNpm.join(' ')}`)).toBeGreaterThanOrEqual(0);
    expect(at(`apt install end ${beforeNpm.join(' ')}`)).toBeLessThan(at('npm ci start'));
    expect(at(`apt install start ${rest.join(' ')}`)).toBeLessThan(at('npm ci end'));
    expect(r.events).toContain('apt saw npm ci running');
    // The package lists are fetched once, before the first install.
    expect(r.events.filter((e) => e === 'apt update')).toEqual(['apt update']);
    expect(at('apt update')).toBeLessThan(at(`apt install start ${beforeNpm.join(' ')}`));
    // The firmware needs the AVR compiler apt brings: it is built once apt is done.
    expect(at(`apt install end ${rest.join(' ')}`)).toBeLessThan(r.events.findIndex((e) => e.startsWith('make ')));
    expect(r.stderr).toMatch(/setup: installing Debian packages while npm installs: gcc-avr /);
  });

  it('installs nothing from apt where every listed package is installed', () => {
    const r = setup({ INSTALLED: listed().all.join(' ') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.events.filter((e) => e.startsWith('apt'))).toEqual([]);
    expect(r.events).toContain('npm ci end');
  });

  it('fails naming the packages and showing apt-get\'s own error when the install in the background fails, after npm ci and the build went on', () => {
    const r = setup({ INSTALLED: 'g++ make python3', APT_FAILS: 'chromium' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/E: Unable to locate package chromium/);
    expect(r.stderr).toMatch(/setup: installing the Debian packages failed \(apt-get exit code 100; output above\): gcc-avr .*postgresql/);
    expect(r.events).toContain('npm run --silent build');
    expect(r.events.some((e) => e.startsWith('make '))).toBe(false);
  });

  it('when npm ci fails, waits for apt to finish rather than leave it installing on its own, and fails with npm\'s error', () => {
    const r = setup({ INSTALLED: 'g++ make python3', NPM_FAILS: '1' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/npm error code E404/);
    expect(r.events.at(-1)).toMatch(/^apt install end gcc-avr /);
    expect(r.events).not.toContain('npm run --silent build');
  });

  it('leaves the set-up folder clean: no apt log left in the temporary folder it made', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'dicerig-setup-tmp-'));
    made.push(tmp);
    const r = setup({ TMPDIR: tmp, INSTALLED: 'g++ make python3' });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(tmp)).toBe(true);
    expect(spawnSync('ls', ['-A', tmp], { encoding: 'utf8' }).stdout).toBe('');
  });
});
