// Each provider's documented request body, written from its API reference as strict schemas: an unknown key, a
// misspelt field, a wrong enum value or a base64 string with a data-URL prefix where the API wants none fails.
// They cover the part of each API that glimpse emits, and the rules the reference states in prose (turn order,
// per-message caps, which blocks may sit where). Tests only: the library never validates its own output at run time.
import { z } from 'zod';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const base64 = z.string().min(1).regex(BASE64, 'raw base64, no data-URL prefix');
const dataUrl = (types: RegExp) =>
  z
    .string()
    .refine(
      (url) =>
        types.test(url.slice(5, url.indexOf(';'))) &&
        url.startsWith('data:') &&
        BASE64.test(url.slice(url.indexOf(',') + 1)),
      'a base64 data URL',
    );
const jsonObject = z.record(z.string(), z.unknown());
const jsonSchemaObject = z.looseObject({ type: z.literal('object') });
const IMAGE_TYPES = z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

// Anthropic Messages — POST /v1/messages
const anthropicText = z.strictObject({ type: z.literal('text'), text: z.string().min(1) });
const anthropicImage = z.strictObject({
  type: z.literal('image'),
  source: z.strictObject({ type: z.literal('base64'), media_type: IMAGE_TYPES, data: base64 }),
});
const anthropicDocument = z.strictObject({
  type: z.literal('document'),
  source: z.strictObject({ type: z.literal('base64'), media_type: z.literal('application/pdf'), data: base64 }),
  title: z.string().optional(),
  context: z.string().optional(),
});
const anthropicToolResult = z
  .strictObject({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1),
    content: z.union([z.string(), z.array(z.union([anthropicText, anthropicImage, anthropicDocument]))]).optional(),
    is_error: z.boolean().optional(),
  })
  .refine(
    (block) =>
      block.is_error !== true ||
      typeof block.content === 'string' ||
      (block.content ?? []).every((item) => item.type === 'text'),
    'an is_error result carries text only',
  );
const anthropicToolUse = z.strictObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: jsonObject,
});
const anthropicUser = z.strictObject({
  role: z.literal('user'),
  content: z.union([
    z.string().min(1),
    z.array(z.union([anthropicText, anthropicImage, anthropicDocument, anthropicToolResult])).min(1),
  ]),
});
const anthropicAssistant = z.strictObject({
  role: z.literal('assistant'),
  content: z.union([z.string().min(1), z.array(z.union([anthropicText, anthropicToolUse])).min(1)]),
});

export const anthropicRequest = z
  .strictObject({
    model: z.string().min(1),
    max_tokens: z.number().int().positive(),
    system: z.union([z.string(), z.array(anthropicText)]).optional(),
    tools: z
      .array(
        z.strictObject({
          name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/),
          description: z.string().optional(),
          input_schema: jsonSchemaObject,
        }),
      )
      .min(1)
      .optional(),
    messages: z.array(z.union([anthropicUser, anthropicAssistant])).min(1),
  })
  .superRefine((request, context) => {
    const blocks = (content: string | readonly { type: string }[]) => (typeof content === 'string' ? [] : content);
    const uses = request.messages.flatMap((message) =>
      blocks(message.content).filter((block) => block.type === 'tool_use'),
    );
    if (uses.length > 0 && request.tools === undefined)
      context.addIssue({ code: 'custom', message: 'tool_use blocks need tool definitions' });
    request.messages.forEach((message, index) => {
      const kinds = blocks(message.content).map((block) => block.type);
      // In a user turn every tool_result comes first.
      const firstOther = kinds.findIndex((kind) => kind !== 'tool_result');
      if (firstOther !== -1 && kinds.slice(firstOther).includes('tool_result')) {
        context.addIssue({ code: 'custom', message: `messages[${index}]: tool_result blocks must come first` });
      }
    });
    const images = request.messages
      .flatMap((message) => blocks(message.content))
      .filter((block) => block.type === 'image').length;
    if (images > 100) context.addIssue({ code: 'custom', message: `${images} images: at most 100 per request` });
  });

