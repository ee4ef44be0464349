// A Cloudflare Worker bundled from the packed tarballs: POST an image (HEIC too), get it back fitted for Claude.
import { isMediaError, process } from '@glimpse/media';
import { toolResultFrom } from '@glimpse/agent';
import '@glimpse/heif'; // HEIC photos too

export default {
  async fetch(request) {
    try {
      const bytes = new Uint8Array(await request.arrayBuffer());
      const fitted = await process(bytes, { provider: 'anthropic' });
      const result = await toolResultFrom({
        toolCallId: 'c1',
        toolName: 'upload',
        output: { attachments: [{ bytes }] },
        provider: 'anthropic',
      });
      const headers = {
        'content-type': fitted.mediaType,
        'x-size': `${fitted.width}x${fitted.height}`,
        'x-parts': result.parts.map((part) => part.type).join(','),
      };
      return new Response(fitted.data, { headers });
    } catch (error) {
      if (isMediaError(error)) return Response.json({ error: error.code, message: error.message }, { status: 422 });
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
