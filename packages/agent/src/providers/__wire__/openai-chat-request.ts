// The strict request schema of OpenAI Chat Completions — POST /v1/chat/completions (see request-schemas.ts).
import { z } from 'zod';
import { dataUrl, jsonObject, isJsonObject } from './wire-shared.js';

const chatText = z.strictObject({ type: z.literal('text'), text: z.string() });
const chatImage = z.strictObject({
  type: z.literal('image_url'),
  image_url: z.strictObject({
    url: dataUrl(/^image\/(png|jpeg|gif|webp)$/),
    detail: z.enum(['auto', 'low', 'high', 'original']).optional(),
  }),
});
const chatFile = z.strictObject({
  type: z.literal('file'),
  // Inline as a data URL with its name, or an OpenAI Files upload by its id.
  file: z.union([
    z.strictObject({ filename: z.string().min(1), file_data: dataUrl(/^application\/pdf$/) }),
    z.strictObject({ file_id: z.string().min(1) }),
  ]),
});
const chatToolCall = z.strictObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.strictObject({
    name: z.string().min(1),
    arguments: z.string().refine((text) => isJsonObject(text), 'a JSON object as a string'),
  }),
});
const chatMessage = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('system'), content: z.union([z.string(), z.array(chatText)]) }),
  z.strictObject({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(z.union([chatText, chatImage, chatFile])).min(1)]),
  }),
  z.strictObject({
    role: z.literal('assistant'),
    content: z.union([z.string(), z.null()]).optional(),
    tool_calls: z.array(chatToolCall).min(1).optional(),
  }),
  // Tool messages are text only.
  z.strictObject({
    role: z.literal('tool'),
    tool_call_id: z.string().min(1),
    content: z.union([z.string(), z.array(chatText)]),
  }),
]);

export const openAIChatRequest = z
  .strictObject({
    model: z.string().min(1),
    messages: z.array(chatMessage).min(1),
    tools: z
      .array(
        z.strictObject({
          type: z.literal('function'),
          function: z.strictObject({
            name: z.string().min(1),
            description: z.string().optional(),
            parameters: jsonObject.optional(),
            strict: z.boolean().optional(),
          }),
        }),
      )
      .min(1)
      .optional(),
  })
  .superRefine((request, context) => {
    // Every assistant tool call is answered by a tool message before anything else.
    request.messages.forEach((message, index) => {
      if (message.role !== 'assistant' || message.tool_calls === undefined) return;
      const next = request.messages.slice(index + 1, index + 1 + message.tool_calls.length);
      const ids = next.map((item) => (item.role === 'tool' ? item.tool_call_id : undefined));
      if (message.tool_calls.some((call, i) => ids[i] !== call.id))
        context.addIssue({
          code: 'custom',
          message: `messages[${index}]: tool calls must be answered, in order, by the next tool messages`,
        });
    });
  });
