// `deno run --allow-read deno-check.ts` in a project that installed the packed tarballs (Deno reads its node_modules).
import { process } from '@glimpse/media';
import { createFileTools } from '@glimpse/agent';
import { MemoryFileSystem } from '@glimpse/agent/fs';
import '@glimpse/heif';

const photo = await Deno.readFile('photo-exif6.jpg');
const fitted = await process(photo, { provider: 'gemini' });
// `openai` converts the HEIC (the `gemini` preset would pass it through untouched).
const fromHeic = await process(await Deno.readFile('grid.heic'), { provider: 'openai' });
const files = createFileTools({
  fileSystem: new MemoryFileSystem({ files: { '/photo.jpg': photo } }),
  route: { provider: 'gemini', model: 'gemini-3-pro' },
});
const viewed = await files.viewFile.execute({ path: '/photo.jpg' });
console.log(
  JSON.stringify({
    mediaType: fitted.mediaType,
    width: fitted.width,
    height: fitted.height,
    viewed: viewed.parts.map((part) => part.type),
    heic: [fromHeic.mediaType, fromHeic.width, fromHeic.height],
    entry: import.meta.resolve('@glimpse/media'),
  }),
);
