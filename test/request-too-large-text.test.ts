// A 413 the media cannot mend: the request's text alone is over a gateway's cap. runAgent, through the Anthropic
// SDK, tightens the route's bytes per request once (to 3/4 of the refused request), but the cap acts on media only,
// so the resend is the same request, refused the same way, and the turn fails with that 413 (a 413 after a 413 is
// tightened again only when the resend was smaller). The log gets
// no `refit` line: a media line is a fact about one medium (its sha256), and there is none the cap changed; nor
// would the cap change what a resumed run sends for the same conversation (docs/sessions.md, media lines).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../packages/agent/src/entries/clients.js';
import { type MediaRepair, runAgent } from '../packages/agent/src/index.js';
import { JsonlSessionStore } from '../packages/agent/src/session/jsonl-session-store.js';
import { type ApiServer, startApiServer } from './support/api-server.js';
import { gatewayUnder } from './support/provider-caps.js';

const CAP = 100_000;
const gateway = gatewayUnder(CAP);

let server: ApiServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('a 413 over text alone', () => {
  it('is tightened once, resent unchanged, refused again; no media line is written', async () => {
    dir = await mkdtemp(join(tmpdir(), 'glimpse-413-text-'));
    server = await startApiServer([{ text: 'never reached' }], gateway);
    const store = new JsonlSessionStore(dir);
    const session = await store.openSession('t');
    const repairs: MediaRepair[] = [];
    const prompt = 'lorem ipsum '.repeat(CAP / 6); // ~200 KB of text, no medium
    const failure = await runAgent({
      model: createModelClient({
        provider: 'anthropic',
        model: 'claude-sonnet-4-6',
        apiKey: 'k',
        baseUrl: server.url,
        maxRetries: 0,
        env: {},
      }),
      provider: 'anthropic',
      tools: [],
      prompt,
      session,
      onRepair: (repair) => repairs.push(repair),
    }).catch((error: unknown) => error);
    await session.close();
    // The client's error for the second 413 (the loop classifies it as E_REQUEST_TOO_LARGE, and tightens again only
    // after a resend smaller than the request refused before it: this one is the same).
    expect(failure).toMatchObject({ details: { status: 413 } });
    expect(repairs.map((repair) => repair.refusal.code)).toEqual(['E_REQUEST_TOO_LARGE']);
    expect(repairs.map((repair) => repair.action)).toEqual(['bytes-tightened']);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.bytes).toBeGreaterThan(CAP);
    expect(server.requests[1]!.body).toStrictEqual(server.requests[0]!.body);
    const logged = await store.readSession('t');
    expect(logged.media ?? []).toEqual([]);
    expect(logged.messages.map((message) => message.role)).toEqual(['user']);
  }, 30_000);
});