// OpenAI Chat Completions — POST /v1/chat/completions
const chatText = z.strictObject({ type: z.literal('text'), text: z.string() });
const chatImage = z.strictObject({
  type: z.literal('image_url'),
  image_url: z.strictObject({
    url: dataUrl(/^image\/(png|jpeg|gif|webp)$/),
    detail: z.enum(['auto', 'low', 'high']).optional(),
  }),
});
const chatFile = z.strictObject({
  type: z.literal('file'),
  file: z.strictObject({ filename: z.string().min(1), file_data: dataUrl(/^application\/pdf$/) }),
});
const chatToolCall = z.strictObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.strictObject({
    name: z.string().min(1),
    arguments: z.string().refine((text) => isJsonObject(text), 'a JSON object as a string'),
  }),
});
const chatMessage = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('system'), content: z.union([z.string(), z.array(chatText)]) }),
  z.strictObject({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(z.union([chatText, chatImage, chatFile])).min(1)]),
  }),
  z.strictObject({
    role: z.literal('assistant'),
    content: z.union([z.string(), z.null()]).optional(),
    tool_calls: z.array(chatToolCall).min(1).optional(),
  }),
  // Tool messages are text only.
  z.strictObject({
    role: z.literal('tool'),
    tool_call_id: z.string().min(1),
    content: z.union([z.string(), z.array(chatText)]),
  }),
]);

export const openAIChatRequest = z
  .strictObject({
    model: z.string().min(1),
    messages: z.array(chatMessage).min(1),
    tools: z
      .array(
        z.strictObject({
          type: z.literal('function'),
          function: z.strictObject({
            name: z.string().min(1),
            description: z.string().optional(),
            parameters: jsonObject.optional(),
            strict: z.boolean().optional(),
          }),
        }),
      )
      .min(1)
      .optional(),
  })
  .superRefine((request, context) => {
    // Every assistant tool call is answered by a tool message before anything else.
    request.messages.forEach((message, index) => {
      if (message.role !== 'assistant' || message.tool_calls === undefined) return;
      const next = request.messages.slice(index + 1, index + 1 + message.tool_calls.length);
      const ids = next.map((item) => (item.role === 'tool' ? item.tool_call_id : undefined));
      if (message.tool_calls.some((call, i) => ids[i] !== call.id))
        context.addIssue({
          code: 'custom',
          message: `messages[${index}]: tool calls must be answered, in order, by the next tool messages`,
        });
    });
  });

// OpenAI Responses — POST /v1/responses
const inputText = z.strictObject({ type: z.literal('input_text'), text: z.string() });
const inputImage = z.strictObject({
  type: z.literal('input_image'),
  image_url: dataUrl(/^image\/(png|jpeg|gif|webp)$/),
  detail: z.enum(['auto', 'low', 'high']).optional(),
});
const inputFile = z.strictObject({
  type: z.literal('input_file'),
  filename: z.string().min(1),
  file_data: dataUrl(/^application\/pdf$/),
});
const topLevelImage = inputImage.extend({ detail: z.enum(['auto', 'low', 'high']) });

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

// Gemini generateContent — POST /v1beta/models/{model}:generateContent (REST body; the model is in the URL)
const inlineData = z.strictObject({
  mimeType: z.string().regex(/^(image\/(png|jpeg|webp|heic|heif)|application\/pdf|text\/plain)$/),
  data: base64,
  displayName: z.string().optional(),
});
const geminiPart = z
  .strictObject({
    text: z.string().optional(),
    inlineData: inlineData.optional(),
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
            z.strictObject({
              inlineData: inlineData.extend({
                mimeType: z.string().regex(/^(image\/(png|jpeg|webp)|application\/pdf|text\/plain)$/),
              }),
            }),
          )
          .min(1)
          .optional(),
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
      [part.text, part.inlineData, part.functionCall, part.functionResponse].filter((value) => value !== undefined)
        .length === 1,
    'a part holds exactly one of text, inlineData, functionCall, functionResponse',
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
      if (withMedia && !mediaInFunctionResponse)
        context.addIssue({ code: 'custom', message: 'this model refuses media inside functionResponse' });
    });

