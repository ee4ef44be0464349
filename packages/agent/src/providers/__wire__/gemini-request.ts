// The strict request schema of Gemini generateContent — POST /v1beta/models/{model}:generateContent, the REST body
// (the model is in the URL); see request-schemas.ts.
import { z } from 'zod';
import { base64, jsonObject } from './wire-shared.js';

const inlineData = z.strictObject({
  mimeType: z.string().regex(/^(image\/(png|jpeg|webp|heic|heif)|application\/pdf|text\/plain)$/),
  data: base64,
  displayName: z.string().optional(),
});
// A File API upload, by its URI (`fileData`).
const fileData = z.strictObject({
  mimeType: z.string().regex(/^(image\/(png|jpeg|webp|heic|heif)|application\/pdf|text\/plain)$/),
  fileUri: z.string().url(),
});
const geminiPart = z
  .strictObject({
    text: z.string().optional(),
    inlineData: inlineData.optional(),
    fileData: fileData.optional(),
    functionCall: z
      .strictObject({ id: z.string().optional(), name: z.string().min(1), args: jsonObject.optional() })
      .optional(),
    functionResponse: z
      .strictObject({
        id: z.string().optional(),
        name: z.string().min(1),
        response: jsonObject,
        // Function responses take fewer media types than a turn: no HEIC/HEIF.
        parts: z
          .array(
            z.union([
              z.strictObject({
                inlineData: inlineData.extend({
                  mimeType: z.string().regex(/^(image\/(png|jpeg|webp)|application\/pdf|text\/plain)$/),
                }),
              }),
              z.strictObject({
                fileData: fileData.extend({
                  mimeType: z.string().regex(/^(image\/(png|jpeg|webp)|application\/pdf|text\/plain)$/),
                }),
              }),
            ]),
          )
          .min(1)
          .optional(),
      })
      .optional(),
    // Gemini 3's per-part media_resolution (Part.mediaResolution in the API and @google/genai), on media parts only.
    mediaResolution: z
      .strictObject({
        level: z.enum([
          'MEDIA_RESOLUTION_LOW',
          'MEDIA_RESOLUTION_MEDIUM',
          'MEDIA_RESOLUTION_HIGH',
          'MEDIA_RESOLUTION_ULTRA_HIGH',
        ]),
      })
      .optional(),
    // Proto bytes: JSON takes standard or URL-safe base64 (Google's placeholder value is the latter).
    thoughtSignature: z
      .string()
      .regex(/^[A-Za-z0-9+/_-]+={0,2}$/)
      .optional(),
  })
  .refine(
    (part) =>
      [part.text, part.inlineData, part.fileData, part.functionCall, part.functionResponse].filter(
        (value) => value !== undefined,
      ).length === 1,
    'a part holds exactly one of text, inlineData, fileData, functionCall, functionResponse',
  )
  .refine(
    (part) => part.mediaResolution === undefined || part.inlineData !== undefined || part.fileData !== undefined,
    'mediaResolution is for media parts',
  );

/** `mediaInFunctionResponse`: the model is Gemini 3 style (older models refuse `functionResponse.parts`). */
export const geminiRequest = ({
  mediaInFunctionResponse,
  gemini3,
}: {
  mediaInFunctionResponse: boolean;
  gemini3: boolean;
}) =>
  z
    .strictObject({
      systemInstruction: z
        .strictObject({ role: z.string().optional(), parts: z.array(z.strictObject({ text: z.string() })).min(1) })
        .optional(),
      tools: z
        .array(
          z.strictObject({
            functionDeclarations: z
              .array(
                z.strictObject({
                  name: z.string().min(1),
                  description: z.string().optional(),
                  parametersJsonSchema: jsonObject.optional(),
                }),
              )
              .min(1),
          }),
        )
        .min(1)
        .optional(),
      contents: z.array(z.strictObject({ role: z.enum(['user', 'model']), parts: z.array(geminiPart).min(1) })).min(1),
      generationConfig: jsonObject.optional(),
    })
    .superRefine((request, context) => {
      request.contents.forEach((content, index) => {
        const calls = content.parts.filter((part) => part.functionCall !== undefined);
        if (gemini3 && calls.length > 0 && calls[0]?.thoughtSignature === undefined)
          context.addIssue({
            code: 'custom',
            message: `contents[${index}]: Gemini 3 wants a thought signature on the first function call`,
          });
        if (calls.length === 0) return;
        // The next turn answers each call with one functionResponse, in order.
        const answers = (request.contents[index + 1]?.parts ?? [])
          .filter((part) => part.functionResponse !== undefined)
          .map((part) => part.functionResponse?.name);
        if (calls.map((part) => part.functionCall?.name).join() !== answers.join())
          context.addIssue({
            code: 'custom',
            message: `contents[${index}]: each call needs its functionResponse in the next turn`,
          });
      });
      const withMedia = request.contents.some((content) =>
        content.parts.some((part) => part.functionResponse?.parts !== undefined),
      );
      const levels = request.contents.some((content) => content.parts.some((part) => part.mediaResolution));
      if (levels && !gemini3)
        context.addIssue({ code: 'custom', message: 'per-part media_resolution is Gemini 3 only' });
      if (withMedia && !mediaInFunctionResponse)
        context.addIssue({ code: 'custom', message: 'this model refuses media inside functionResponse' });
    });
