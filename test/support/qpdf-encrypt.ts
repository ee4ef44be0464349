// qpdf encrypts test PDFs: `qpdf --encrypt USER owner 256 --` (AES-256, owner password "owner"). With an empty
// user password the file opens without one, as in every viewer; `qpdf --check` is the oracle of that.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `bytes` encrypted by qpdf with this user password; throws if qpdf's own check disagrees on whether it opens. */
export function qpdfEncrypted(bytes: Uint8Array, userPassword: string): Uint8Array {
  const folder = mkdtempSync(join(tmpdir(), 'glimpse-qpdf-'));
  try {
    const input = join(folder, 'in.pdf');
    const output = join(folder, 'out.pdf');
    writeFileSync(input, bytes);
    execFileSync('qpdf', ['--encrypt', userPassword, 'owner', '256', '--', input, output]);
    let opens = true;
    try {
      execFileSync('qpdf', ['--check', output], { stdio: 'pipe' });
    } catch {
      opens = false;
    }
    if (opens !== (userPassword === ''))
      throw new Error(`qpdf --check: opens=${opens} with user password "${userPassword}"`);
    return new Uint8Array(readFileSync(output));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
