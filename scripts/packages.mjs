// The packages glimpse publishes, in dependency order (each may depend on those before it). The tarball
// test packs and installs these; scripts/build-package.mjs builds one for `npm pack`. Adding a package:
// a line here, plus its own package.json (`exports`, `files`, the `prepack` script), tsconfig.types.json
// and README.md — docs/packages.md walks through it.
export const PUBLISHED_PACKAGES = [
  { name: 'media', npmName: '@glimpse/media' },
  { name: 'heif', npmName: '@glimpse/heif' },
  { name: 'agent', npmName: '@glimpse/agent' },
];
