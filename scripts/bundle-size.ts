// `npm run size`: JS and WASM bytes, raw and gzip, per media entry (scripts/size-report.ts measures).
import { sizeReport } from './size-report.js';

console.log(await sizeReport());
