import sharp from 'sharp';
import { AVATAR_SIZE_PX, COVER_WIDTH_PX, UPLOAD_LIMITS, USER_IMAGE_MIMES, type UserImageKind } from '@sitewalk/proto';
import { type User, db } from '../db/index.js';
import { lockUser, patchUser } from '../repositories/users.repository.js';
import { badRequest, notFound, payloadTooLarge } from '../errors.js';
import { detectType, type UploadedFile } from '../uploaded-file.js';
import { newKey, putBuffer, remove } from '../storage/index.js';

const MEGAPIXELS = Math.round(UPLOAD_LIMITS.imagePixels / 1_000_000);
const UNREADABLE = 'The image could not be read. It may be damaged; try another file.';

/**
 * Turns an uploaded picture into what we store: real type checked by its
 * bytes, pixel count limited before decoding, turned upright, resized (a
 * square crop for avatars, a fixed width for covers) and re-encoded as WebP,
 * which drops every piece of metadata (GPS position, camera, comments).
 */
async function processImage(file: UploadedFile, kind: UserImageKind): Promise<Buffer> {
  await detectType(file, USER_IMAGE_MIMES, 'a JPEG, PNG or WebP image');
  let meta: sharp.Metadata;
  try {
    // Only the header is read here, so no limit is needed to learn the size.
    meta = await sharp(file.filepath, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(UNREADABLE);
  }
  if (!meta.width || !meta.height) throw badRequest(UNREADABLE);
  if (meta.width * meta.height > UPLOAD_LIMITS.imagePixels) {
    throw payloadTooLarge(`The image is too large: ${meta.width} × ${meta.height} pixels. The limit is ${MEGAPIXELS} megapixels.`);
  }
  const image = sharp(file.filepath, { limitInputPixels: UPLOAD_LIMITS.imagePixels, failOn: 'error' }).rotate();
  const resized =
    kind === 'avatar'
      ? image.resize(AVATAR_SIZE_PX, AVATAR_SIZE_PX, { fit: 'cover', position: 'centre' })
      : image.resize({ width: COVER_WIDTH_PX, withoutEnlargement: true });
  try {
    return await resized.webp({ quality: 85 }).toBuffer();
  } catch {
    throw badRequest(UNREADABLE);
  }
}

const folderOf = (userId: number, kind: UserImageKind) => `users/${userId}/${kind === 'avatar' ? 'avatar' : 'cover'}`;

/** Replaces the user's avatar or cover; the previous file leaves storage once the new one is saved. */
export async function replaceUserImage(userId: number, kind: UserImageKind, file: UploadedFile): Promise<User> {
  const data = await processImage(file, kind);
  const key = newKey(folderOf(userId, kind), 'webp');
  await putBuffer(key, data);
  let previous: string | null = null;
  try {
    const user = await db().transaction(async (trx) => {
      const current = await lockUser(trx, userId);
      if (!current) throw notFound();
      previous = current[kind];
      return patchUser(trx, userId, { [kind]: key });
    });
    await remove(previous);
    return user;
  } catch (err) {
    await remove(key);
    throw err;
  }
}

/** Removes the user's avatar or cover (nothing to do when there is none). */
export async function deleteUserImage(userId: number, kind: UserImageKind): Promise<User> {
  let previous: string | null = null;
  const user = await db().transaction(async (trx) => {
    const current = await lockUser(trx, userId);
    if (!current) throw notFound();
    previous = current[kind];
    return previous ? patchUser(trx, userId, { [kind]: null }) : current;
  });
  await remove(previous);
  return user;
}
