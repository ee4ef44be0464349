// Streaming replies as each API sends them (server-sent events), for a tool call or a text answer. Used by
// capturing fetches and by the local API servers the live-client tests talk to.

export interface StreamedTurn {
  /** Text the model writes, sent in a few chunks so clients must join deltas. */
  text?: string;
  /** Tool calls, each with its arguments (and a Gemini thought signature, where the model gives one). */
  toolCalls?: Array<{ id: string; name: string; arguments: Record<string, unknown>; signature?: string }>;
}

const sse = (events: Array<[string | undefined, unknown]>) =>
  events
    .map(
      ([event, data]) =>
        `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    )
    .join('');

/** "Hello there" → ["Hel", "lo t", "here"]: deltas a client has to join. */
function chunks(text: string, size = 4): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The usage an OpenAI Responses reply ends with, streamed (response.completed) or not. */
export const RESPONSES_USAGE = {
  input_tokens: 10,
  output_tokens: 5,
  total_tokens: 15,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};

export function anthropicStream({ text = '', toolCalls = [] }: StreamedTurn, model = 'claude-sonnet-4-6'): string {
  const usage = { input_tokens: 10, output_tokens: 5 };
  const events: Array<[string, unknown]> = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
      },
    ],
  ];
  let index = 0;
  if (text !== '') {
    events.push([
      'content_block_start',
      { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    ]);
    for (const piece of chunks(text))
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
      ]);
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  }
  for (const call of toolCalls) {
    events.push([
      'content_block_start',
      {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      },
    ]);
    for (const piece of chunks(JSON.stringify(call.arguments), 8))
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
      ]);
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  }
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: toolCalls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return sse(events);
}

export function openAIChatStream({ text = '', toolCalls = [] }: StreamedTurn, model = 'gpt-4.1'): string {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const events: Array<[undefined, unknown]> = [[undefined, chunk({ role: 'assistant', content: '' })]];
  for (const piece of chunks(text)) events.push([undefined, chunk({ content: piece })]);
  toolCalls.forEach((call, index) => {
    events.push([
      undefined,
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    ]);
    for (const piece of chunks(JSON.stringify(call.arguments), 8))
      events.push([undefined, chunk({ tool_calls: [{ index, function: { arguments: piece } }] })]);
  });
  events.push([undefined, chunk({}, toolCalls.length > 0 ? 'tool_calls' : 'stop')]);
  events.push([
    undefined,
    {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model,
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    },
  ]);
  events.push([undefined, '[DONE]']);
  return sse(events);
}

/** An SSE response. */
export const sseResponse = (body: string, status = 200): Response =>
  new Response(body, { status, headers: { 'content-type': 'text/event-stream' } });
