// The strict request schema of OpenAI Responses — POST /v1/responses (see request-schemas.ts).
import { z } from 'zod';
import { dataUrl, jsonObject, isJsonObject } from './wire-shared.js';

const inputText = z.strictObject({ type: z.literal('input_text'), text: z.string() });
// Each medium inline (a data URL) or an OpenAI Files upload by its `file_id`, never both.
const detail = z.enum(['auto', 'low', 'high', 'original']);
const inlineImage = z.strictObject({
  type: z.literal('input_image'),
  image_url: dataUrl(/^image\/(png|jpeg|gif|webp)$/),
  detail: detail.optional(),
});
const referencedImage = z.strictObject({
  type: z.literal('input_image'),
  file_id: z.string().min(1),
  detail: detail.optional(),
});
const inputImage = z.union([inlineImage, referencedImage]);
const inputFile = z.union([
  z.strictObject({
    type: z.literal('input_file'),
    filename: z.string().min(1),
    file_data: dataUrl(/^application\/pdf$/),
  }),
  z.strictObject({ type: z.literal('input_file'), file_id: z.string().min(1) }),
]);
const topLevelImage = z.union([inlineImage.extend({ detail }), referencedImage.extend({ detail })]);

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
