import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { MediaRecord } from '../../src/shared/schemas/media.js';
import { expectStatus, type Item, type Response } from './factories.js';

/** A multipart/form-data body with one file part, as a browser's form sends it. */
export function multipartBody(
  bytes: Buffer,
  fileName: string,
  declaredType: string,
  field = 'file',
): { payload: Buffer; contentType: string } {
  const boundary = `----media-${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
    `Content-Type: ${declaredType}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** POST /api/media with this file (any token, or none). */
export function postImage(
  app: FastifyInstance,
  token: string | null,
  bytes: Buffer,
  fileName = 'photo.jpg',
  declaredType = 'image/jpeg',
): Promise<Response> {
  const { payload, contentType } = multipartBody(bytes, fileName, declaredType);
  return app.inject({
    method: 'POST',
    url: '/api/media',
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload,
  });
}

export async function uploadImage(app: FastifyInstance, token: string, bytes: Buffer): Promise<MediaRecord> {
  return expectStatus<Item<MediaRecord>>(await postImage(app, token, bytes), 201).data;
}

/** A plain image of this size and colour. */
export function solidImage(width: number, height: number, format: 'jpeg' | 'png' | 'gif' | 'webp') {
  return sharp({ create: { width, height, channels: 3, background: '#3366aa' } })
    .toFormat(format)
    .toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A few hundred bytes that say, in a valid PNG header, that they are `width` × `height` pixels: what a
 * decompression bomb looks like before anything is decoded.
 */
export function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