// Bedrock Converse — POST /model/{modelId}/converse (JSON wire format: bytes as base64)
const bedrockImage = z.strictObject({
  format: z.enum(['png', 'jpeg', 'gif', 'webp']),
  source: z.strictObject({ bytes: base64 }),
});
const bedrockDocument = z.strictObject({
  format: z.enum(['pdf', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'html', 'txt', 'md']),
  name: z
    .string()
    .max(200)
    .regex(
      /^[A-Za-z0-9\-()[\]]+( [A-Za-z0-9\-()[\]]+)*$/,
      'letters, digits, single spaces, hyphens, parentheses, square brackets',
    ),
  source: z.strictObject({ bytes: base64 }),
});
const oneOf = <T extends Record<string, unknown>>(block: T) =>
  Object.values(block).filter((value) => value !== undefined).length === 1;
const bedrockResultItem = z
  .strictObject({
    text: z.string().optional(),
    json: jsonObject.optional(),
    image: bedrockImage.optional(),
    document: bedrockDocument.optional(),
  })
  .refine(oneOf, 'one member per block');
const bedrockBlock = z
  .strictObject({
    text: z.string().min(1).optional(),
    image: bedrockImage.optional(),
    document: bedrockDocument.optional(),
    toolUse: z.strictObject({ toolUseId: z.string().min(1), name: z.string().min(1), input: jsonObject }).optional(),
    toolResult: z
      .strictObject({
        toolUseId: z.string().min(1),
        content: z.array(bedrockResultItem).min(1),
        status: z.enum(['success', 'error']).optional(),
      })
      .optional(),
  })
  .refine(oneOf, 'one member per block');

export const bedrockRequest = z
  .strictObject({
    system: z.array(z.strictObject({ text: z.string().min(1) })).optional(),
    toolConfig: z
      .strictObject({
        tools: z
          .array(
            z.strictObject({
              toolSpec: z.strictObject({
                name: z.string().min(1),
                description: z.string().optional(),
                inputSchema: z.strictObject({ json: jsonObject }),
              }),
            }),
          )
          .min(1),
      })
      .optional(),
    messages: z
      .array(z.strictObject({ role: z.enum(['user', 'assistant']), content: z.array(bedrockBlock).min(1) }))
      .min(1),
  })
  .superRefine((request, context) => {
    request.messages.forEach((message, index) => {
      if (index > 0 && request.messages[index - 1]?.role === message.role)
        context.addIssue({ code: 'custom', message: `messages[${index}]: roles must alternate` });
      const inner = message.content.flatMap((block) => [block, ...(block.toolResult?.content ?? [])]);
      const images = inner.filter((block) => block.image !== undefined).length;
      const documents = inner.filter((block) => block.document !== undefined).length;
      if (images > 20 || documents > 5)
        context.addIssue({
          code: 'custom',
          message: `messages[${index}]: ${images} images, ${documents} documents (caps 20 and 5)`,
        });
      if (documents > 0 && !message.content.some((block) => block.text !== undefined))
        context.addIssue({
          code: 'custom',
          message: `messages[${index}]: a message with a document needs a text block`,
        });
      if (message.content.some((block) => block.toolUse !== undefined) && request.toolConfig === undefined)
        context.addIssue({ code: 'custom', message: 'toolUse blocks need toolConfig' });
    });
  });

// Ollama — POST /api/chat
export const ollamaRequest = z.strictObject({
  model: z.string().min(1),
  stream: z.boolean().optional(),
  messages: z.array(
    z.strictObject({
      role: z.enum(['system', 'user', 'assistant', 'tool']),
      content: z.string(),
      images: z.array(base64).min(1).optional(),
      tool_calls: z
        .array(z.strictObject({ function: z.strictObject({ name: z.string().min(1), arguments: jsonObject }) }))
        .min(1)
        .optional(),
      tool_name: z.string().min(1).optional(),
    }),
  ),
  tools: z
    .array(
      z.strictObject({
        type: z.literal('function'),
        function: z.strictObject({
          name: z.string().min(1),
          description: z.string().optional(),
          parameters: jsonSchemaObject,
        }),
      }),
    )
    .min(1)
    .optional(),
});

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
