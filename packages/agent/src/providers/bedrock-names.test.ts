import { describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_NAME, sanitizeDocumentName } from './bedrock-names.js';

const name = (filename: string | undefined) => sanitizeDocumentName(filename, new Set());

describe('sanitizeDocumentName', () => {
  it('keeps only letters, digits, single spaces, hyphens, parentheses and square brackets', () => {
    expect(name('Q3 report.v2.pdf')).toBe('Q3 report-v2');
    expect(name('/tmp/a_b  c/[draft] (final)   notes.PDF')).toBe('[draft] (final) notes');
    expect(name('résumé—2024.pdf')).toBe('resume-2024');
    expect(name('...pdf')).toBe('document');
    expect(name(undefined)).toBe('document');
    for (const result of [name('a.b.c.d.pdf'), name('x\ty\nz.pdf'), name('emoji 😀 file.pdf')]) {
      expect(result).toMatch(/^[A-Za-z0-9\-()[\]]+( [A-Za-z0-9\-()[\]]+)*$/);
    }
  });

  it('cuts to 200 characters and keeps names unique within a request', () => {
    const taken = new Set<string>();
    const long = `${'x'.repeat(300)}.pdf`;
    const first = sanitizeDocumentName(long, taken);
    const second = sanitizeDocumentName(long, taken);
    expect(first).toHaveLength(MAX_DOCUMENT_NAME);
    expect(second).toHaveLength(MAX_DOCUMENT_NAME);
    expect(second.endsWith(' (2)')).toBe(true);
  });
});
