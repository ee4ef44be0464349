// Everything a package ships that glimpse did not write is named, with its licence, in the package's
// THIRD-PARTY-NOTICES.md (written by scripts/third-party-notices.mjs): the Debian sources of its .wasm
// modules, the npm packages in its bundles (needs dist/: npm run build), its vendored files.
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_PACKAGES } from '../scripts/packages.mjs';
import {
  bundledNpmPackages,
  debianSources,
  referencedLicences,
  vendoredLicences,
} from '../scripts/third-party-notices.mjs';

describe.each(PUBLISHED_PACKAGES.map((p) => [p.npmName, `packages/${p.name}`] as const))(
  '%s third-party notices',
  (_name, dir) => {
    const shipped = [
      ...debianSources(dir).map((name) => `### ${name} `),
      ...bundledNpmPackages(dir).map((name) => `### ${name} `),
      ...vendoredLicences(dir).map((path) => basename(path)),
    ];

    it('name every component it ships', () => {
      if (shipped.length === 0) return expect(existsSync(`${dir}/THIRD-PARTY-NOTICES.md`)).toBe(false);
      const notices = readFileSync(`${dir}/THIRD-PARTY-NOTICES.md`, 'utf8');
      const missing = shipped.filter((heading) => !notices.includes(heading));
      expect(missing, 'run node scripts/third-party-notices.mjs').toEqual([]);
      const manifest = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
      expect(manifest.files).toContain('THIRD-PARTY-NOTICES.md');
    });

    it('carry the full text of every licence it names only by a Debian path (LGPL-3 with GPL-3)', () => {
      if (shipped.length === 0) return;
      const notices = readFileSync(`${dir}/THIRD-PARTY-NOTICES.md`, 'utf8');
      const texts = notices.split(/^## Licence texts .*$/m)[1] ?? '';
      for (const name of referencedLicences(notices)) {
        const text = texts.split(`### ${name}\n`)[1]?.split(/^### /m)[0] ?? '';
        expect(text.length, `the text of ${name}`).toBeGreaterThan(5000);
      }
    });
  },
);
