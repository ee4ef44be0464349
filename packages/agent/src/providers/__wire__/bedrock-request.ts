// The strict request schema of Bedrock Converse — POST /model/{modelId}/converse (JSON wire format: bytes as base64) (see request-schemas.ts).
import { z } from 'zod';
import { base64, jsonObject } from './wire-shared.js';

const bedrockImage = z.strictObject({
  format: z.enum(['png', 'jpeg', 'gif', 'webp']),
  source: z.strictObject({ bytes: base64 }),
});
const bedrockDocument = z.strictObject({
  format: z.enum(['pdf', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'html', 'txt', 'md']),
  name: z
    .string()
    .max(200)
    .regex(
      /^[A-Za-z0-9\-()[\]]+( [A-Za-z0-9\-()[\]]+)*$/,
      'letters, digits, single spaces, hyphens, parentheses, square brackets',
    ),
  source: z.strictObject({ bytes: base64 }),
});
const oneOf = <T extends Record<string, unknown>>(block: T) =>
  Object.values(block).filter((value) => value !== undefined).length === 1;
const bedrockResultItem = z
  .strictObject({
    text: z.string().optional(),
    json: jsonObject.optional(),
    image: bedrockImage.optional(),
    document: bedrockDocument.optional(),
  })
  .refine(oneOf, 'one member per block');
const bedrockBlock = z
  .strictObject({
    text: z.string().min(1).optional(),
    image: bedrockImage.optional(),
    document: bedrockDocument.optional(),
    toolUse: z.strictObject({ toolUseId: z.string().min(1), name: z.string().min(1), input: jsonObject }).optional(),
    toolResult: z
      .strictObject({
        toolUseId: z.string().min(1),
        content: z.array(bedrockResultItem).min(1),
        status: z.enum(['success', 'error']).optional(),
      })
      .optional(),
  })
  .refine(oneOf, 'one member per block');

export const bedrockRequest = z
  .strictObject({
    system: z.array(z.strictObject({ text: z.string().min(1) })).optional(),
    toolConfig: z
      .strictObject({
        tools: z
          .array(
            z.strictObject({
              toolSpec: z.strictObject({
                name: z.string().min(1),
                description: z.string().optional(),
                inputSchema: z.strictObject({ json: jsonObject }),
              }),
            }),
          )
          .min(1),
      })
      .optional(),
    messages: z
      .array(z.strictObject({ role: z.enum(['user', 'assistant']), content: z.array(bedrockBlock).min(1) }))
      .min(1),
  })
  .superRefine((request, context) => {
    request.messages.forEach((message, index) => {
      if (index > 0 && request.messages[index - 1]?.role === message.role)
        context.addIssue({ code: 'custom', message: `messages[${index}]: roles must alternate` });
      const inner = message.content.flatMap((block) => [block, ...(block.toolResult?.content ?? [])]);
      const images = inner.filter((block) => block.image !== undefined).length;
      const documents = inner.filter((block) => block.document !== undefined).length;
      if (images > 20 || documents > 5)
        context.addIssue({
          code: 'custom',
          message: `messages[${index}]: ${images} images, ${documents} documents (caps 20 and 5)`,
        });
      if (documents > 0 && !message.content.some((block) => block.text !== undefined))
        context.addIssue({
          code: 'custom',
          message: `messages[${index}]: a message with a document needs a text block`,
        });
      if (message.content.some((block) => block.toolUse !== undefined) && request.toolConfig === undefined)
        context.addIssue({ code: 'custom', message: 'toolUse blocks need toolConfig' });
    });
  });
