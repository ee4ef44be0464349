// scripts/install-test-tools.sh, npm's pretest, on a fake machine: a PATH holding only fake dpkg-query, id,
// sudo and apt-get (plus bash, sh, env and node), so no test reads or changes the real system's packages.
// The fakes keep their state in files: `installed` (one package a line) and `log` (each apt-get and sudo call).
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testTools } from '../../scripts/docs/setup.js';

const root = resolve(import.meta.dirname, '../..');
const SCRIPT = join(root, 'scripts/install-test-tools.sh');
const BASH = '/bin/bash';

const PACKAGES = testTools().map((tool) => tool.package);

const FAKES = {
  'dpkg-query': `
    # dpkg-query -W -f='\${db:Status-Status}' PACKAGE: "installed" when PACKAGE is in the state file
    package="\${@: -1}"
    while IFS= read -r line; do [[ "$line" == "$package" ]] && { printf installed; exit 0; }; done < "$FAKE/installed"
    echo "dpkg-query: no packages found matching $package" >&2
    exit 1`,
  id: `[[ "$1" == -u ]] && echo "$FAKE_UID"`,
  sudo: `
    echo "sudo $*" >> "$FAKE/log"
    [[ "$FAKE_SUDO" == nopasswd && "$1" == -n ]] || { echo "sudo: a password is required" >&2; exit 1; }
    shift
    "$@"`,
  'apt-get': `
    echo "apt-get $* (uid $FAKE_UID, DEBIAN_FRONTEND=$DEBIAN_FRONTEND)" >> "$FAKE/log"
    [[ -z "$FAKE_APT_FAILS" ]] || { echo "E: Unable to locate package $FAKE_APT_FAILS" >&2; exit 100; }
    install=0
    for arg in "$@"; do
      if [[ "$arg" == install ]]; then install=1
      elif ((install)) && [[ "$arg" != -* ]]; then echo "$arg" >> "$FAKE/installed"; fi
    done`,
};

