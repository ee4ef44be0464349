// The strict request schema of OpenAI Responses — POST /v1/responses (see request-schemas.ts).
import { z } from 'zod';
import { dataUrl, jsonObject, isJsonObject } from './wire-shared.js';

const inputText = z.strictObject({ type: z.literal('input_text'), text: z.string() });
const inputImage = z.strictObject({
  type: z.literal('input_image'),
  image_url: dataUrl(/^image\/(png|jpeg|gif|webp)$/),
  detail: z.enum(['auto', 'low', 'high', 'original']).optional(),
});
const inputFile = z.strictObject({
  type: z.literal('input_file'),
  filename: z.string().min(1),
  file_data: dataUrl(/^application\/pdf$/),
});
const topLevelImage = inputImage.extend({ detail: z.enum(['auto', 'low', 'high', 'original']) });

export const openAIResponsesRequest = z.strictObject({
  model: z.string().min(1),
  instructions: z.string().optional(),
  tools: z
    .array(
      z.strictObject({
        type: z.literal('function'),
        name: z.string().min(1),
        description: z.string().optional(),
        parameters: jsonObject.nullable(),
        strict: z.boolean().nullable(),
      }),
    )
    .min(1)
    .optional(),
  input: z.array(
    z.union([
      z.strictObject({
        role: z.enum(['user', 'system', 'developer']),
        content: z.union([z.string(), z.array(z.union([inputText, topLevelImage, inputFile])).min(1)]),
        type: z.literal('message').optional(),
      }),
      z.strictObject({ role: z.literal('assistant'), content: z.string(), type: z.literal('message').optional() }),
      z.strictObject({
        type: z.literal('function_call'),
        call_id: z.string().min(1),
        name: z.string().min(1),
        arguments: z.string().refine((text) => isJsonObject(text)),
      }),
      z.strictObject({
        type: z.literal('function_call_output'),
        call_id: z.string().min(1),
        output: z.union([z.string(), z.array(z.union([inputText, inputImage, inputFile])).min(1)]),
      }),
    ]),
  ),
});
