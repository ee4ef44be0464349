// The strict request schema of Anthropic Messages — POST /v1/messages (see request-schemas.ts).
import { z } from 'zod';
import { base64, jsonObject, jsonSchemaObject, IMAGE_TYPES } from './wire-shared.js';

const anthropicText = z.strictObject({ type: z.literal('text'), text: z.string().min(1) });
// A Files API upload, named by its id (the Files API beta): `{type: 'file', file_id}`.
const fileSource = z.strictObject({ type: z.literal('file'), file_id: z.string().min(1) });
const anthropicImage = z.strictObject({
  type: z.literal('image'),
  source: z.union([z.strictObject({ type: z.literal('base64'), media_type: IMAGE_TYPES, data: base64 }), fileSource]),
});
const anthropicDocument = z.strictObject({
  type: z.literal('document'),
  source: z.union([
    z.strictObject({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: base64 }),
    fileSource,
  ]),
  title: z.string().optional(),
  context: z.string().optional(),
});
const anthropicToolResult = z
  .strictObject({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1),
    content: z.union([z.string(), z.array(z.union([anthropicText, anthropicImage, anthropicDocument]))]).optional(),
    is_error: z.boolean().optional(),
  })
  .refine(
    (block) =>
      block.is_error !== true ||
      typeof block.content === 'string' ||
      (block.content ?? []).every((item) => item.type === 'text'),
    'an is_error result carries text only',
  );
const anthropicToolUse = z.strictObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: jsonObject,
});
const anthropicUser = z.strictObject({
  role: z.literal('user'),
  content: z.union([
    z.string().min(1),
    z.array(z.union([anthropicText, anthropicImage, anthropicDocument, anthropicToolResult])).min(1),
  ]),
});
const anthropicAssistant = z.strictObject({
  role: z.literal('assistant'),
  content: z.union([z.string().min(1), z.array(z.union([anthropicText, anthropicToolUse])).min(1)]),
});

export const anthropicRequest = z
  .strictObject({
    model: z.string().min(1),
    max_tokens: z.number().int().positive(),
    system: z.union([z.string(), z.array(anthropicText)]).optional(),
    tools: z
      .array(
        z.strictObject({
          name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/),
          description: z.string().optional(),
          input_schema: jsonSchemaObject,
        }),
      )
      .min(1)
      .optional(),
    messages: z.array(z.union([anthropicUser, anthropicAssistant])).min(1),
  })
  .superRefine((request, context) => {
    const blocks = (content: string | readonly { type: string }[]) => (typeof content === 'string' ? [] : content);
    const uses = request.messages.flatMap((message) =>
      blocks(message.content).filter((block) => block.type === 'tool_use'),
    );
    if (uses.length > 0 && request.tools === undefined)
      context.addIssue({ code: 'custom', message: 'tool_use blocks need tool definitions' });
    request.messages.forEach((message, index) => {
      const kinds = blocks(message.content).map((block) => block.type);
      // In a user turn every tool_result comes first.
      const firstOther = kinds.findIndex((kind) => kind !== 'tool_result');
      if (firstOther !== -1 && kinds.slice(firstOther).includes('tool_result')) {
        context.addIssue({ code: 'custom', message: `messages[${index}]: tool_result blocks must come first` });
      }
    });
    const images = request.messages
      .flatMap((message) => blocks(message.content))
      .filter((block) => block.type === 'image').length;
    if (images > 100) context.addIssue({ code: 'custom', message: `${images} images: at most 100 per request` });
  });
