// The Worker of the Workers session-store suite: a D1SessionStore over the DB (D1) and MEDIA (R2) bindings.
// POST /append?id=ID with a JSON array of messages appends them (reopening the session, so a second POST
// resumes it), and with &timings=1 also each append's milliseconds (workerd's clock moves across the D1 and
// R2 calls, which is what an append waits for); GET /read?id=ID returns the session as read back.
import { D1SessionStore, type D1Like, type R2Like } from '../../../packages/agent/src/session/d1-session-store.js';
import type { MediaFact } from '../../../packages/agent/src/session/session-format.js';
import type { Message } from '../../../packages/agent/src/types.js';

interface Env {
  DB: D1Like;
  MEDIA: R2Like;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const id = url.searchParams.get('id') ?? 'session';
    try {
      const store = await D1SessionStore.open(env.DB, env.MEDIA);
      if (url.pathname === '/append') {
        const messages: Message[] = await request.json();
        const session = await store.openSession(id, { app: { name: 'workers suite' } });
        const times: number[] = [];
        for (const message of messages) {
          const started = Date.now();
          await session.append(message);
          times.push(Date.now() - started);
        }
        await session.close();
        const answer = { resumed: session.resumed?.messages.length ?? 0, appended: messages.length };
        return Response.json(url.searchParams.has('timings') ? { ...answer, times } : answer);
      }
      if (url.pathname === '/media') {
        // POST /media?id=ID with a JSON array of media facts appends them as media lines.
        const facts: MediaFact[] = await request.json();
        const session = await store.openSession(id);
        for (const fact of facts) await session.appendMedia(fact);
        await session.close();
        return Response.json({ appended: facts.length });
      }
      if (url.pathname === '/read') return Response.json(await store.readSession(id));
      if (url.pathname === '/list') return Response.json(await store.listSessions());
      return new Response('not found', { status: 404 });
    } catch (error) {
      const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'E_INTERNAL';
      return Response.json({ error: { code, message: String(error) } }, { status: 500 });
    }
  },
};
