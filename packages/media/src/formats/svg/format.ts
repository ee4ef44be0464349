// SVG: rendered to PNG by resvg; no route takes it as it is.
import { presetsTaking } from '../../presets/takers.js';
import type { SvgFormat } from '../format.js';
import { probeSvg } from './probe.js';
import { findSvgRoot } from './text.js';

export const svg: SvgFormat = {
  kind: 'svg',
  mediaType: 'image/svg+xml',
  label: 'SVG',
  extensions: ['svg'],
  // After an optional BOM, whitespace, XML declaration, comments and a doctype, the root element is <svg.
  matches: (bytes) => findSvgRoot(bytes) !== undefined,
  probe: (bytes) => ({ info: probeSvg(bytes) }),
  takenAsIsBy: presetsTaking('image/svg+xml'),
  docs: { decoder: 'resvg (@resvg/resvg-wasm)', licence: 'MPL-2.0', output: 'PNG', notes: 'rasterized' },
};
