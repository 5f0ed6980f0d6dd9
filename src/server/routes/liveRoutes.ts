/**
 * The live stream (WebSocket `/live`: the current state first, then every
 * event), the pictures it points to (the latest frames and die crops), and
 * the state as JSON.
 */
import type { FastifyInstance } from 'fastify';
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
  app.get('/live', { websocket: true }, (socket) => {
    const leave = ctx.hub.join({
      send: (text) => socket.send(text),
      get bufferedAmount() {
        return socket.bufferedAmount;
      },
      close: () => socket.close(),
    });
    socket.on('close', leave);
    socket.on('error', leave);
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
