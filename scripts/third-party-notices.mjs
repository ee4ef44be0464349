// Writes packages/<name>/THIRD-PARTY-NOTICES.md: the licences of everything a package ships that glimpse did
// not write — the Debian source packages its own .wasm modules are compiled from (debian/copyright of each,
// which lists every file's licence), the npm packages bundled into its dist/ bundles or copied as .wasm, and
// files vendored in its sources (a `LICENSE-*` file beside them). test/third-party-notices.test.ts checks
// that nothing shipped is missing.
// Usage: node scripts/third-party-notices.mjs [PACKAGE ...]   (default: every published package)
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PUBLISHED_PACKAGES } from './packages.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Debian source packages behind the package's own .wasm modules: wasm/<module>/build.sh names its output and its `source_tree`s. */
export function debianSources(packageDir) {
  const sources = new Set();
  for (const module of readdirSync(join(root, 'wasm'), { withFileTypes: true }).filter((entry) =>
    entry.isDirectory(),
  )) {
    const script = join(root, 'wasm', module.name, 'build.sh');
    if (!existsSync(script)) continue;
    const text = readFileSync(script, 'utf8');
    const output = /^# output: (\S+)/m.exec(text)?.[1];
    if (output === undefined || !output.startsWith(`${packageDir}/`)) continue;
    for (const [, name] of text.matchAll(/source_tree ([a-z0-9.+-]+)/g)) sources.add(name);
  }
  return [...sources].sort();
}

/** npm packages inside the package's bundles (esbuild metafiles in dist/) or referenced as .wasm files (WASM_FILES). */
export function bundledNpmPackages(packageDir) {
  const names = new Set();
  const add = (path) => {
    const parts = path.split('node_modules/').at(-1).split('/');
    names.add(parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
  };
  const dist = join(root, packageDir, 'dist');
  for (const file of existsSync(dist) ? readdirSync(dist).filter((name) => name.endsWith('.meta.json')) : []) {
    for (const input of Object.keys(JSON.parse(readFileSync(join(dist, file), 'utf8')).inputs))
      if (input.includes('node_modules/')) add(input);
  }
  const wasmFiles = join(root, packageDir, 'src/runtime/wasm-files.ts');
  if (existsSync(wasmFiles)) {
    for (const [, specifier] of readFileSync(wasmFiles, 'utf8').matchAll(/'([^']+\.wasm)'/g))
      if (!specifier.startsWith('@glimpse/')) add(`node_modules/${specifier}`);
  }
  return [...names].sort();
}

/** Licence files vendored in the package's sources (e.g. src/formats/svg/fonts/LICENSE-DejaVu.txt). */
export function vendoredLicences(packageDir) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (/^LICEN[CS]E-/.test(entry.name)) found.push(join(dir, entry.name));
    }
  };
  walk(join(root, packageDir, 'src'));
  return found.sort();
}

function npmNotice(name) {
  const dir = join(root, 'node_modules', name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const licenceFile = readdirSync(dir).find((file) => /^(licen[cs]e|copying)(\.|$)/i.test(file));
  const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  const heading = `### ${name} ${manifest.version} — ${manifest.license ?? 'see below'}`;
  if (licenceFile !== undefined)
    return `${heading}\n\n\`\`\`text\n${readFileSync(join(dir, licenceFile), 'utf8').trim()}\n\`\`\``;
  return `${heading}\n\nThe package ships no licence file. Its licence is ${manifest.license}${repository ? `; source: ${repository.replace(/^git\+/, '')}` : ''}.`;
}

/** Where Debian keeps the full texts its copyright files name but do not include. */
const COMMON_LICENCES = '/usr/share/common-licenses';

/**
 * The licences the notices refer to only by Debian's path (`/usr/share/common-licenses/LGPL-3`), which an npm
 * user's machine does not have: their full texts go into the notices. The LGPL is a set of additional
 * permissions on the GPL, so it comes with the GPL of the same version (LGPL-3.0 section 4(b)).
 */
export function referencedLicences(text) {
  const names = new Set([...text.matchAll(/common-licenses\/([A-Za-z0-9.+-]*[A-Za-z0-9+])/g)].map(([, name]) => name));
  for (const name of [...names]) {
    const version = /^LGPL-(\d)/.exec(name)?.[1];
    if (version === '3') names.add('GPL-3');
  }
  return [...names].sort();
}

function licenceText(name) {
  const path = join(COMMON_LICENCES, name);
  if (!existsSync(path)) throw new Error(`${path} is missing: the notices need its text (Debian's base-files package)`);
  return `### ${name}\n\n\`\`\`text\n${readFileSync(path, 'utf8').trim()}\n\`\`\``;
}

function debianNotice(name) {
  const tree = execFileSync('bash', [join(root, 'scripts/debian-source.sh'), name], { encoding: 'utf8' }).trim();
  const version = readFileSync(join(root, 'wasm/sources.lock'), 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`${name} `))
    ?.split(' ')[1];
  return `### ${name} ${version} (Debian source package)\n\n\`\`\`text\n${readFileSync(join(tree, 'debian/copyright'), 'utf8').trim()}\n\`\`\``;
}

export function writeNotices(packageName) {
  const packageDir = `packages/${packageName}`;
  const debian = debianSources(packageDir);
  const npm = bundledNpmPackages(packageDir);
  const vendored = vendoredLicences(packageDir);
  const sections = [
    `# Third-party notices for @glimpse/${packageName}`,
    '',
    `Written by \`node scripts/third-party-notices.mjs ${packageName}\`. glimpse's own code is under the MIT licence (LICENSE).`,
    'The parts below are by others, under their licences.',
  ];
  if (debian.length > 0)
    sections.push(
      '',
      '## Compiled into the .wasm modules in wasm/',
      '',
      ...debian.flatMap((name) => [debianNotice(name), '']),
    );
  const licences = referencedLicences(sections.join('\n'));
  if (licences.length > 0)
    sections.push(
      '',
      `## Licence texts the notices above refer to by a Debian path (${COMMON_LICENCES}/…)`,
      '',
      ...licences.flatMap((name) => [licenceText(name), '']),
    );
  if (npm.length > 0)
    sections.push(
      '',
      '## npm packages bundled into dist/ (browser, Deno and Workers bundles, and dist/wasm/)',
      '',
      ...npm.flatMap((name) => [npmNotice(name), '']),
    );
  if (vendored.length > 0) {
    sections.push('', '## Files in the sources', '');
    for (const path of vendored)
      sections.push(
        `### ${relative(join(root, packageDir), path)}`,
        '',
        '```text',
        readFileSync(path, 'utf8').trim(),
        '```',
        '',
      );
  }
  const target = join(root, packageDir, 'THIRD-PARTY-NOTICES.md');
  writeFileSync(target, `${sections.join('\n').trim()}\n`);
  return target;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const names = process.argv.slice(2);
  for (const name of names.length > 0 ? names : PUBLISHED_PACKAGES.map((p) => p.name)) {
    if (
      debianSources(`packages/${name}`).length +
        bundledNpmPackages(`packages/${name}`).length +
        vendoredLicences(`packages/${name}`).length ===
      0
    )
      continue;
    console.log(`wrote ${relative(root, writeNotices(name))}`);
  }
}
