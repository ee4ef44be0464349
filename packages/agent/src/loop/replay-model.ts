import type { InputModality, ModelClient, ModelRequest, ModelTurn } from './model-client.js';
import { ReplayScriptError, type ReplayScript } from './replay-script.js';

/**
 * The keyless model: answers each request with the script's next turn and keeps every request it got,
 * so a demo or a test can show what a real model would have been sent.
 */
export class ReplayModel implements ModelClient {
  readonly inputModalities: readonly InputModality[];
  readonly requests: ModelRequest[] = [];
  private readonly script: ReplayScript;

  constructor(script: ReplayScript) {
    this.script = script;
    this.inputModalities = script.inputModalities;
  }

  async next(request: ModelRequest): Promise<ModelTurn> {
    const turn = this.script.turns[this.requests.length];
    if (turn === undefined)
      throw new ReplayScriptError(
        `the script has ${this.script.turns.length} turns and the loop asked for turn ${this.requests.length + 1}; end the script with a turn without tool calls`,
      );
    this.requests.push(request);
    return {
      text: turn.text,
      toolCalls: turn.toolCalls.map((call) => ({ ...call, arguments: { ...call.arguments } })),
    };
  }
}
