/**
 * Chat bots (Streamer.bot, Nightbot, StreamElements): a plain GET with a
 * roll-only chat token in the query string, answered with one line of text
 * within a few seconds: the roll when done, else its place in the queue and
 * that the overlay will show it. Bots show nothing for an empty reply, so
 * every answer, refusals included, is a line.
 */
import type { FastifyInstance } from 'fastify';
import { clientKey, tokenMatches } from '../security/auth.js';
import { lockedOut } from '../security/guard.js';
import { parseRollRequest, RollRequestError } from '../rolls/request.js';
import { describeSpec } from '../rolls/describeSpec.js';
import { jobDoneWithin, SERVER_STOPPING } from '../queue/rollJob.js';
import { waitNote } from '../queue/waitNote.js';
import type { RouteContext } from './context.js';
import { shownName } from '../rolls/shownName.js';

export function chatRoutes(app: FastifyInstance, ctx: RouteContext): void {
  // Bots post the reply as is: a line break or terminal code from a viewer's name or dice must not make a second chat line.
  const oneLine = async (_req: unknown, _reply: unknown, payload: unknown): Promise<unknown> =>
    // eslint-disable-next-line no-control-regex
    typeof payload === 'string' ? payload.replace(/[\x00-\x1f\x7f]+/g, ' ') : payload;
  app.get<{ Querystring: { dice?: string; token?: string; by?: string } }>('/api/chat/roll', { onSend: oneLine }, async (req, reply) => {
    void reply.type('text/plain; charset=utf-8');
    const token = typeof req.query.token === 'string' ? req.query.token : undefined;
    if (lockedOut(req, reply, ctx.failedChatAuth, true)) return reply;
    // The chat token may only roll; the API token may do so too.
    if (!(tokenMatches(ctx.tokens.chat, token) || tokenMatches(ctx.tokens.api, token))) {
      if (token !== undefined && ctx.tokens.chat !== undefined) ctx.failedChatAuth.take(req.ip);
      return reply.code(401).send(ctx.tokens.chat === undefined ? 'Dice roller: chat rolls are off (no chat token set).' : 'Dice roller: wrong or missing chat token.');
    }
    const client = clientKey(token as string);
    const name = typeof req.query.by === 'string' ? shownName(req.query.by) : '';
    const by = name !== '' ? { by: name } : {};
    // Only a roll taken spends from the rate limit: a typo refused (400, 422, 429 for a full queue) moves nothing.
    const wait = ctx.chatLimit.wait(client);
    // In the bot's reply form, like every other chat answer.
    if (wait > 0) return reply.code(429).header('Retry-After', String(wait)).send(`${by.by !== undefined ? `@${by.by} ` : 'Dice roller: '}too many rolls asked from chat: try again in ${wait} s.`);
    let spec;
    try {
      spec = parseRollRequest({ dice: typeof req.query.dice === 'string' ? req.query.dice : '', ...by });
    } catch (e) {
      if (e instanceof RollRequestError) return reply.code(400).send(`Dice roller: ${e.message.replace(/^dice: /, '')}.`);
      throw e;
    }
    const refused = ctx.controller.refuse(spec);
    if (refused !== undefined) return reply.code(422).send(`Dice roller: cannot roll that: ${refused}.`);
    if (ctx.controller.stopping) return reply.code(503).send(`${by.by !== undefined ? `@${by.by} ` : ''}Dice roller: ${SERVER_STOPPING}; no new rolls are taken.`);
    const chatClient = `chat:${client}`;
    const cap = ctx.controller.maxWaitingPerChatUser;
    if (ctx.controller.waitingAskedBy(chatClient, by.by) >= cap) {
      const whom = by.by !== undefined ? `@${by.by} you` : 'Dice roller: chat';
      return reply.code(429).header('Retry-After', '10').send(`${whom} already ${by.by !== undefined ? 'have' : 'has'} ${cap} rolls waiting; wait for them first.`);
    }
    ctx.chatLimit.take(client);
    const job = ctx.controller.submit(spec, chatClient, describeSpec(spec));
    await jobDoneWithin(job, ctx.chatWaitMs);
    const who = job.by !== undefined ? `@${job.by} ` : '';
    if (job.state === 'done' && job.outcome) return `${who}${job.outcome.line}`;
    if (job.state === 'abandoned') return reply.code(503).send(`${who}Roll ${job.id} (${job.text}) was abandoned: ${SERVER_STOPPING}.`);
    if (job.state === 'failed' || job.state === 'cancelled') return `${who}Roll ${job.id} ${job.state}: ${job.error ?? ''}`.trim();
    const view = ctx.controller.view(job);
    const where = view.state === 'rolling' ? 'is rolling now' : `is number ${view.place ?? '?'} in the queue`;
    const note = view.state === 'queued' ? waitNote(ctx.controller.modeState() as { mode: string; run: unknown }) : undefined;
    return reply.code(202).send(`${who}Roll ${job.id} (${job.text}) ${where}${note !== undefined ? ` (${note})` : ''}; the overlay will show the result.`);
  });
}
