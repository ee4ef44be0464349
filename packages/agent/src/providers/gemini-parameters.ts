import type { GenerateContentConfig, GenerateContentParameters } from '@google/genai';
import type { GeminiRequestBody } from './gemini.js';

/**
 * The `@google/genai` SDK's `generateContent` parameters for a Gemini request body. The SDK takes the system
 * instruction and tools inside `config`; at the top level, where the REST body has them, it drops them silently.
 * `config` adds generation settings (temperature, thinking, …).
 */
export function toGeminiParameters(
  body: GeminiRequestBody,
  model: string,
  config: GenerateContentConfig = {},
): GenerateContentParameters {
  const { systemInstruction, tools, contents } = body;
  return {
    model,
    contents,
    config: {
      ...config,
      ...(systemInstruction === undefined ? {} : { systemInstruction }),
      ...(tools === undefined ? {} : { tools }),
    },
  };
}
