/**
 * The roll API: `POST /api/rolls` queues a roll (bearer token, checked body,
 * refused with a reason when the loaded dice cannot give it); `GET
 * /api/rolls/:id` reports its progress and answer; its evidence frames are
 * listed and served beside it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { encodePng } from '../../camera/decode.js';
import { describeSpec } from '../rolls/describeSpec.js';
import { parseRollRequest, RollRequestError } from '../rolls/request.js';
import { jobDoneWithin, SERVER_STOPPING } from '../queue/rollJob.js';
import { waitNote } from '../queue/waitNote.js';
import { bearerClient, withinLimit } from '../security/guard.js';
import type { RouteContext } from './context.js';
import { jsonBody } from './jsonBody.js';

const MAX_WAIT_S = 10;

export function rollRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { controller } = ctx;

  app.post<{ Querystring: { wait?: string } }>('/api/rolls', async (req, reply) => {
    const client = bearerClient(req, reply, ctx.tokens.api, ctx.failedAuth);
    // Only a roll taken spends from the rate limit, as on chat: a bot asking again while its queue is full (429), or
    // with dice it cannot have (400, 422), would otherwise spend its tokens on refusals and stay refused after.
    if (client === undefined || !withinLimit(reply, ctx.apiLimit, client, false, false)) return reply;
    if (!jsonBody(req, reply)) return reply;
    let spec;
    try {
      spec = parseRollRequest(req.body);
    } catch (e) {
      if (e instanceof RollRequestError) return reply.code(400).send({ error: e.message });
      throw e;
    }
    const refused = controller.refuse(spec);
    if (refused !== undefined) return reply.code(422).send({ error: `cannot roll this with the loaded dice: ${refused}` });
    if (controller.stopping) return reply.code(503).send({ error: `${SERVER_STOPPING}; no new rolls are taken` });
    if (controller.waitingFor(client) >= controller.maxWaitingPerClient) {
      return reply.code(429).header('Retry-After', '10').send({ error: `you already have ${controller.maxWaitingPerClient} rolls waiting; wait for them first` });
    }
    ctx.apiLimit.take(client);
    const job = controller.submit(spec, client, describeSpec(spec));
    const wait = Math.min(MAX_WAIT_S, Math.max(0, Number(req.query.wait ?? 0) || 0));
    if (wait > 0) await jobDoneWithin(job, wait * 1000);
    const view = controller.view(job);
    // Abandoned at shutdown while this caller waited: a real answer naming the roll, before the server closes.
    if (view.state === 'abandoned') return reply.code(503).header('Location', `/api/rolls/${job.id}`).send(view);
    // An ended roll is a final answer (its state says how it ended); 202 only while it is still to come.
    const note = view.state === 'queued' ? waitNote(controller.modeState() as { mode: string; run: unknown }) : undefined;
    return reply
      .code(view.state === 'queued' || view.state === 'rolling' ? 202 : 200)
      .header('Location', `/api/rolls/${job.id}`)
      .send({ ...view, ...(note !== undefined ? { note } : {}) });
  });

  // A wrong method on a known address is 405 with what it allows, not 404 (which says the address is wrong).
  const allowOnly = (allow: string) => async (req: FastifyRequest, reply: FastifyReply) =>
    reply.code(405).header('Allow', allow).send({ error: `${req.method} is not allowed here; this address takes ${allow}` });
  app.route({ method: ['GET', 'PUT', 'PATCH', 'DELETE'], url: '/api/rolls', handler: allowOnly('POST') });
  app.route({ method: ['POST', 'PUT', 'PATCH'], url: '/api/rolls/:id', handler: allowOnly('GET, DELETE') });

  // Looking at a roll and cancelling one spend nothing from the rate limit, which is for rolls: a bot polling the
  // Location it was given once a second spent half its rolls on looking, and one that spent it could not cancel.
  app.get<{ Params: { id: string } }>('/api/rolls/:id', async (req, reply) => {
    const client = bearerClient(req, reply, ctx.tokens.api, ctx.failedAuth);
    if (client === undefined) return reply;
    const job = controller.roll(req.params.id);
    if (job) return controller.view(job);
    // Not in memory (older, or from before a restart): as the roll store kept it.
    const kept = controller.keptRoll(req.params.id);
    if (kept) return kept.view;
    return reply.code(404).send({ error: `there is no roll ${req.params.id}` });
  });

  app.delete<{ Params: { id: string } }>('/api/rolls/:id', async (req, reply) => {
    const client = bearerClient(req, reply, ctx.tokens.api, ctx.failedAuth);
    if (client === undefined) return reply;
    const job = controller.roll(req.params.id);
    if (!job) {
      const kept = controller.keptRoll(req.params.id);
      if (kept) return reply.code(409).send({ error: `roll ${kept.view.id} is ${kept.view.state}; only a waiting roll can be cancelled` });
      return reply.code(404).send({ error: `there is no roll ${req.params.id}` });
    }
    if (!controller.cancel(job.id)) return reply.code(409).send({ error: `roll ${job.id} is ${job.state}; only a waiting roll can be cancelled` });
    return controller.view(job);
  });

  // Evidence is what the stream saw: open to read, like the overlay.
  app.get<{ Params: { id: string } }>('/api/rolls/:id/evidence', async (req, reply) => {
    const job = controller.roll(req.params.id);
    if (!job) {
      // Its pictures are no longer held: the files the store sealed, with their hashes (dicerig verify checks them).
      const kept = controller.keptRoll(req.params.id);
      if (kept) return { roll: kept.view.id, sessionId: kept.sessionId, frames: kept.evidenceFiles.map(({ path, hash, ...e }) => ({ ...e, ...(path !== undefined ? { stored: path, sha256: hash } : {}) })) };
      return reply.code(404).send({ error: `there is no roll ${req.params.id}` });
    }
    return {
      roll: job.id,
      sessionId: controller.modeState().streamSession ?? null,
      frames: job.evidence.map((e, i) => ({ throwIndex: e.throwIndex, channel: e.channel, label: e.label, url: `/api/rolls/${job.id}/evidence/${i}.png`, ...(e.path ? { stored: e.path, sha256: e.hash } : {}) })),
    };
  });

  app.get<{ Params: { id: string; n: string } }>('/api/rolls/:id/evidence/:n', async (req, reply) => {
    const m = /^(\d+)\.png$/.exec(req.params.n);
    const e = m ? controller.roll(req.params.id)?.evidence[Number(m[1])] : undefined;
    if (!e) return reply.code(404).send({ error: 'no such evidence frame' });
    return reply.type('image/png').header('Cache-Control', 'max-age=3600').send(await encodePng(e.crop));
  });
}
