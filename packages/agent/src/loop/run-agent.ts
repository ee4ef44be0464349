import type { ModelCapabilities, ProviderName } from '../route/capabilities.js';
import { resolveRoute, type ModelRoute } from '../route/resolve-route.js';
import { chooseWindow } from '../compaction/choose-window.js';
import { estimateMessageTokens } from '../compaction/estimate-tokens.js';
import type { AgentTool, AssistantMessage, Message, Part, ToolCall, ToolResultMessage } from '../types.js';
import { createFitCache, fitConversation } from '../fit-conversation.js';
import { serialize } from '../providers/serialize.js';
import type { SessionAppender } from '../session/session-store.js';
import { toolResultFrom } from '../results/tool-result-from.js';
import { requestBytes } from '../request-bytes.js';
import { createMemoryMediaReferences, type MediaReferences } from '../references/media-references.js';
import { resolveFileReferences } from '../references/resolve-file-references.js';
import { sessionLogReferences } from '../references/session-log-references.js';
import { staleFileReference } from '../references/stale-file-reference.js';
import { classifyMediaRefusal } from './classify-media-refusal.js';
import { LoggedRefusals, refitLines, refusalLine } from './logged-refusals.js';
import type { ModelClient, ModelRequest, ModelTurn } from './model-client.js';
import { repairMediaRefusal, sentMedia, type MediaBudgetState, type MediaRepair } from './repair-media-refusal.js';

export interface RunAgentInput {
  model: ModelClient;
  /** The wire API each request is serialized for. */
  provider: ProviderName;
  /** The model id on that route (capabilities, Gemini's tool-result shape); the client's modalities win over it. */
  modelId?: string;
  /**
   * Overrides of the route's capabilities, e.g. `{ maxMediaResolution: 'ultra_high' }` on Gemini 3; the client's
   * modalities (`imageInput`, `pdfInput`) still win.
   */
  capabilities?: Partial<ModelCapabilities>;
  tools: readonly AgentTool[];
  /** The system prompt of every request. */
  system?: string;
  /** Earlier conversation, e.g. a resumed session's messages. Not appended again. */
  history?: readonly Message[];
  /** The new user turn that starts this run. */
  prompt: string | Part[];
  /**
   * Every new message is appended here as it happens, and each medium the loop leaves out after a refusal as a
   * `media` line (a 413's tightened bytes per request as `refit` lines); the refusals and the tightest budget of a
   * resumed session (`session.resumed`) for this provider apply from the first request.
   */
  session?: SessionAppender;
  /**
   * Token budget of each request. Over it, `chooseWindow` placeholders older media and then drops the
   * oldest turns from what the model is sent; the session keeps everything. Default: no limit.
   */
  contextBudget?: number;
  /** Most model turns before the run stops. Default 20. */
  maxSteps?: number;
  /** Called after each model turn with the request it answered and the results of its calls. */
  onStep?: (step: AgentStep) => void;
  /**
   * Stored base64 of media a provider refused in an earlier run (from `AgentRun.repairs`, kept by the app): they
   * are sent as placeholders from the first request on. A `session` needs none: its log holds them.
   */
  refusedMedia?: Iterable<string>;
  /** Called when the provider refused a request for its media and the loop repaired it before sending once more. */
  onRepair?: (repair: MediaRepair) => void;
  /**
   * Where provider file references are remembered, by content hash (when the client uploads: `model.uploadMedia`, a
   * live client with `fileReferences: true`). Default: the `session`'s log (its `media` lines: read from the session
   * it resumes, one appended per upload), else in memory for this run.
   */
  references?: MediaReferences;
  signal?: AbortSignal;
}

export interface AgentStep {
  request: ModelRequest;
  assistant: AssistantMessage;
  results: ToolResultMessage[];
}

export interface AgentRun {
  /** The whole conversation: history, then this run's messages. */
  messages: Message[];
  steps: number;
  /** `done`: the model answered without tool calls. `max-steps`: it was still calling tools. */
  stopped: 'done' | 'max-steps';
  /** Each refusal of media the loop repaired (left the named medium out, tightened the bytes or the image count). */
  repairs: MediaRepair[];
}

/**
 * The agent loop: serialize the conversation for the provider, ask the model, run the tools it calls
 * (in parallel), append their results in call order, and go again until it answers without calls.
 */
