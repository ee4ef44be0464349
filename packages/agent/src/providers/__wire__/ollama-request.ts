// The strict request schema of Ollama — POST /api/chat (see request-schemas.ts).
import { z } from 'zod';
import { base64, jsonObject, jsonSchemaObject } from './wire-shared.js';

export const ollamaRequest = z.strictObject({
  model: z.string().min(1),
  stream: z.boolean().optional(),
  messages: z.array(
    z.strictObject({
      role: z.enum(['system', 'user', 'assistant', 'tool']),
      content: z.string(),
      images: z.array(base64).min(1).optional(),
      tool_calls: z
        .array(z.strictObject({ function: z.strictObject({ name: z.string().min(1), arguments: jsonObject }) }))
        .min(1)
        .optional(),
      tool_name: z.string().min(1).optional(),
    }),
  ),
  tools: z
    .array(
      z.strictObject({
        type: z.literal('function'),
        function: z.strictObject({
          name: z.string().min(1),
          description: z.string().optional(),
          parameters: jsonSchemaObject,
        }),
      }),
    )
    .min(1)
    .optional(),
});
