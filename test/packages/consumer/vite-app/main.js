// A Vite app built from the packed tarballs: fits the sample photo and views it through the file tools, in the page.
import { process } from '@glimpse/media';
import { createFileTools, serialize, toolResultFrom } from '@glimpse/agent';
import { MemoryFileSystem } from '@glimpse/agent/fs';
import '@glimpse/heif';

async function run() {
  const photo = new Uint8Array(await (await fetch('./photo-exif6.jpg')).arrayBuffer());
  const fitted = await process(photo, { provider: 'anthropic' });
  const heic = new Uint8Array(await (await fetch('./grid.heic')).arrayBuffer());
  const fromHeic = await process(heic, { provider: 'anthropic' });
  const files = createFileTools({
    fileSystem: new MemoryFileSystem({ files: { '/upload/photo.jpg': photo } }),
    route: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
  });
  const viewed = await files.viewFile.execute({ path: '/upload/photo.jpg' });
  const result = await toolResultFrom({
    toolCallId: 'c1',
    toolName: 'view',
    output: { attachments: [{ bytes: photo }] },
    provider: 'openai-chat',
    model: 'gpt-5',
  });
  const { body } = serialize('openai-chat', {
    messages: [{ role: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'view', arguments: {} }] }, result],
    model: 'gpt-5',
  });
  return {
    mediaType: fitted.mediaType,
    width: fitted.width,
    height: fitted.height,
    viewed: viewed.parts.map((part) => part.type),
    messages: body.messages.length,
    heic: [fromHeic.mediaType, fromHeic.width, fromHeic.height],
  };
}

run().then(
  (result) => (window.glimpseResult = result),
  (error) => (window.glimpseResult = { error: String(error?.stack ?? error) }),
);
