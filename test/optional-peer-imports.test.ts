// The .d.ts post-step of scripts/build-package.mjs: imports of optional peers are marked, nothing else is.
import { describe, expect, it } from 'vitest';
import { markOptionalPeerImports } from '../scripts/optional-peer-imports.mjs';

const optional = new Set(['ollama', '@aws-sdk/client-bedrock-runtime', 'openai']);

describe('markOptionalPeerImports', () => {
  it('marks import and re-export lines of optional peers, subpaths included, once', () => {
    const text = [
      "import type { Message } from '@aws-sdk/client-bedrock-runtime';",
      "import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';",
      "export type { Tool } from 'ollama';",
      "import type { RouteLimits } from '@glimpse/media';",
      "import type { Serialized } from './types.js';",
      'export interface Body { messages: Message[] }',
    ].join('\n');
    const marked = markOptionalPeerImports(text, optional);
    expect(marked.split('\n').filter((line) => line.startsWith('// @ts-ignore'))).toEqual([
      '// @ts-ignore -- @aws-sdk/client-bedrock-runtime is an optional peer dependency: without it, these types are `any`',
      '// @ts-ignore -- openai is an optional peer dependency: without it, these types are `any`',
      '// @ts-ignore -- ollama is an optional peer dependency: without it, these types are `any`',
    ]);
    expect(marked.split('\n').filter((line) => !line.startsWith('// @ts-ignore'))).toEqual(text.split('\n'));
    expect(markOptionalPeerImports(marked, optional)).toBe(marked);
  });

  it('leaves a package whose name only starts like a peer alone', () => {
    const text = "import type { X } from 'ollama-ai-provider-v2';";
    expect(markOptionalPeerImports(text, optional)).toBe(text);
  });
});
