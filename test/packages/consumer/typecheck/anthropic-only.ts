// A strict Anthropic-only app: @anthropic-ai/sdk is the one provider SDK installed, and skipLibCheck is off. The
// other optional peers' imports in the shipped .d.ts are marked (scripts/optional-peer-imports.mjs), so their
// absence is no error, and the Anthropic body is still the SDK's own type.
import Anthropic from '@anthropic-ai/sdk';
import { serialize, type Message } from '@glimpse/agent';

const messages: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'What is on the whiteboard?' }] }];
const { body, warnings } = serialize('anthropic', {
  system: 'You read whiteboards.',
  messages,
  model: 'claude-sonnet-5-5',
});
const anthropic = new Anthropic({ apiKey: 'key' });
export const send = () => anthropic.messages.create({ model: 'claude-sonnet-5-5', max_tokens: 1024, ...body });
export const first: Anthropic.MessageParam | undefined = body.messages[0];
// @ts-expect-error the body is typed (Anthropic's MessageParam[]), not `any`
export const notAString: string = body.messages;
export const warningCount = warnings.length;
