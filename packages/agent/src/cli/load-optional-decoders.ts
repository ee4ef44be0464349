/**
 * Registers the optional decoders that are installed: HEIC/HEIF (@glimpse/heif, LGPL, a separate package).
 * Every command's `run` calls it first, and so does each `glimpse mcp` view worker, since a worker thread shares
 * no modules (and so no registered decoders) with the thread that made it. Called by the commands rather than
 * by main: a command is a bundle of its own (scripts/build-agent.mjs), and where the media core is bundled in
 * (the tests' build) the decoder must register with the command's copy. Loaded on demand, not at start-up, so
 * `--help` and `--version` stay free of the media core.
 */
export async function loadOptionalDecoders(): Promise<void> {
  await import('@glimpse/heif').catch(() => undefined);
}
