import zlib from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS } from '@sitewalk/proto';
import { User } from '@sitewalk/core/db';
import { api, createUser } from './helpers.js';

/** A photo as a phone makes it: JPEG with EXIF (camera, GPS-like comment). */
const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCam', ImageDescription: 'home address 12 Main St' } })
    .toBuffer();

/** A PNG whose header claims `width` × `height` pixels; it is never decoded that far. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const fetchStored = async (url: string) => {
  const res = await api().get(url).redirects(1).buffer(true).parse((r, cb) => {
    const parts: Buffer[] = [];
    r.on('data', (c: Buffer) => parts.push(c));
    r.on('end', () => cb(null, Buffer.concat(parts)));
  });
  return res;
};

describe('POST /api/users/avatar and /api/users/cover_image', () => {
  it('stores a 256×256 WebP avatar without the photo\'s metadata, shown by a signed URL', async () => {
    const { user, auth } = await createUser();
    const res = await api().post('/api/users/avatar').set(auth).attach('file', await photo(900, 600), 'me.jpg');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Avatar updated.');
    const url: string = res.body.data.avatar;
    expect(url).toMatch(/^\/api\/files\/users\/\d+\/avatar\/[0-9a-f-]+\.webp\?exp=\d+&sig=/);
    const file = await fetchStored(url);
    expect(file.status).toBe(200);
    const meta = await sharp(file.body as Buffer).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect((file.body as Buffer).includes(Buffer.from('SecretCam'))).toBe(false);
    // The profile shows it too.
    const me = await api().get(`/api/users/${user.id}`).set(auth);
    expect(me.body.data.avatar).toMatch(/\.webp\?exp=/);
  });

  it('stores a cover 1600 pixels wide keeping its ratio, and never enlarges a small one', async () => {
    const { auth } = await createUser();
    const big = await api().post('/api/users/cover_image').set(auth).attach('file', await sharp({ create: { width: 3200, height: 1000, channels: 3, background: '#336699' } }).png().toBuffer(), 'wide.png');
    expect(big.status).toBe(200);
    expect(big.body.message).toBe('Cover image updated.');
    const bigMeta = await sharp((await fetchStored(big.body.data.cover_image)).body as Buffer).metadata();
    expect(bigMeta).toMatchObject({ format: 'webp', width: 1600, height: 500 });
    const small = await api().post('/api/users/cover_image').set(auth).attach('file', await sharp({ create: { width: 800, height: 300, channels: 3, background: '#336699' } }).webp().toBuffer(), 'small.webp');
    const smallMeta = await sharp((await fetchStored(small.body.data.cover_image)).body as Buffer).metadata();
    expect(smallMeta).toMatchObject({ width: 800, height: 300 });
  });

  it('removes the previous file when a new one replaces it', async () => {
    const { auth } = await createUser();
    const first = await api().post('/api/users/avatar').set(auth).attach('file', await photo(300, 300), 'a.jpg');
    const second = await api().post('/api/users/avatar').set(auth).attach('file', await photo(400, 300), 'b.jpg');
    expect(second.body.data.avatar).not.toBe(first.body.data.avatar);
    expect((await fetchStored(first.body.data.avatar)).status).toBe(404);
    expect((await fetchStored(second.body.data.avatar)).status).toBe(200);
  });

  it('answers 415 to a file that is not an image, whatever its name', async () => {
    const { user, auth } = await createUser();
    const res = await api().post('/api/users/avatar').set(auth).attach('file', Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n'.repeat(20)), 'innocent.jpg');
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('This file is not a JPEG, PNG or WebP image. Accepted: JPEG, PNG, WEBP.');
    const text = await api().post('/api/users/cover_image').set(auth).attach('file', Buffer.from('just some text, not a picture at all'), 'cover.png');
    expect(text.status).toBe(415);
    expect((await User.query().findById(user.id))!.avatar).toBeNull();
  });

  it('answers 400 to a damaged image that only starts like one', async () => {
    const { auth } = await createUser();
    const whole = await photo(600, 400);
    const res = await api().post('/api/users/avatar').set(auth).attach('file', whole.subarray(0, 400), 'broken.jpg');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The image could not be read. It may be damaged; try another file.');
  });

  it('answers 413 to a file over the size limit', async () => {
    const { auth } = await createUser();
    const big = Buffer.alloc(UPLOAD_LIMITS.imageBytes + 1024 * 1024, 0);
    big.set(await photo(64, 64));
    const res = await api().post('/api/users/avatar').set(auth).attach('file', big, 'huge.jpg');
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The file is too large. The limit is 15 MB.');
  });

  it('answers 413 to an image with more pixels than allowed, before decoding it', async () => {
    const { auth } = await createUser();
    const res = await api().post('/api/users/avatar').set(auth).attach('file', pngClaiming(20_000, 20_000), 'bomb.png');
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The image is too large: 20000 × 20000 pixels. The limit is 50 megapixels.');
  });

  it('answers 400 without a file or when not sent as multipart, 401 without a token', async () => {
    const { auth } = await createUser();
    const noFile = await api().post('/api/users/avatar').set(auth).field('other', 'x');
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toBe('Choose a file to upload (field "file").');
    const json = await api().post('/api/users/avatar').set(auth).send({ file: 'x' });
    expect(json.status).toBe(400);
    expect(json.body.message).toBe('Send the file as multipart/form-data in a field named "file".');
    expect((await api().post('/api/users/avatar').attach('file', await photo(10, 10), 'a.jpg')).status).toBe(401);
  });
});

describe('DELETE /api/users/avatar/delete and /api/users/cover_image/delete', () => {
  it('removes the picture from the account and from storage', async () => {
    const { user, auth } = await createUser();
    const up = await api().post('/api/users/avatar').set(auth).attach('file', await photo(300, 300), 'a.jpg');
    await api().post('/api/users/cover_image').set(auth).attach('file', await photo(300, 300), 'c.jpg');
    const res = await api().delete('/api/users/avatar/delete').set(auth);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Avatar removed.');
    expect(res.body.data.avatar).toBeNull();
    expect(res.body.data.cover_image).toMatch(/\.webp\?/);
    expect((await fetchStored(up.body.data.avatar)).status).toBe(404);
    const cover = await api().delete('/api/users/cover_image/delete').set(auth);
    expect(cover.body.data.cover_image).toBeNull();
    expect(await User.query().findById(user.id)).toMatchObject({ avatar: null, cover_image: null });
    // Nothing left to remove is fine.
    expect((await api().delete('/api/users/avatar/delete').set(auth)).status).toBe(200);
  });

  it('answers 401 without a token', async () => {
    expect((await api().delete('/api/users/avatar/delete')).status).toBe(401);
    expect((await api().delete('/api/users/cover_image/delete')).status).toBe(401);
  });
});
