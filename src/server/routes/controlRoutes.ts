/**
 * Mode switch and start / pause / stop, for the dashboard and scripts (API token). They spend nothing from the
 * client's rate limit: a client that spent it (clearing the queue with DELETEs) must still be able to stop the rig.
 * Guessing is limited by the failed-token limit, and each action is cheap and idempotent.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bearerClient } from '../security/guard.js';
import type { RouteContext } from './context.js';
import { jsonBody } from './jsonBody.js';

const modeBody = z.strictObject({ mode: z.enum(['fairness', 'stream']) });
const runBody = z.strictObject({ action: z.enum(['start', 'pause', 'stop']) });

function problem(error: z.ZodError): string {
  const i = error.issues[0];
  return `${i?.path.join('.') || 'body'}: ${i?.message ?? 'not valid'}`;
}

export function controlRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.post('/api/mode', async (req, reply) => {
    const client = bearerClient(req, reply, ctx.tokens.api, ctx.failedAuth);
    if (client === undefined || !jsonBody(req, reply)) return reply;
    const body = modeBody.safeParse(req.body);
    if (!body.success) return reply.code(400).send({ error: problem(body.error) });
    await ctx.controller.setMode(body.data.mode);
    return ctx.controller.modeState();
  });

  app.post('/api/run', async (req, reply) => {
    const client = bearerClient(req, reply, ctx.tokens.api, ctx.failedAuth);
    if (client === undefined || !jsonBody(req, reply)) return reply;
    const body = runBody.safeParse(req.body);
    if (!body.success) return reply.code(400).send({ error: problem(body.error) });
    const c = ctx.controller;
    await (body.data.action === 'start' ? c.start() : body.data.action === 'pause' ? c.pause() : c.stop());
    return c.modeState();
  });
}