interface Machine {
  installed?: string[];
  uid?: number;
  sudo?: 'nopasswd' | 'password' | 'absent';
  aptFails?: boolean;
  dpkg?: boolean;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glimpse-test-tools-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A folder of fakes for `machine`, and the environment that puts them alone on PATH. */
async function fakeMachine(machine: Machine): Promise<NodeJS.ProcessEnv> {
  const bin = join(dir, 'bin');
  await mkdir(bin);
  const skip = new Set([
    ...(machine.sudo === 'absent' ? ['sudo'] : []),
    ...(machine.dpkg === false ? ['dpkg-query'] : []),
  ]);
  for (const [name, body] of Object.entries(FAKES)) {
    if (skip.has(name)) continue;
    await writeFile(join(bin, name), `#!${BASH}\n${body}\n`);
    await chmod(join(bin, name), 0o755);
  }
  for (const [name, target] of [
    ['bash', BASH],
    ['sh', '/bin/sh'], // npm runs scripts with sh
    ['env', '/usr/bin/env'],
    ['node', process.execPath],
  ] as const)
    await symlink(await realpath(target), join(bin, name));
  await writeFile(join(dir, 'installed'), (machine.installed ?? []).map((p) => `${p}\n`).join(''));
  await writeFile(join(dir, 'log'), '');
  return {
    PATH: bin,
    HOME: dir,
    FAKE: dir,
    FAKE_UID: String(machine.uid ?? 1000),
    FAKE_SUDO: machine.sudo ?? 'absent',
    FAKE_APT_FAILS: machine.aptFails ? 'libtiff-tools' : '',
  };
}

function run(env: NodeJS.ProcessEnv, args: string[] = []) {
  const result = spawnSync(BASH, [SCRIPT, ...args], { env, encoding: 'utf8', cwd: root });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}
const state = async (file: 'installed' | 'log') => (await readFile(join(dir, file), 'utf8')).trimEnd();
const allBut = (...missing: string[]) => PACKAGES.filter((p) => !missing.includes(p));

describe('scripts/install-test-tools.sh', () => {
  it('lists every Debian package the tests name, the strict oracle included', async () => {
    expect(PACKAGES).toContain('libtiff-tools'); // the one the README's hand-written list had left out
    const oracle = await readFile(join(root, 'test/support/strict-oracle.ts'), 'utf8');
    const named = [...oracle.matchAll(/package: '([^']+)'/g)].map((match) => match[1]);
    expect(named.length).toBeGreaterThan(5);
    for (const name of named) expect(PACKAGES).toContain(name);
  });

  it('does nothing when every package is installed', async () => {
    const env = await fakeMachine({ installed: PACKAGES, uid: 0 });
    expect(run(env)).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(run(env, ['--check'])).toEqual({ status: 0, stdout: '', stderr: '' });
    expect(await state('log')).toBe('');
  });

  it('as root, installs exactly the missing packages with apt-get, non-interactively', async () => {
    const env = await fakeMachine({ installed: allBut('libtiff-tools', 'fonts-droid-fallback'), uid: 0 });
    const result = run(env);
    expect(result.status, result.stderr).toBe(0);
    const calls = (await state('log')).split('\n');
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatch(/^apt-get .*\bupdate \(uid 0, DEBIAN_FRONTEND=noninteractive\)$/);
    expect(calls[1]).toMatch(
      /^apt-get .*\binstall -y --no-install-recommends libtiff-tools fonts-droid-fallback \(uid 0, DEBIAN_FRONTEND=noninteractive\)$/,
    );
    expect(result.stderr).toContain('installing libtiff-tools fonts-droid-fallback');
    expect(run(env)).toEqual({ status: 0, stdout: '', stderr: '' }); // and the next run finds them
  });

  it('as a user whose sudo asks no password, installs through sudo -n', async () => {
    const env = await fakeMachine({ installed: allBut('qpdf'), uid: 1000, sudo: 'nopasswd' });
    const result = run(env);
    expect(result.status, result.stderr).toBe(0);
    const log = await state('log');
    expect(log).toMatch(/^sudo -n env DEBIAN_FRONTEND=noninteractive apt-get .*\binstall -y .*\bqpdf$/m);
    expect(log).toMatch(/^apt-get .*\binstall -y --no-install-recommends qpdf \(uid 1000/m);
    expect(await state('installed')).toMatch(/\nqpdf$/);
  });

  it('where sudo wants a password, installs nothing and prints the one command to run', async () => {
    const env = await fakeMachine({ installed: allBut('webp', 'qpdf'), sudo: 'password' });
    const result = run(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('missing: webp qpdf');
    expect(result.stderr).toContain('sudo wants a password');
    expect(result.stderr).toContain(`run this once, then npm test again:\n  sudo bash ${SCRIPT}\n`);
    expect(await state('log')).not.toContain('apt-get');
  });

  it('without root or sudo, prints the command for root', async () => {
    const env = await fakeMachine({ installed: allBut('pngcheck'), sudo: 'absent' });
    const result = run(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('there is no sudo');
    expect(result.stderr).toContain(`  su -c 'bash ${SCRIPT}'\n`);
    expect(await state('log')).toBe('');
  });

  it('fails, naming the command, when apt-get fails', async () => {
    const env = await fakeMachine({ installed: allBut('libtiff-tools'), uid: 0, aptFails: true });
    const result = run(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('E: Unable to locate package libtiff-tools');
    expect(result.stderr).toContain('apt-get update failed');
    expect(result.stderr).toContain(`  bash ${SCRIPT}\n`);
  });

  it('with --check, only reports, even as root', async () => {
    const env = await fakeMachine({ installed: allBut('imagemagick'), uid: 0 });
    const result = run(env, ['--check']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('missing: imagemagick');
    expect(await state('log')).toBe('');
  });

  it('says what it needs on a machine without dpkg', async () => {
    const env = await fakeMachine({ dpkg: false, uid: 0 });
    const result = run(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(PACKAGES.join(' '));
    expect(result.stderr).toContain('no dpkg-query');
    expect(await state('log')).toBe('');
  });

  it("is npm's pretest: `npm test` installs what is missing before it starts", async () => {
    const env = await fakeMachine({ installed: allBut('libavif-bin'), uid: 0 });
    const npm = process.env.npm_execpath ?? (await realpath('/usr/bin/npm'));
    const result = spawnSync(process.execPath, [npm, 'run', 'pretest', '--silent'], {
      env: { ...env, npm_config_update_notifier: 'false' },
      encoding: 'utf8',
      cwd: root,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(await state('log')).toMatch(/^apt-get .*\binstall -y --no-install-recommends libavif-bin /m);
  });
});
