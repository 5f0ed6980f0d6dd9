/**
 * The live stream (WebSocket `/live`: the current state first, then every
 * event), the pictures it points to (the latest frames and die crops), and
 * the state as JSON.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { encodeJpeg, encodePng } from '../../camera/decode.js';
import type { RgbImage } from '../../core/image.js';
import type { RouteContext } from './context.js';

const jpegCache = new WeakMap<RgbImage, Promise<Buffer>>();

function jpeg(image: RgbImage): Promise<Buffer> {
  let p = jpegCache.get(image);
  if (p === undefined) {
    p = encodeJpeg(image, 80);
    jpegCache.set(image, p);
  }
  return p;
}

export function liveRoutes(app: FastifyInstance, ctx: RouteContext): void {
  // A page over the limits is refused before the upgrade (503, Retry-After), so it never opens and its
  // reconnect pause grows, rather than being let in and closed over and over.
  const refuseOverLimit = (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const why = ctx.liveSeats.refusal(req.ip);
    if (why === undefined) return done();
    void reply.code(503).header('Retry-After', '30').send({ error: why });
  };
  app.get('/live', { websocket: true, preValidation: refuseOverLimit }, (socket, req) => {
    const seat = ctx.liveSeats.take(req.ip);
    if (typeof seat === 'string') {
      // Another page took the last seat between the check and the upgrade. 1013: try again later.
      socket.close(1013, seat.slice(0, 120));
      return;
    }
    const leave = ctx.hub.join({
      send: (text) => socket.send(text),
      get bufferedAmount() {
        return socket.bufferedAmount;
      },
      close: () => socket.close(),
    });
    const gone = (): void => {
      leave();
      seat();
    };
    socket.on('close', gone);
    socket.on('error', gone);
    // The stream is one way; anything a page sends is ignored.
    socket.on('message', () => undefined);
  });

  app.get('/api/state', async () => ctx.controller.snapshot());

  app.get<{ Params: { id: string } }>('/live/frame/:id', async (req, reply) => {
    const m = /^(\d+)\.jpg$/.exec(req.params.id);
    const frame = m ? ctx.controller.frame(Number(m[1])) : undefined;
    if (!frame) return reply.code(404).send({ error: 'that frame is no longer kept' });
    return reply.type('image/jpeg').header('Cache-Control', 'max-age=60').send(await jpeg(frame.image));
  });

  app.get<{ Params: { frame: string; crop: string } }>('/live/crop/:frame/:crop', async (req, reply) => {
    const m = /^(\d+)\.png$/.exec(req.params.crop);
    const frame = ctx.controller.frame(Number(req.params.frame));
    const reading = m && frame ? frame.reading.readings[Number(m[1])] : undefined;
    if (!reading) return reply.code(404).send({ error: 'that crop is no longer kept' });
    return reply.type('image/png').header('Cache-Control', 'max-age=60').send(await encodePng(reading.read.crop));
  });
}
