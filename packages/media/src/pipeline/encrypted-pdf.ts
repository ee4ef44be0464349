// An encrypted PDF is never sent (providers refuse them), but one encrypted with an empty user password (an
// owner password and permissions only) opens in every viewer and in PDFium: its text and pages can be read
// and sent instead. The refusal says which, so a caller can take that route (the agent's view_file does,
// with `as: "text"` or `as: "images"`).
import { MediaError } from '../errors.js';
import { withPdfDocument } from '../formats/pdf/document.js';

/** Opening reads the cross-reference data, trailer and catalog, not the pages: the Workers entry's PDFium cap is plenty. */
const OPEN_MEMORY = 80 * 1024 * 1024;

/** Refuses an encrypted PDF with E_PDF_ENCRYPTED; `details.opensWithoutPassword` says whether PDFium opened it. */
export async function refuseEncryptedPdf(bytes: Uint8Array): Promise<never> {
  const opens = await opensWithoutPassword(bytes);
  if (opens) {
    throw new MediaError(
      'E_PDF_ENCRYPTED',
      'The PDF is encrypted, though it opens without a password (an empty user password, with permissions only), and providers refuse encrypted files. Its text and pages can still be read and sent: pdfText(bytes) and renderPdfPage(bytes, page) (CLI: glimpse text FILE, glimpse process FILE --page N; view_file: as: "text" or as: "images"). Or save an unencrypted copy (print to PDF) and send that.',
      { opensWithoutPassword: true, readWith: ['pdfText', 'renderPdfPage'] },
    );
  }
  throw new MediaError(
    'E_PDF_ENCRYPTED',
    'The PDF is encrypted or password-protected, and providers refuse such files. Save an unencrypted copy (print to PDF) and send that.',
    { opensWithoutPassword: false },
  );
}

/** Whether PDFium opens the file without a password; false when it does not, or cannot be started here. */
async function opensWithoutPassword(bytes: Uint8Array): Promise<boolean> {
  try {
    return await withPdfDocument(bytes, OPEN_MEMORY, () => true);
  } catch {
    return false; // a password, an unknown security handler, damage, or no PDFium in this bundle
  }
}
