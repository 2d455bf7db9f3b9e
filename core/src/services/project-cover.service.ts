import sharp from 'sharp';
import { UPLOAD_LIMITS } from '@sitewalk/proto';
import { type Project, db } from '../db/index.js';
import { lockProjectRow, patchProject, projectById } from '../repositories/projects.repository.js';
import { badRequest, payloadTooLarge } from '../errors.js';
import { detectType, type UploadedFile } from '../uploaded-file.js';
import { newKey, putBuffer, remove } from '../storage/index.js';
import { requireProject } from './access.service.js';
import { projectFolder } from './sheets.service.js';
import { checkProjectAddition } from './plan-limits.service.js';
import { imageSizeWithinLimit } from '../image-size.js';

export const PROJECT_COVER_MIMES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** The cover as the project page shows it, and the copy the project cards load. */
const COVER_PX = 1600;
const COVER_THUMB_PX = 480;
const UNREADABLE = 'The image could not be read. It may be damaged; try another file.';

/**
 * Makes the two stored copies of a cover: type checked by the file's bytes,
 * pixel count checked before decoding, turned upright, resized and
 * re-encoded as WebP, which drops all metadata (GPS position, camera).
 */
async function coverImages(file: UploadedFile): Promise<{ cover: Buffer; thumb: Buffer }> {
  await detectType(file, PROJECT_COVER_MIMES, 'a JPEG, PNG or WebP image');
  await imageSizeWithinLimit(file.filepath, () => badRequest(UNREADABLE));
  const source = () => sharp(file.filepath, { limitInputPixels: UPLOAD_LIMITS.imagePixels, failOn: 'error' }).rotate();
  try {
    const [cover, thumb] = await Promise.all([
      source().resize({ width: COVER_PX, height: COVER_PX, fit: 'inside', withoutEnlargement: true }).webp({ quality: 82 }).toBuffer(),
      source().resize({ width: COVER_THUMB_PX, height: COVER_THUMB_PX, fit: 'inside', withoutEnlargement: true }).webp({ quality: 78 }).toBuffer(),
    ]);
    return { cover, thumb };
  } catch {
    throw badRequest(UNREADABLE);
  }
}

/** Replaces the project's cover; the previous files leave storage once the new ones are saved. */
export async function replaceProjectCover(user: { id: number; super_admin: boolean }, projectId: number, file: UploadedFile): Promise<void> {
  await requireProject(user, projectId, 'manage');
  const images = await coverImages(file);
  const bytes = images.cover.length + images.thumb.length;
  // The new cover replaces the old one: only the difference counts against the plan.
  const growth = (current: Project | undefined) => ({ storage_bytes: bytes - Number(current?.cover_bytes ?? 0) });
  await checkProjectAddition(db(), user, projectId, growth(await projectById(db(), projectId)));
  const folder = `${projectFolder(projectId)}/cover`;
  const coverKey = newKey(folder, 'webp');
  const thumbKey = coverKey.replace(/\.webp$/, '-thumb.webp');
  await Promise.all([putBuffer(coverKey, images.cover), putBuffer(thumbKey, images.thumb)]);
  let previous: (string | null)[] = [];
  try {
    await db().transaction(async (trx) => {
      const { project } = await requireProject(user, projectId, 'manage', trx);
      const current = await lockProjectRow(trx, project.id);
      previous = [current?.cover ?? null, current?.cover_thumb ?? null];
      await checkProjectAddition(trx, user, projectId, growth(current));
      await patchProject(trx, projectId, { cover: coverKey, cover_thumb: thumbKey, cover_bytes: bytes });
    });
  } catch (err) {
    await Promise.all([remove(coverKey), remove(thumbKey)]);
    throw err;
  }
  await Promise.all(previous.map((k) => remove(k)));
}

/** Removes the project's cover (nothing to do when there is none). */
export async function deleteProjectCover(user: { id: number; super_admin: boolean }, projectId: number): Promise<void> {
  const previous = await db().transaction(async (trx) => {
    await requireProject(user, projectId, 'manage', trx);
    const current = await lockProjectRow(trx, projectId);
    if (!current?.cover && !current?.cover_thumb) return [];
    await patchProject(trx, projectId, { cover: null, cover_thumb: null, cover_bytes: 0 });
    return [current.cover, current.cover_thumb];
  });
  await Promise.all(previous.map((k) => remove(k)));
}
