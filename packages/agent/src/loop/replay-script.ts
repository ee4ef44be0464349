import { GlimpseError } from '../errors.js';
import type { ToolCall } from '../types.js';
import type { InputModality } from './model-client.js';

/**
 * A replay model's script (JSON): what it reads, the user's opening prompt, and its turns in order.
 * Tool call ids are optional; missing ones become `call_<turn>_<index>`.
 */
export interface ReplayScript {
  inputModalities: InputModality[];
  prompt?: string;
  turns: { text: string; toolCalls: ToolCall[] }[];
}

/** Thrown for a script that is not valid; the message names the offending path (`turns[1].toolCalls[0].name`). */
export class ReplayScriptError extends GlimpseError<'E_REPLAY_SCRIPT'> {
  constructor(message: string) {
    super('ReplayScriptError', 'E_REPLAY_SCRIPT', message, {});
  }
}

const MODALITIES: readonly InputModality[] = ['text', 'image', 'pdf'];

export function parseReplayScript(value: unknown): ReplayScript {
  const script = record(value, 'script');
  if (!Array.isArray(script.inputModalities)) throw new ReplayScriptError('inputModalities is not an array');
  const inputModalities = script.inputModalities.map((item, i) => {
    const modality = MODALITIES.find((known) => known === item);
    if (modality === undefined)
      throw new ReplayScriptError(
        `inputModalities[${i}] is ${JSON.stringify(item)}; expected one of ${MODALITIES.join(', ')}`,
      );
    return modality;
  });
  if (script.prompt !== undefined && typeof script.prompt !== 'string')
    throw new ReplayScriptError('prompt is not a string');
  if (!Array.isArray(script.turns) || script.turns.length === 0)
    throw new ReplayScriptError('turns is not a non-empty array');
  const turns = script.turns.map((item, t) => {
    const turn = record(item, `turns[${t}]`);
    const text = turn.text ?? '';
    if (typeof text !== 'string') throw new ReplayScriptError(`turns[${t}].text is not a string`);
    const calls = turn.toolCalls ?? [];
    if (!Array.isArray(calls)) throw new ReplayScriptError(`turns[${t}].toolCalls is not an array`);
    const toolCalls = calls.map((callValue, c): ToolCall => {
      const where = `turns[${t}].toolCalls[${c}]`;
      const call = record(callValue, where);
      if (typeof call.name !== 'string' || call.name === '')
        throw new ReplayScriptError(`${where}.name is not a non-empty string`);
      const id = call.id ?? `call_${t}_${c}`;
      if (typeof id !== 'string') throw new ReplayScriptError(`${where}.id is not a string`);
      return { id, name: call.name, arguments: record(call.arguments ?? {}, `${where}.arguments`) };
    });
    return { text, toolCalls };
  });
  return { inputModalities, ...(script.prompt !== undefined && { prompt: script.prompt }), turns };
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ReplayScriptError(`${where} is not a JSON object`);
  return { ...value };
}