export async function runAgent(input: RunAgentInput): Promise<AgentRun> {
  const { model, provider, tools, session } = input;
  const definitions = tools.map((tool) => tool.definition);
  const messages: Message[] = [...(input.history ?? [])];
  const add = async (message: Message) => {
    messages.push(message);
    await session?.append(message);
  };
  await add({
    role: 'user',
    parts: typeof input.prompt === 'string' ? [{ type: 'text', text: input.prompt }] : input.prompt,
  });

  const maxSteps = input.maxSteps ?? 20;
  // The route of the whole run, decided once: what the client reads wins over the registry's guess.
  const route = resolveRoute({
    provider,
    ...(input.modelId !== undefined && { model: input.modelId }),
    overrides: {
      ...input.capabilities,
      imageInput: model.inputModalities.includes('image'),
      pdfInput: model.inputModalities.includes('pdf'),
    },
  });
  // History fitted for a roomier route is fitted again for this one, once per image for the whole run.
  const fitCache = createFitCache();
  // The history went out in earlier requests: a refusal naming no block on this run's first request is about a
  // medium the new turn adds.
  const state: MediaBudgetState = { refused: new Set(input.refusedMedia ?? []), accepted: historyMedia(input.history) };
  const logged = new LoggedRefusals(session, provider);
  // A 413 of an earlier run tightened this route's bytes per request: its first request is already under that.
  if (logged.maxRequestBytes !== undefined) state.maxRequestBytes = logged.maxRequestBytes;
  if (logged.maxImagesPerRequest !== undefined) state.maxImagesPerRequest = logged.maxImagesPerRequest;
  const repairs: MediaRepair[] = [];
  const { uploadMedia } = model;
  const references =
    uploadMedia === undefined
      ? undefined
      : resolveFileReferences({
          route: provider,
          upload: (media, signal) => uploadMedia.call(model, media, signal),
          // The session's log when there is one: a resumed session names its earlier uploads again.
          memory: input.references ?? (session ? sessionLogReferences(session) : createMemoryMediaReferences()),
        });
  const prepare = async () => {
    await logged.admit(messages, state.refused);
    const system = input.system ? { system: input.system } : {};
    // Each image fitted to the route, and the request as a whole to its bytes per request.
    const fitted = await fitConversation({
      ...system,
      messages: window(messages, route, input),
      tools: definitions,
      provider,
      route,
      cache: fitCache,
      refused: state.refused,
      ...(references !== undefined && { references }),
      ...(input.signal !== undefined && { signal: input.signal }),
      ...(state.maxRequestBytes !== undefined && { maxRequestBytes: state.maxRequestBytes }),
      ...(state.maxImagesPerRequest !== undefined && { maxImagesPerRequest: state.maxImagesPerRequest }),
    });
    const serialized = serialize(provider, { ...system, messages: fitted.messages, tools: definitions, route });
    const request: ModelRequest = {
      ...system,
      messages: fitted.messages,
      tools: definitions,
      serialized: { ...serialized, warnings: [...fitted.warnings, ...serialized.warnings] },
    };
    return { fitted, request };
  };
  for (let step = 1; step <= maxSteps; step++) {
    input.signal?.throwIfAborted();
    let { fitted, request } = await prepare();
    let turn: ModelTurn | undefined;
    // The turn's last repair: one per turn, but for a 413 after a 413 (mayRepair).
    let repaired: { code: string; sentBytes: number } | undefined;
    const forgotten = new Set<string>();
    while (turn === undefined) {
      try {
        turn = await model.next(request, input.signal);
      } catch (error) {
        let tightened: MediaRepair | undefined;
        // A file reference the provider no longer holds (deleted, gone early): its medium is uploaded again. Once per
        // reference the request sent, so a store that lost them all costs a small request each, not a failed turn.
        const stale = references && staleFileReference(error, request.messages);
        if (stale && !forgotten.has(stale.id)) {
          forgotten.add(stale.id);
          await references.forget(stale);
        } else {
          // A refusal of the request's media: repair the outgoing copy and send once more; the history is untouched.
          const refusal = classifyMediaRefusal(error);
          const sent = refusal && (fitted.requestBytes ?? requestBytes(provider, { ...request, route }));
          const repair =
            refusal && sent !== undefined && mayRepair(repaired, refusal.code, sent)
              ? repairMediaRefusal(refusal, request.serialized.body, fitted, sent, state)
              : undefined;
          if (repair === undefined || sent === undefined) throw error;
          repaired = { code: repair.refusal.code, sentBytes: sent };
          repairs.push(repair);
          input.onRepair?.(repair);
          // Written before the resend, so a run stopped now still never sends it again when resumed.
          const line = session ? await refusalLine(repair, provider) : undefined;
          if (line) await session?.appendMedia(line);
          if (repair.action !== 'left-out') tightened = repair;
        }
        const refused = fitted;
        ({ fitted, request } = await prepare());
        // A tightened bytes or image cap, written with each medium it changed, before the resend: a resume starts under it.
        if (session && tightened)
          for (const line of await refitLines(tightened, provider, refused, fitted)) await session.appendMedia(line);
      }
    }
    // What the provider took: a later refusal that names no block is about a medium added since.
    state.accepted = sentMedia(fitted);
    const assistant: AssistantMessage = { role: 'assistant', text: turn.text, toolCalls: turn.toolCalls };
    await add(assistant);
    const results = await Promise.all(turn.toolCalls.map((call) => runTool(tools, call, route, input.signal)));
    // Appended together: the writer's queue keeps call order and whole lines.
    messages.push(...results);
    if (session) await Promise.all(results.map((result) => session.append(result)));
    input.onStep?.({ request, assistant, results });
    if (turn.toolCalls.length === 0) return { messages, steps: step, stopped: 'done', repairs };
  }
  return { messages, steps: maxSteps, stopped: 'max-steps', repairs };
}

