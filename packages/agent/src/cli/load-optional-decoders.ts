/**
 * Registers the optional decoders that are installed: HEIC/HEIF (@glimpse/heif, LGPL, a separate package).
 * Every thread that runs the media pipeline calls it — the CLI's main thread and each `glimpse mcp` view
 * worker, since a worker thread shares no modules (and so no registered decoders) with the thread that made it.
 * Loaded on demand, not at start-up, so `--help` and `--version` stay free of the media core.
 */
export async function loadOptionalDecoders(): Promise<void> {
  await import('@glimpse/heif').catch(() => undefined);
}
