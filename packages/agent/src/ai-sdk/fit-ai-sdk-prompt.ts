import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { fitAiSdkFile, type AiSdkText, type FitContext } from './fit-ai-sdk-file.js';
import { fitAiSdkToolOutput } from './fit-ai-sdk-tool-output.js';
import { liftAiSdkToolMedia } from './lift-ai-sdk-tool-media.js';

type UserMessage = Extract<LanguageModelV4Message, { role: 'user' }>;
type ToolMessage = Extract<LanguageModelV4Message, { role: 'tool' }>;

async function fitUserMessage(message: UserMessage, context: FitContext): Promise<UserMessage> {
  const content: UserMessage['content'] = [];
  const notes: string[] = [];
  let files = 0;
  for (const part of message.content) {
    if (part.type !== 'file') {
      content.push(part);
      continue;
    }
    files++;
    const fitted = await fitAiSdkFile(part, part.filename ?? `attachment ${files}`, context);
    content.push(...fitted.items);
    notes.push(...fitted.notes);
  }
  return { ...message, content: [...content, ...notes.map((text): AiSdkText => ({ type: 'text', text }))] };
}

async function fitToolMessage(message: ToolMessage, context: FitContext): Promise<ToolMessage> {
  const content: ToolMessage['content'] = [];
  for (const part of message.content) {
    content.push(
      part.type === 'tool-result' ? { ...part, output: await fitAiSdkToolOutput(part.output, context) } : part,
    );
  }
  return { ...message, content };
}

/**
 * The prompt with every image and PDF fitted to the route: user files and tool-result media alike, history
 * included (the cache makes a step cost only its new media). One file at a time: the codecs hold large
 * buffers. Then, on routes that need it, tool-result media are lifted into a user message.
 */
export async function fitAiSdkPrompt(
  prompt: LanguageModelV4Prompt,
  context: Omit<FitContext, 'messageIndex'>,
): Promise<LanguageModelV4Prompt> {
  const fitted: LanguageModelV4Prompt = [];
  for (const [messageIndex, message] of prompt.entries()) {
    switch (message.role) {
      case 'user':
        fitted.push(await fitUserMessage(message, { ...context, messageIndex }));
        break;
      case 'tool':
        fitted.push(await fitToolMessage(message, { ...context, messageIndex }));
        break;
      case 'system':
      case 'assistant':
        fitted.push(message);
        break;
      default: {
        const exhaustive: never = message;
        return exhaustive;
      }
    }
  }
  return context.route.liftToolMedia ? liftAiSdkToolMedia(fitted) : fitted;
}