/**
 * Whether a refusal may be repaired: the first of the turn, or a 413 after a 413 whose resend was smaller than the
 * request refused before it (a gateway far under the route's cap: 3/4 of 118 KB is still over 50 KB, so it takes
 * a few tightenings). A resend as large as before (its text alone is over) is refused the same way: thrown.
 */
function mayRepair(last: { code: string; sentBytes: number } | undefined, code: string, sentBytes: number): boolean {
  if (last === undefined) return true;
  return code === 'E_REQUEST_TOO_LARGE' && last.code === 'E_REQUEST_TOO_LARGE' && sentBytes < last.sentBytes;
}

/** Stored base64 of every medium in the earlier conversation. */
function historyMedia(history: readonly Message[] | undefined): Set<string> {
  const media = new Set<string>();
  for (const message of history ?? [])
    if (message.role !== 'assistant') for (const part of message.parts) if (part.type !== 'text') media.add(part.data);
  return media;
}

/** The messages a request carries: all of them, or the window within `contextBudget`. */
function window(messages: readonly Message[], route: ModelRoute, { contextBudget }: RunAgentInput): Message[] {
  if (contextBudget === undefined) return [...messages];
  const estimate = (message: Message) => estimateMessageTokens(message, { provider: route.provider, route });
  return chooseWindow({ messages, budget: contextBudget, estimate }).messages;
}

/** Runs one call; an unknown tool or a thrown error becomes an error result the model can read. */
async function runTool(
  tools: readonly AgentTool[],
  call: ToolCall,
  route: ModelRoute,
  signal: AbortSignal | undefined,
): Promise<ToolResultMessage> {
  const message = (parts: Part[], isError: boolean): ToolResultMessage => ({
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    parts,
    isError,
  });
  const tool = tools.find((candidate) => candidate.definition.name === call.name);
  if (tool === undefined) {
    const known = tools.map((candidate) => candidate.definition.name).join(', ') || 'none';
    return message(
      [{ type: 'text', text: `There is no tool named ${JSON.stringify(call.name)}. Available tools: ${known}.` }],
      true,
    );
  }
  try {
    const context = signal ? { signal } : {};
    if ('handler' in tool) {
      const output = await tool.handler(call.arguments, context);
      return await toolResultFrom({ toolCallId: call.id, toolName: call.name, output, route });
    }
    const result = await tool.execute(call.arguments, context);
    return message(result.parts, result.isError);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return message([{ type: 'text', text: `The ${call.name} tool failed: ${reason}` }], true);
  }
}
