// PDF: checked as strict readers read it (qpdf) and sent as it is where a route takes PDFs; pdf-lib (loaded
// on first use) parses it, PDFium draws its pages and reads its text.
import { presetsTaking } from '../../presets/takers.js';
import type { PdfFormat } from '../format.js';
import { checkPdfIntegrity, verifyPdfIntegrity } from './integrity.js';
import { findPdfHeader, probePdf } from './probe.js';

export const pdf: PdfFormat = {
  kind: 'pdf',
  mediaType: 'application/pdf',
  label: 'PDF',
  extensions: ['pdf'],
  // Readers tolerate junk before `%PDF-`, within the first 1024 bytes.
  matches: (bytes) => findPdfHeader(bytes) >= 0,
  probe: async (bytes) => ({ info: await probePdf(bytes) }),
  takenAsIsBy: presetsTaking('application/pdf'),
  integrity: { check: checkPdfIntegrity, verify: verifyPdfIntegrity },
  docs: {
    decoder: 'pdf-lib (checks, page count, page selection, re-save), PDFium (a page to an image, text)',
    licence: 'MIT; PDFium BSD-3-Clause, Apache-2.0',
    output: 'sent as it is (checked); pages as PNG or JPEG with `renderPdfPage`',
  },
};
